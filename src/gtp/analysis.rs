//! What the analysis commands of both games share: the dialects (`lz-analyze`,
//! `kata-analyze`), their arguments, and the frame of a streamed answer (`=id`, a report
//! every interval, the empty line).

use std::io::{self, Write};
use std::time::Duration;

use crate::color::Color;
use crate::gtp::error::GtpError;
use crate::gtp::parse;

/// How win rates are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Ten-thousandths (Leela Zero; Sabaki's `analyze`).
    Integer,
    /// Fractions (KataGo).
    Float,
}

impl Dialect {
    /// A win rate (or prior) in this dialect.
    pub fn value(self, x: f64) -> String {
        match self {
            Dialect::Integer => format!("{}", (x.clamp(0.0, 1.0) * 10000.0).round() as i64),
            Dialect::Float => format!("{:.6}", x.clamp(0.0, 1.0)),
        }
    }
}

/// The dialect of an analysis command, or `None` for any other command.
pub fn dialect(name: &str) -> Option<Dialect> {
    match name {
        "analyze" | "lz-analyze" => Some(Dialect::Integer),
        "kata-analyze" => Some(Dialect::Float),
        _ => None,
    }
}

/// Parsed arguments: the colour to analyse and the report interval.
pub struct Request {
    pub color: Color,
    pub interval: Duration,
}

/// Default report interval when none is given (Sabaki sends 50 centiseconds).
const DEFAULT_INTERVAL_CS: u32 = 100;

/// The arguments of an analysis command: `[COLOUR] [INTERVAL]` and key-value pairs; the
/// colour defaults to `to_move`.
///
/// # Errors
/// A syntax error for a key without a value or an `interval` that is no number.
pub fn request(to_move: Color, args: &[String]) -> Result<Request, GtpError> {
    let mut rest = args;
    let mut color = to_move;
    if let Some(first) = rest.first()
        && let Ok(c) = parse::parse_color(first)
    {
        color = c;
        rest = &rest[1..];
    }
    let mut interval = DEFAULT_INTERVAL_CS;
    if let Some(first) = rest.first()
        && let Ok(n) = parse::parse_int(first)
    {
        interval = n;
        rest = &rest[1..];
    }
    // Key-value pairs: `interval` is understood, the others (minmoves, avoid, ownership...)
    // are accepted and ignored.
    if !rest.len().is_multiple_of(2) {
        return Err(GtpError::Syntax);
    }
    for pair in rest.chunks(2) {
        if pair[0] == "interval" {
            interval = parse::parse_int(&pair[1])?;
        }
    }
    Ok(Request {
        color,
        interval: Duration::from_millis(10 * interval as u64),
    })
}

/// A streamed analysis command, as the engine hands it to a game's state: its id and
/// arguments, its dialect, where the reports go, and when to stop (new input is waiting).
pub struct Stream<'a> {
    pub id: Option<&'a str>,
    pub args: &'a [String],
    pub dialect: Dialect,
    pub out: &'a mut dyn Write,
    pub stop: &'a dyn Fn() -> bool,
}

/// What a streamed command comes to: an error writing the output, else the command's own
/// error, if any (then nothing was written).
pub type Streamed = io::Result<Result<(), GtpError>>;

impl Stream<'_> {
    /// Starts the answer: the arguments checked (the colour defaulting to `to_move`), then
    /// `=id` written at once, before the first report, so that the front end knows the
    /// command was taken.
    ///
    /// # Errors
    /// Writing failed; inside, the arguments' error (nothing written then).
    pub fn open(&mut self, to_move: Color) -> io::Result<Result<Request, GtpError>> {
        let request = match request(to_move, self.args) {
            Ok(r) => r,
            Err(error) => return Ok(Err(error)),
        };
        writeln!(self.out, "={}", self.id.unwrap_or(""))?;
        self.out.flush()?;
        Ok(Ok(request))
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
