//! Why a command failed: [`GtpError`], whose `Display` is the text after `?`.
//!
//! The standard commands use the spec's texts; GNU Go's and GoGui's extension commands use
//! the texts those programs answer, since their test suites and front ends compare them.

use std::fmt;

use crate::gtp::parse::EntityError;

/// A failed command. A failing command changes nothing (handlers check before they act).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    // The spec's texts.
    UnknownCommand,
    /// Wrong number of arguments, or an argument that is not the entity it must be.
    Syntax,
    UnacceptableSize,
    IllegalMove,
    CannotUndo,
    CannotScore,
    BoardNotEmpty,
    InvalidNumberOfStones,
    BadVertexList,
    CannotLoadFile,
    // GNU Go's texts for its extension commands.
    InvalidCoordinate,
    InvalidColor,
    InvalidColorOrCoordinate,
    VertexMustNotBeEmpty,
    MoveVertexMustBeEmpty,
    StringVertexMustNotBeEmpty,
    NeedsTwoLiberties,
    /// `popgo` with nothing tried.
    StackEmpty,
    // The texts of the other extensions.
    /// `printsgf FILE` could not write, and why.
    CannotWriteFile(String),
    /// `kata-set-rules` with a name or setting it does not know, and why.
    UnknownRules(String),
    /// `shicho-shift` on a plane board.
    NotATorus,
    /// `gogui-setup_player` after a move.
    MovesPlayed,
    /// `set_game` with a game the engine does not play (Edax's text).
    UnsupportedGame,
    /// Othello: `play` or `genmove` for the colour not to move while the side to move has
    /// a move (Edax's text).
    WrongColor,
    /// `shicho-solve` on a position with more empty squares than its limit.
    TooManyEmpties {
        empties: u32,
        limit: u32,
    },
    /// A number above what the command allows (`shicho-perft`'s depth, `shicho-solve`'s
    /// limit).
    TooLarge {
        limit: u32,
    },
    /// A long computation stopped by GoGui's interrupt before it had an answer.
    Interrupted,
    /// `kata-time_settings` with a kind it does not take; the kinds it does.
    UnknownTimeSystem(&'static [&'static str]),
    /// `kata-time_settings fischer-capped` whose cap on main time is below the main time.
    LimitBelowMainTime,
    /// `time_left` counting stones or periods on a clock that has none (Fischer).
    NoByoYomi,
    /// An argument that parses but cannot be used, and why (the analysis commands' keys,
    /// `kata-raw-nn`'s symmetry).
    BadArgument(String),
    /// A command that needs the neural network, with none loaded (`--weights none`).
    NoNetwork,
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            GtpError::UnknownCommand => "unknown command",
            GtpError::Syntax => "syntax error",
            GtpError::UnacceptableSize => "unacceptable size",
            GtpError::IllegalMove => "illegal move",
            GtpError::CannotUndo => "cannot undo",
            GtpError::CannotScore => "cannot score",
            GtpError::BoardNotEmpty => "board not empty",
            GtpError::InvalidNumberOfStones => "invalid number of stones",
            GtpError::BadVertexList => "bad vertex list",
            GtpError::CannotLoadFile => "cannot load file",
            GtpError::InvalidCoordinate => "invalid coordinate",
            GtpError::InvalidColor => "invalid color",
            GtpError::InvalidColorOrCoordinate => "invalid color or coordinate",
            GtpError::VertexMustNotBeEmpty => "vertex must not be empty",
            GtpError::MoveVertexMustBeEmpty => "move vertex must be empty",
            GtpError::StringVertexMustNotBeEmpty => "string vertex must not be empty",
            GtpError::NeedsTwoLiberties => "string must have exactly 2 liberties",
            // GNU Go's exact text.
            GtpError::StackEmpty => "Stack empty.",
            GtpError::CannotWriteFile(why) => return write!(f, "cannot write file: {why}"),
            GtpError::UnknownRules(why) => why,
            GtpError::NotATorus => "the view can only be shifted on a torus",
            GtpError::MovesPlayed => "moves have been played",
            GtpError::UnsupportedGame => "unsupported game",
            GtpError::WrongColor => "wrong color",
            GtpError::TooManyEmpties { empties, limit } => {
                return write!(f, "too many empty squares ({empties} > {limit})");
            }
            GtpError::TooLarge { limit } => return write!(f, "too large (at most {limit})"),
            GtpError::Interrupted => "interrupted",
            GtpError::UnknownTimeSystem(kinds) => {
                return write!(f, "unknown time system (not one of {})", kinds.join(", "));
            }
            GtpError::LimitBelowMainTime => "main time limit below main time",
            GtpError::NoByoYomi => "stones must be 0: the time system has no byo-yomi",
            GtpError::BadArgument(why) => why,
            GtpError::NoNetwork => "no neural network (--weights none)",
        };
        f.write_str(text)
    }
}

impl std::error::Error for GtpError {}

/// A malformed argument of a standard command. GNU Go's commands answer their own texts
/// instead, and map the error themselves.
impl From<EntityError> for GtpError {
    fn from(_: EntityError) -> GtpError {
        GtpError::Syntax
    }
}
