//! The terminal session: read a line, play it or say in one line why not, and redraw,
//! until the game ends; then the result, the log row and the record.
//!
//! What a person types (case does not matter):
//!
//! | input | what it does |
//! |---|---|
//! | `D4` (Go), `d3` (Othello) | a move for the side to move |
//! | Enter, `pass` | pass (Othello: only without a legal move; the session passes by itself for a side that has none) |
//! | `undo` | takes back the last move typed at this terminal and the engine's replies after it |
//! | `resign`, `gg` | the side to move resigns |
//! | `L n`, `R n`, `U n`, `D n` | on a torus: shift the view n columns left or right, n rows up or down (`L3` too, when it is not a point of the board; `L` alone: one) |
//! | `save FILE` | writes the game so far as SGF |
//! | `board`, `help`, `quit` | redraw; the commands; leave without finishing (nothing logged) |

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use clap::ValueEnum;

use crate::color::Color;
use crate::game::BoardGame;
use crate::terminal::csv_log::{self, LogRow};
use crate::terminal::played::{EngineTurn, Finished, PlayedGame, RecordInfo, name};

/// Why a session could not start or go on.
#[derive(Debug)]
pub enum PlayError {
    /// The options do not make a game (one line, for the person who typed them).
    Options(String),
    /// Reading the input or writing the output failed.
    Io(io::Error),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Options(why) => f.write_str(why),
            PlayError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<io::Error> for PlayError {
    fn from(e: io::Error) -> PlayError {
        PlayError::Io(e)
    }
}

/// Who made each move, so that `undo` takes back what a person typed and the engine's
/// replies after it, not only the engine's last move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    Typed,
    Engine,
    /// A pass the session made for a side without a legal move (Othello).
    Forced,
}

const HELP: &str = "\
Moves: a point such as D4 (Othello: a square such as d3). Enter or `pass` passes.
`undo` takes back your last move (and the engine's reply); `resign` or `gg` resigns;
`save FILE` writes the game as SGF; `board` redraws; `quit` leaves without finishing.";

const TORUS_HELP: &str = "\
The board wraps around: `L n`, `R n`, `U n`, `D n` shift the view n columns left or right,
n rows up or down (the labels follow the points, so moves are typed as always).";

/// Who sits at each colour, and where the finished game goes.
#[derive(Clone, Debug)]
pub struct Seats {
    pub black: Side,
    pub white: Side,
    /// The person's name for the log and the record (default: $USER, else "human").
    pub name: Option<String>,
    /// Append one CSV row per finished game to this file.
    pub log: Option<PathBuf>,
    /// Save the finished game as SGF to this file.
    pub sgf: Option<PathBuf>,
}

/// Who plays one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// A person typing moves at this terminal.
    Human,
    /// shicho.
    Engine,
}

/// Plays `game` with the person at `input`/`output`; returns how it ended, or `None`
/// when it was left unfinished (`quit`, end of input).
///
/// # Errors
/// `Io` when reading or writing fails.
pub fn run<P: PlayedGame>(
    game: &mut P,
    seats: &Seats,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<Option<Finished>, PlayError> {
    let human = seats
        .name
        .clone()
        .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| "human".into());
    let engine = game.engine_name();
    let player_name = |side: Side| match side {
        Side::Human => human.clone(),
        Side::Engine => engine.clone(),
    };
    let mut session = Session {
        game,
        seats,
        out: output,
        shift: (0, 0),
        origins: Vec::new(),
        names: [player_name(seats.black), player_name(seats.white)],
        start: SystemTime::now(),
        clock: Instant::now(),
    };
    session.play(input)
}

struct Session<'a, P: PlayedGame> {
    game: &'a mut P,
    seats: &'a Seats,
    out: &'a mut dyn Write,
    /// The torus view: columns and rows the picture is moved left and down.
    shift: (usize, usize),
    origins: Vec<Origin>,
    /// Black's and White's names.
    names: [String; 2],
    start: SystemTime,
    clock: Instant,
}

impl<P: PlayedGame> Session<'_, P> {
    fn side(&self, c: Color) -> Side {
        match c {
            Color::Black => self.seats.black,
            Color::White => self.seats.white,
        }
    }

    fn play(&mut self, input: &mut dyn BufRead) -> Result<Option<Finished>, PlayError> {
        self.introduce()?;
        self.redraw()?;
        loop {
            if let Some(f) = self.game.finished() {
                return self.finish(f).map(Some);
            }
            let c = self.game.game().to_move();
            if self.game.must_pass() {
                // Only a pass is legal (Othello): made for the side, whoever plays it.
                let _ = self.game.pass();
                self.origins.push(Origin::Forced);
                writeln!(self.out, "{} has no legal move and passes.", name(c))?;
                self.redraw()?;
                continue;
            }
            if self.side(c) == Side::Engine {
                match self.game.engine_turn() {
                    EngineTurn::Played { mv, note } => {
                        self.origins.push(Origin::Engine);
                        let note = if note.is_empty() {
                            String::new()
                        } else {
                            format!(" ({note})")
                        };
                        writeln!(self.out, "shicho ({}) plays {mv}{note}.", name(c))?;
                        self.redraw()?;
                    }
                    EngineTurn::Resigned => {
                        let f = self.game.resigned(c);
                        return self.finish(f).map(Some);
                    }
                }
                continue;
            }
            write!(self.out, "{} ({}) to move: ", name(c), stone(c))?;
            self.out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return self.abandon("end of input");
            }
            let text = line.trim();
            let lower = text.to_ascii_lowercase();
            let words: Vec<&str> = lower.split_whitespace().collect();
            match words.as_slice() {
                [] | ["pass"] => match self.game.pass() {
                    Ok(()) => {
                        self.origins.push(Origin::Typed);
                        writeln!(self.out, "{} passes.", name(c))?;
                        self.redraw()?;
                    }
                    Err(why) => writeln!(self.out, "{why}")?,
                },
                ["undo"] => self.undo()?,
                ["resign"] | ["gg"] => {
                    let f = self.game.resigned(c);
                    return self.finish(f).map(Some);
                }
                ["quit"] | ["exit"] => return self.abandon("quit"),
                ["help"] | ["?"] => {
                    writeln!(self.out, "{HELP}")?;
                    if self.game.is_torus() {
                        writeln!(self.out, "{TORUS_HELP}")?;
                    }
                }
                ["board"] => self.redraw()?,
                ["save"] => writeln!(self.out, "save needs a file name: save FILE.sgf")?,
                ["save", _] => {
                    // The file name as typed, case kept.
                    let file = text.split_whitespace().nth(1).unwrap_or_default();
                    match self.save(Path::new(file), None) {
                        Ok(()) => writeln!(self.out, "Saved the game so far to {file}.")?,
                        Err(e) => writeln!(self.out, "Could not save to {file}: {e}.")?,
                    }
                }
                _ => {
                    if let Some(shift) = self.shift_of(text) {
                        match shift {
                            Ok((dx, dy)) => {
                                let n = self.game.game().size();
                                self.shift = ((self.shift.0 + dx) % n, (self.shift.1 + dy) % n);
                                self.redraw()?;
                            }
                            Err(why) => writeln!(self.out, "{why}")?,
                        }
                        continue;
                    }
                    if words.len() != 1 {
                        writeln!(self.out, "Not a move or a command: '{text}' (type help).")?;
                        continue;
                    }
                    match self.game.play_text(text) {
                        Ok(_) => {
                            self.origins.push(Origin::Typed);
                            self.redraw()?;
                        }
                        Err(why) => writeln!(self.out, "{why}")?,
                    }
                }
            }
        }
    }

    /// `L n` / `R n` / `U n` / `D n` (or `L3` when that is no point of the board): the
    /// shift to add, as (columns, rows) for the diagram; `None` when `text` is no shift.
    fn shift_of(&self, text: &str) -> Option<Result<(usize, usize), String>> {
        let mut chars = text.chars();
        let dir = chars.next()?.to_ascii_uppercase();
        if !matches!(dir, 'L' | 'R' | 'U' | 'D') {
            return None;
        }
        let rest = chars.as_str();
        let glued = !rest.is_empty() && !rest.starts_with(char::is_whitespace);
        // `D3` is a point before it is a shift; off the torus a glued `r5` is a mistyped
        // point, not a shift.
        if glued && (self.game.is_point(text) || !self.game.is_torus()) {
            return None;
        }
        let rest = rest.trim();
        if !rest.is_empty() && !rest.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if !self.game.is_torus() {
            return Some(Err(
                "The view can only be shifted on a torus (--rules daoqi).".into(),
            ));
        }
        let n = self.game.game().size();
        let k = if rest.is_empty() {
            1
        } else {
            match rest.parse::<usize>() {
                Ok(k) => k % n,
                Err(_) => return Some(Err(format!("'{text}': shift by how much?"))),
            }
        };
        // The diagram shows the point (i + dx, row + dy) at screen column i: moving the
        // picture left adds to dx, moving it up takes from dy.
        Some(Ok(match dir {
            'L' => (k, 0),
            'R' => (n - k, 0),
            'U' => (0, n - k),
            _ => (0, k),
        }))
    }

    /// Takes back the last move typed here and every move after it (the engine's replies,
    /// forced passes), so that the same person is to move again.
    fn undo(&mut self) -> io::Result<()> {
        let Some(k) = self.origins.iter().rposition(|&o| o == Origin::Typed) else {
            return writeln!(self.out, "Nothing to undo.");
        };
        let n = self.origins.len() - k;
        for _ in 0..n {
            self.game.game_mut().undo();
            self.origins.pop();
        }
        writeln!(
            self.out,
            "Took back {n} move{}.",
            if n == 1 { "" } else { "s" }
        )?;
        self.redraw()
    }

    fn introduce(&mut self) -> io::Result<()> {
        let title = self.game.title();
        let [black, white] = &self.names;
        writeln!(self.out, "shicho play: {title}.")?;
        writeln!(self.out, "Black (X): {black}. White (O): {white}.")?;
        writeln!(self.out, "{HELP}")?;
        if self.game.is_torus() {
            writeln!(self.out, "{TORUS_HELP}")?;
        }
        Ok(())
    }

    fn redraw(&mut self) -> io::Result<()> {
        writeln!(self.out)?;
        writeln!(self.out, "{}", self.game.diagram(self.shift))?;
        let moves = self.game.game().moves_played();
        let mut line = format!("Move {moves}. {}", self.game.status());
        if self.shift != (0, 0) {
            let n = self.game.game().size();
            let (dx, dy) = self.shift;
            let part = |k: usize, unit: &str, towards: &str, back: &str| -> Option<String> {
                let (k, way) = if k <= n / 2 {
                    (k, towards)
                } else {
                    (n - k, back)
                };
                (k > 0).then(|| format!("{k} {unit}{} {way}", if k == 1 { "" } else { "s" }))
            };
            let parts: Vec<String> = [
                part(dx, "column", "left", "right"),
                part(dy, "row", "down", "up"),
            ]
            .into_iter()
            .flatten()
            .collect();
            line.push_str(&format!(" View shifted {}.", parts.join(", ")));
        }
        writeln!(self.out, "{line}")
    }

    fn finish(&mut self, f: Finished) -> Result<Finished, PlayError> {
        let duration = self.clock.elapsed().as_secs_f64();
        writeln!(self.out, "Game over: {}", f.text)?;
        writeln!(self.out, "Result: {}", f.result)?;
        let start = csv_log::utc(self.start);
        if let Some(path) = &self.seats.log {
            let [black, white] = &self.names;
            let row = LogRow {
                start: &start,
                duration_s: duration,
                size: self.game.game().size(),
                game: self.game.game_name(),
                rules: &self.game.rules_name(),
                black,
                white,
                result: &f.result,
                discs: f.discs,
                moves: self.game.game().moves_played(),
            };
            match csv_log::append(path, &row) {
                Ok(()) => writeln!(self.out, "Logged to {}.", path.display())?,
                Err(e) => writeln!(self.out, "Could not log to {}: {e}.", path.display())?,
            }
        }
        if let Some(path) = &self.seats.sgf {
            match self.save(path, Some(&f.result)) {
                Ok(()) => writeln!(self.out, "Saved the game to {}.", path.display())?,
                Err(e) => writeln!(self.out, "Could not save to {}: {e}.", path.display())?,
            }
        }
        Ok(f)
    }

    fn abandon(&mut self, why: &str) -> Result<Option<Finished>, PlayError> {
        writeln!(
            self.out,
            "Left unfinished ({why}): nothing logged{}.",
            if self.seats.sgf.is_some() {
                " or saved"
            } else {
                ""
            }
        )?;
        Ok(None)
    }

    fn save(&self, path: &Path, result: Option<&str>) -> io::Result<()> {
        let date = csv_log::utc(self.start);
        let [black, white] = &self.names;
        let text = self.game.sgf(&RecordInfo {
            black,
            white,
            result,
            date: &date[..10],
        });
        std::fs::write(path, text)
    }
}

fn stone(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}
