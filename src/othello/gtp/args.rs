//! Othello arguments as the handlers take them: vertices in Othello's convention (row 1 at
//! the top, no column letter skipped, any case), with the error text each command family
//! answers; squares written back in reading order.

use crate::color::Color;
use crate::gtp::args::gg_color;
use crate::gtp::error::GtpError;
use crate::othello::gtp::state::OthelloState;
use crate::othello::{MAX_SIZE, Move, Square};

/// A move on this board (`pass` allowed), with GTP's texts as `play` has them for Go: a
/// vertex off this board cannot be played (`illegal move`); text that is no vertex on any
/// board is a `syntax error`.
pub fn move_on(s: &OthelloState, text: &str) -> Result<Move, GtpError> {
    Move::parse(text, s.size()).map_err(|_| {
        if Square::parse(text, MAX_SIZE).is_ok() {
            GtpError::IllegalMove
        } else {
            GtpError::Syntax
        }
    })
}

/// A square for the observation commands, with GNU Go's text.
pub fn square(s: &OthelloState, text: &str) -> Result<Square, GtpError> {
    Square::parse(text, s.size()).map_err(|_| GtpError::InvalidCoordinate)
}

/// GNU Go's `COLOUR VERTEX` pair (`is_legal`), with its error text.
pub fn gg_move(s: &OthelloState, args: &[String]) -> Result<(Color, Move), GtpError> {
    let bad = GtpError::InvalidColorOrCoordinate;
    let [color, vertex] = args else {
        return Err(bad);
    };
    let c = gg_color(color).map_err(|_| bad.clone())?;
    let m = Move::parse(vertex, s.size()).map_err(|_| bad)?;
    Ok((c, m))
}

/// Squares upper case, space separated, in the order given (reading order, top row first,
/// is what the board lists).
pub fn format_squares(squares: impl IntoIterator<Item = Square>) -> String {
    squares
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
