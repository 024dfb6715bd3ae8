//! What the analysis commands of both games share: the dialects (`lz-analyze`,
//! `kata-analyze`, Sabaki's `analyze`) and kinds (live analysis, or a genmove that reports
//! while it searches), their arguments as KataGo's `GTP_Extensions.md` defines them, and
//! the frame of a streamed answer (`=id`, a report every interval, the empty line).

use std::io::{self, Write};
use std::time::Duration;

use crate::color::Color;
use crate::gtp::error::GtpError;
use crate::gtp::parse;

/// How a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero's (`lz-`): win rates and priors in ten-thousandths, no scores.
    Leela,
    /// Sabaki's own `analyze`: Leela Zero's numbers, plus the scores as decimals.
    Sabaki,
    /// KataGo's (`kata-`): fractions, the scores, ownership and the root's summary when
    /// asked.
    Kata,
}

impl Dialect {
    /// A win rate (or prior) in this dialect.
    pub fn value(self, x: f64) -> String {
        match self {
            Dialect::Leela | Dialect::Sabaki => {
                format!("{}", (x.clamp(0.0, 1.0) * 10000.0).round() as i64)
            }
            Dialect::Kata => format!("{:.6}", x.clamp(0.0, 1.0)),
        }
    }

    /// Whether reports carry scores.
    pub fn scores(self) -> bool {
        self != Dialect::Leela
    }
}

/// What an analysis command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Reports until new input arrives.
    Analyze,
    /// Chooses and plays a move as genmove does, reporting while it searches, then
    /// answers `play MOVE`; new input waits.
    Genmove,
}

/// The dialect and kind of an analysis command, or `None` for any other command.
pub fn analysis_command(name: &str) -> Option<(Dialect, Kind)> {
    Some(match name {
        "analyze" => (Dialect::Sabaki, Kind::Analyze),
        "lz-analyze" => (Dialect::Leela, Kind::Analyze),
        "kata-analyze" => (Dialect::Kata, Kind::Analyze),
        "genmove_analyze" => (Dialect::Sabaki, Kind::Genmove),
        "lz-genmove_analyze" => (Dialect::Leela, Kind::Genmove),
        "kata-genmove_analyze" => (Dialect::Kata, Kind::Genmove),
        _ => return None,
    })
}

/// `avoid COLOUR VERTICES UNTIL` or `allow ...`, the vertices as given (each game reads
/// them on its own board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    /// `allow`: every move but these is avoided; `avoid`: these are.
    pub allow: bool,
    pub color: Color,
    pub vertices: Vec<String>,
    /// The ply from which the moves are searched again (at least 1).
    pub until: u32,
}

/// Parsed arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The side analysed (or to move, for a genmove).
    pub color: Color,
    pub interval: Duration,
    pub min_moves: usize,
    pub max_moves: usize,
    /// KataGo's `ownership`, `movesOwnership`, `rootInfo`.
    pub ownership: bool,
    pub moves_ownership: bool,
    pub root_info: bool,
    pub restrictions: Vec<Restriction>,
}

/// Default report interval when none is given (Sabaki sends 50 centiseconds).
const DEFAULT_INTERVAL_CS: f64 = 100.0;

/// Keys only the KataGo dialect takes, each a boolean. `ownershipStdev`,
/// `movesOwnershipStdev`, `pvVisits`, `pvEdgeVisits` and `noResultValue` are taken and
/// change nothing.
const KATA_FLAGS: [&str; 8] = [
    "ownership",
    "movesOwnership",
    "rootInfo",
    "ownershipStdev",
    "movesOwnershipStdev",
    "pvVisits",
    "pvEdgeVisits",
    "noResultValue",
];

fn bad(why: String) -> GtpError {
    GtpError::BadArgument(format!("bad analysis argument: {why}"))
}

/// The longest interval taken, in centiseconds (about four months): a deadline this far
/// ahead is still a valid instant.
const MAX_INTERVAL_CS: f64 = 1e9;

/// An interval in centiseconds: a number from 0, below [`MAX_INTERVAL_CS`].
fn interval(text: &str) -> Option<Duration> {
    let cs = parse::parse_float(text)
        .ok()
        .filter(|cs| (0.0..MAX_INTERVAL_CS).contains(cs))?;
    Some(Duration::from_secs_f64(cs / 100.0))
}

/// The arguments of an analysis command, as KataGo reads them: `[COLOUR] [INTERVAL]`, then
/// key-value pairs (`interval CS`, `minmoves N`, `maxmoves N`, `avoid C V,V,.. UNTIL`,
/// `allow C V,V,.. UNTIL`, and in the KataGo dialect its boolean keys). The colour
/// defaults to `to_move`.
///
/// # Errors
/// A syntax error for a key without its value or a value that is not the entity it must
/// be; a bad argument (saying why) for an unknown key, a key of another dialect, an
/// `UNTIL` below 1, or `allow` given twice or with `avoid` for one colour.
pub fn request(to_move: Color, args: &[String], dialect: Dialect) -> Result<Request, GtpError> {
    let mut rest = args;
    let mut request = Request {
        color: to_move,
        interval: Duration::from_secs_f64(DEFAULT_INTERVAL_CS / 100.0),
        min_moves: 0,
        max_moves: usize::MAX,
        ownership: false,
        moves_ownership: false,
        root_info: false,
        restrictions: Vec::new(),
    };
    if let Some(first) = rest.first()
        && let Ok(c) = parse::parse_color(first)
    {
        request.color = c;
        rest = &rest[1..];
    }
    if let Some(first) = rest.first()
        && let Some(i) = interval(first)
    {
        request.interval = i;
        rest = &rest[1..];
    }
    while let Some((key, after)) = rest.split_first() {
        let (value, after) = after.split_first().ok_or(GtpError::Syntax)?;
        rest = after;
        match key.as_str() {
            "interval" => request.interval = interval(value).ok_or(GtpError::Syntax)?,
            "minmoves" => request.min_moves = parse::parse_int(value)? as usize,
            "maxmoves" => request.max_moves = parse::parse_int(value)? as usize,
            "avoid" | "allow" => {
                let [vertices, until, after @ ..] = rest else {
                    return Err(GtpError::Syntax);
                };
                rest = after;
                let color = parse::parse_color(value)?;
                let until = parse::parse_int(until)?;
                if until < 1 {
                    return Err(bad(format!("{key}'s ply must be 1 or more, not {until}")));
                }
                let allow = key == "allow";
                let same_colour = request.restrictions.iter().filter(|r| r.color == color);
                if same_colour.clone().any(|r| r.allow) || (allow && same_colour.count() > 0) {
                    return Err(bad(format!(
                        "allow excludes any other avoid or allow for {color}"
                    )));
                }
                request.restrictions.push(Restriction {
                    allow,
                    color,
                    vertices: vertices
                        .split(',')
                        .map(str::trim)
                        .filter(|v| !v.is_empty())
                        .map(String::from)
                        .collect(),
                    until,
                });
            }
            flag if KATA_FLAGS.contains(&flag) => {
                if dialect != Dialect::Kata {
                    return Err(bad(format!("{flag} is a key of the kata- commands")));
                }
                let on = parse::parse_bool(value)?;
                match flag {
                    "ownership" => request.ownership = on,
                    "movesOwnership" => request.moves_ownership = on,
                    "rootInfo" => request.root_info = on,
                    _ => {}
                }
            }
            other => return Err(bad(format!("unknown key '{other}'"))),
        }
    }
    Ok(request)
}

/// A streamed analysis command, as the engine hands it to a game's state: its id and
/// arguments, its dialect and kind, where the reports go, and when to stop (new input is
/// waiting).
pub struct Stream<'a> {
    pub id: Option<&'a str>,
    pub args: &'a [String],
    pub dialect: Dialect,
    pub kind: Kind,
    pub out: &'a mut dyn Write,
    pub stop: &'a dyn Fn() -> bool,
}

/// What a streamed command comes to: an error writing the output, else the command's own
/// error, if any (then nothing was written).
pub type Streamed = io::Result<Result<(), GtpError>>;

impl Stream<'_> {
    /// Starts the answer: the arguments checked (the colour defaulting to `to_move`) by
    /// `check`, the game's own reading of the request, then `=id` written at once, before
    /// the first report, so that the front end knows the command was taken.
    ///
    /// # Errors
    /// Writing failed; inside, the arguments' error (nothing written then).
    pub fn open<T>(
        &mut self,
        to_move: Color,
        check: impl FnOnce(&Request) -> Result<T, GtpError>,
    ) -> io::Result<Result<(Request, T), GtpError>> {
        let checked = request(to_move, self.args, self.dialect)
            .and_then(|request| check(&request).map(|t| (request, t)));
        let (request, t) = match checked {
            Ok(r) => r,
            Err(error) => return Ok(Err(error)),
        };
        writeln!(self.out, "={}", self.id.unwrap_or(""))?;
        self.out.flush()?;
        Ok(Ok((request, t)))
    }

    /// One report, on a line of its own.
    ///
    /// # Errors
    /// Writing failed.
    pub fn report(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Ends the answer: the last report, if there is one, then the empty line.
    ///
    /// # Errors
    /// Writing failed.
    pub fn close(&mut self, last: Option<String>) -> io::Result<()> {
        if let Some(line) = last {
            writeln!(self.out, "{line}")?;
        }
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn kata(text: &str) -> Result<Request, GtpError> {
        request(Color::Black, &args(text), Dialect::Kata)
    }

    #[test]
    fn reads_katagos_keys() {
        let r = kata(
            "w 25.5 minmoves 3 maxmoves 10 ownership true rootInfo true \
                      movesOwnership false pvVisits true avoid b D4,,e5 2 allow w pass 1",
        )
        .unwrap();
        assert_eq!(r.color, Color::White);
        assert_eq!(r.interval, Duration::from_millis(255));
        assert_eq!((r.min_moves, r.max_moves), (3, 10));
        assert!(r.ownership && r.root_info && !r.moves_ownership);
        assert_eq!(
            r.restrictions,
            [
                Restriction {
                    allow: false,
                    color: Color::Black,
                    vertices: vec!["D4".into(), "e5".into()],
                    until: 2
                },
                Restriction {
                    allow: true,
                    color: Color::White,
                    vertices: vec!["pass".into()],
                    until: 1
                }
            ]
        );
        let plain = kata("").unwrap();
        assert_eq!((plain.color, plain.max_moves), (Color::Black, usize::MAX));
        assert_eq!(plain.interval, Duration::from_secs(1));
        assert_eq!(kata("interval 0").unwrap().interval, Duration::ZERO);
    }

    #[test]
    fn rejects_what_katago_rejects() {
        for (text, error) in [
            ("b 10 interval", "syntax error"),
            ("interval x", "syntax error"),
            ("interval 1000000000", "syntax error"),
            ("interval 99999999999999999999", "syntax error"),
            ("10 20", "syntax error"),
            ("minmoves -1", "syntax error"),
            ("ownership maybe", "syntax error"),
            ("avoid b D4", "syntax error"),
            ("avoid purple D4 1", "syntax error"),
            ("avoid b D4 x", "syntax error"),
            (
                "avoid b D4 0",
                "bad analysis argument: avoid's ply must be 1 or more, not 0",
            ),
            (
                "allow b D4 1 avoid b E5 1",
                "bad analysis argument: allow excludes any other avoid or allow for black",
            ),
            (
                "avoid w D4 1 allow w E5 1",
                "bad analysis argument: allow excludes any other avoid or allow for white",
            ),
            ("foo 3", "bad analysis argument: unknown key 'foo'"),
        ] {
            assert_eq!(kata(text).unwrap_err().to_string(), error, "{text}");
        }
        // Avoiding for both colours, or twice for one, is fine.
        assert!(kata("avoid b D4 1 avoid b E5 2 allow w D4 1").is_ok());
        let lz = request(Color::Black, &args("ownership true"), Dialect::Leela);
        assert_eq!(
            lz.unwrap_err().to_string(),
            "bad analysis argument: ownership is a key of the kata- commands"
        );
    }
}
