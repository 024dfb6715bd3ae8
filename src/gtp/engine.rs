//! The GTP engine: game state, the command table, and response framing.
//!
//! One `Engine` answers one command line at a time ([`Engine::handle`]). Every command is a
//! row of [`COMMANDS`], so `list_commands`, `known_command` and dispatch can never disagree.
//! A handler returns `Ok(text)` or `Err(message)`; a failing handler leaves the state as it
//! was (handlers check everything before they change anything).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::color::Color;
use crate::game::Game;
use crate::geometry::{Geometry, VertexError};
use crate::gtp::parse::{self, CommandLineErrorKind};
use crate::point::{Move, Point};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::search::time::Clock;
use crate::search::{self as mcts, Player};
use crate::tactics::{Budget, ReadingStack};

/// What a handler answers: the response text, or the failure message.
pub type Reply = Result<String, String>;

/// A command handler. `args` are the tokens after the command name.
pub type Handler = fn(&mut Engine, &[String]) -> Reply;

/// The spec's error texts, verbatim.
pub mod errors {
    pub const UNKNOWN_COMMAND: &str = "unknown command";
    pub const SYNTAX_ERROR: &str = "syntax error";
    pub const UNACCEPTABLE_SIZE: &str = "unacceptable size";
    pub const ILLEGAL_MOVE: &str = "illegal move";
    pub const CANNOT_UNDO: &str = "cannot undo";
    pub const CANNOT_SCORE: &str = "cannot score";
    pub const BOARD_NOT_EMPTY: &str = "board not empty";
    pub const INVALID_NUMBER_OF_STONES: &str = "invalid number of stones";
    pub const BAD_VERTEX_LIST: &str = "bad vertex list";
    pub const CANNOT_LOAD_FILE: &str = "cannot load file";
    /// GNU Go's texts for its own extension commands.
    pub const INVALID_COORDINATE: &str = "invalid coordinate";
    pub const VERTEX_MUST_NOT_BE_EMPTY: &str = "vertex must not be empty";
    pub const INVALID_COLOR_OR_COORDINATE: &str = "invalid color or coordinate";
}

use errors::*;

/// Start-up settings, from the command line.
#[derive(Clone, Debug)]
pub struct Config {
    pub rules: Rules,
    pub size: usize,
    pub komi: f64,
    /// Seed of genmove's random choices (reg_genmove always uses its own fixed seed).
    pub seed: u64,
    /// How genmove chooses.
    pub player: Player,
    /// What the tree search may spend (with `Player::Mcts`).
    pub search: mcts::Params,
}

impl Default for Config {
    fn default() -> Config {
        let rules = Rules::default();
        Config {
            rules,
            size: rules.default_size(),
            komi: rules.default_komi(),
            seed: 1,
            player: Player::Mcts,
            search: mcts::Params::default(),
        }
    }
}

/// A response ready to be written, and whether the session ends after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub text: String,
    pub quit: bool,
}

/// The engine's whole state.
pub struct Engine {
    pub(crate) game: Game,
    /// Torus view offset for showboard (`shicho-shift`).
    pub(crate) shift: (usize, usize),
    pub(crate) clock: Clock,
    pub(crate) interrupt: Arc<AtomicBool>,
    pub(crate) rng: Rng,
    /// GNU Go's reading stack (`trymove`/`popgo`) over the game's position, made on the
    /// first `trymove` and dropped whenever the game changes.
    pub(crate) reading: Option<ReadingStack>,
    /// What `attack`, `defend` and friends may read (`increase_depths`/`decrease_depths`).
    pub(crate) budget: Budget,
    pub(crate) player: Player,
    pub(crate) search: mcts::Params,
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let game = Game::new(config.size, config.rules, config.komi).unwrap_or_else(|_| {
            Game::new(19, config.rules, config.komi).expect("19x19 is a valid size")
        });
        Engine {
            game,
            rng: Rng::new(config.seed),
            shift: (0, 0),
            clock: Clock::default(),
            interrupt: Arc::new(AtomicBool::new(false)),
            reading: None,
            budget: Budget::default(),
            player: config.player,
            search: config.search.clone(),
        }
    }

    /// The flag a reader thread sets when GoGui's `# interrupt` line arrives; searches and
    /// analyses stop when they see it. The engine never clears it itself: whoever raises it
    /// knows which commands it is meant for, and clears it before any other (the session
    /// does, see `session::run`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupt)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one raw input line. `None` for lines that get no response (empty, comments).
    pub fn handle(&mut self, raw: &[u8]) -> Option<Response> {
        let line = parse::preprocess(raw)?;
        let command = match parse::parse_command_line(&line) {
            Ok(c) => c,
            Err(e) => {
                return match e.kind {
                    CommandLineErrorKind::Empty => None,
                    CommandLineErrorKind::MissingName => Some(Response {
                        text: frame(e.id.as_deref(), Err(SYNTAX_ERROR.into())),
                        quit: false,
                    }),
                };
            }
        };
        let quit = command.name == "quit";
        let reply = match find_command(&command.name) {
            Some(handler) => {
                log::debug!("command: {line}");
                handler(self, &command.args)
            }
            None => Err(UNKNOWN_COMMAND.to_string()),
        };
        Some(Response {
            text: frame(command.id.as_deref(), reply),
            quit,
        })
    }

    /// Like [`Engine::handle`], but an analysis command streams its reports to `out` until
    /// `stop` says new input is waiting; it then returns `None`, everything being written.
    ///
    /// # Errors
    /// Writing to `out` failed.
    pub fn handle_streaming(
        &mut self,
        raw: &[u8],
        out: &mut dyn std::io::Write,
        stop: &dyn Fn() -> bool,
    ) -> std::io::Result<Option<Response>> {
        let streaming = parse::preprocess(raw)
            .and_then(|line| parse::parse_command_line(&line).ok())
            .and_then(|c| crate::gtp::analyze::dialect(&c.name).map(|d| (c, d)));
        let Some((command, dialect)) = streaming else {
            return Ok(self.handle(raw));
        };
        match crate::gtp::analyze::stream(
            self,
            command.id.as_deref(),
            &command.args,
            dialect,
            out,
            stop,
        )? {
            Ok(()) => Ok(None),
            Err(message) => Ok(Some(Response {
                text: frame(command.id.as_deref(), Err(message)),
                quit: false,
            })),
        }
    }

    // ----- argument helpers -------------------------------------------------------------

    pub(crate) fn geo(&self) -> &'static Geometry {
        self.game.geometry()
    }

    /// A move on this board (`pass` allowed); a malformed or off-board vertex is a syntax
    /// error in standard commands.
    pub(crate) fn move_arg(&self, text: &str) -> Result<Move, String> {
        self.geo()
            .parse_move(text)
            .map_err(|_| SYNTAX_ERROR.to_string())
    }

    /// A point for GNU Go's extension commands, with GNU Go's error text.
    pub(crate) fn point_arg(&self, text: &str) -> Result<Point, String> {
        match self.geo().parse_move(text) {
            Ok(Move::Play(p)) => Ok(p),
            Ok(Move::Pass) | Err(VertexError::Syntax | VertexError::OffBoard) => {
                Err(INVALID_COORDINATE.to_string())
            }
        }
    }

    /// A point that must hold a stone (GNU Go's `countlib`, `findlib`, `attack`...) in the
    /// position those commands look at: the top of the reading stack (`trymove`) if any.
    pub(crate) fn stone_arg(&self, text: &str) -> Result<Point, String> {
        let p = self.point_arg(text)?;
        if crate::gtp::commands::current_board(self).get(p).is_none() {
            return Err(VERTEX_MUST_NOT_BE_EMPTY.to_string());
        }
        Ok(p)
    }

    /// Whether GoGui asked the running command to stop early.
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }
}

impl Engine {
    /// GNU Go's `COLOUR VERTEX` argument pair (`is_legal`, `trymove`), with its error text.
    pub(crate) fn gg_move_args(&self, args: &[String]) -> Result<(Color, Move), String> {
        let bad = || INVALID_COLOR_OR_COORDINATE.to_string();
        let [color, vertex] = args else {
            return Err(bad());
        };
        let c = parse::parse_color(color).map_err(|_| bad())?;
        let m = self.geo().parse_move(vertex).map_err(|_| bad())?;
        Ok((c, m))
    }
}

/// Exactly `n` arguments, or a syntax error.
pub(crate) fn arity(args: &[String], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(SYNTAX_ERROR.to_string())
    }
}

/// A GTP colour argument.
pub(crate) fn color_arg(text: &str) -> Result<Color, String> {
    parse::parse_color(text).map_err(|_| SYNTAX_ERROR.to_string())
}

/// A GTP int argument.
pub(crate) fn int_arg(text: &str) -> Result<u32, String> {
    parse::parse_int(text).map_err(|_| SYNTAX_ERROR.to_string())
}

/// A GTP float argument.
pub(crate) fn float_arg(text: &str) -> Result<f64, String> {
    parse::parse_float(text).map_err(|_| SYNTAX_ERROR.to_string())
}

/// Points in GNU Go's order (rows from the top, then columns), space separated.
pub(crate) fn format_points(geo: &Geometry, points: impl IntoIterator<Item = Point>) -> String {
    let mut points: Vec<Point> = points.into_iter().collect();
    sort_points(geo, &mut points);
    points
        .iter()
        .map(|&p| geo.format_point(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Sorts points as GNU Go prints them: top row first, left to right.
pub(crate) fn sort_points(geo: &Geometry, points: &mut [Point]) {
    points.sort_by_key(|&p| {
        let (x, y) = geo.xy(p);
        (std::cmp::Reverse(y), x)
    });
}

/// Frames a reply as GTP requires: `=id text` or `?id message`, one space after the id even
/// when the text is empty, no empty line inside, and the empty line that ends a response.
pub fn frame(id: Option<&str>, reply: Reply) -> String {
    let (mark, body) = match reply {
        Ok(text) => ('=', text),
        Err(message) => ('?', message),
    };
    let mut out = String::with_capacity(body.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    out.push(' ');
    // A leading newline (showboard's diagram) is kept: it follows the `= ` on the first line.
    // Any other blank line would end the response early, so it is dropped.
    let mut lines = body.split('\n');
    if let Some(first) = lines.next() {
        out.push_str(first.trim_end());
    }
    for line in lines {
        let line = line.trim_end();
        if !line.is_empty() {
            out.push('\n');
            out.push_str(line);
        }
    }
    out.push_str("\n\n");
    out
}

/// The command tables, in the order `list_commands` shows them.
pub const TABLES: &[&[(&str, Handler)]] = &[
    crate::gtp::commands::COMMANDS,
    crate::gtp::reading::COMMANDS,
    crate::gtp::analyze::COMMANDS,
];

/// Every command name, in table order.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    TABLES.iter().flat_map(|t| t.iter().map(|&(n, _)| n))
}

/// Looks a command up in the tables.
pub fn find_command(name: &str) -> Option<Handler> {
    TABLES
        .iter()
        .flat_map(|t| t.iter())
        .find(|(n, _)| *n == name)
        .map(|&(_, h)| h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_follow_the_protocol() {
        assert_eq!(frame(None, Ok(String::new())), "= \n\n");
        assert_eq!(frame(Some("12"), Ok("D4".into())), "=12 D4\n\n");
        assert_eq!(
            frame(Some("007"), Err("illegal move".into())),
            "?007 illegal move\n\n"
        );
        assert_eq!(frame(None, Ok("a\n\nb\n".into())), "= a\nb\n\n");
        assert_eq!(
            frame(None, Ok("\n  A B\n 1 . .".into())),
            "= \n  A B\n 1 . .\n\n"
        );
    }
}
