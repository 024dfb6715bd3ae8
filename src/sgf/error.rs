//! Why an SGF text could not be read.

use std::fmt;

use crate::sgf::tree::MAX_VARIATION_DEPTH;

/// Why an SGF text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// The text is not SGF; `offset` is a byte offset into the (decoded) text.
    Syntax { offset: usize, reason: String },
    /// No game tree in the text at all.
    NoGameTree,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// `GM` names a game other than Go (1).
    NotGo(String),
    /// `GM` names a game other than Othello (2), where an Othello record was asked for.
    NotOthello(String),
    /// Setup (`AB`, `AW`, `AE`) after the first move of an Othello record: its game has
    /// no way to replay it.
    SetupInPlay,
    /// `SZ` is not a square size in `MIN_SIZE..=MAX_SIZE` (Othello: even, 4 to 26).
    BadSize(String),
    /// A point or move value that is malformed or off the board.
    BadPoint { ident: String, value: String },
    /// A node that plays more than one move.
    BadMove(String),
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Syntax { offset, reason } => {
                write!(f, "SGF syntax error at byte {offset}: {reason}")
            }
            SgfError::NoGameTree => f.write_str("no SGF game tree found"),
            SgfError::TooDeep => {
                write!(f, "SGF variations nested deeper than {MAX_VARIATION_DEPTH}")
            }
            SgfError::NotGo(gm) => write!(f, "SGF game type GM[{gm}] is not Go"),
            SgfError::NotOthello(gm) => write!(f, "SGF game type GM[{gm}] is not Othello"),
            SgfError::SetupInPlay => f.write_str("SGF setup after the first move (Othello)"),
            SgfError::BadSize(sz) => write!(f, "unsupported SGF board size SZ[{sz}]"),
            SgfError::BadPoint { ident, value } => {
                write!(f, "bad SGF point {ident}[{value}]")
            }
            SgfError::BadMove(why) => write!(f, "bad SGF move: {why}"),
        }
    }
}

impl std::error::Error for SgfError {}
