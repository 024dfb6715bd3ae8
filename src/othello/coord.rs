//! Othello coordinates: squares, moves and their text (`d3`, `D3`, `pass`).
//!
//! Othello front ends (Quarry, Edax, the printed literature) write a square as a column letter
//! and a row number with **row 1 at the top** and **no letter skipped**: the columns of a 10x10
//! board are `A`..`J`, `I` included, and a 26x26 board ends at `Z`. Go's GTP convention is the
//! other way on both counts: it skips `I` and counts rows from the bottom. So Othello's `D3`
//! (fourth column, third row from the top) is a different point from Go's `D3` on the same
//! board, and nothing in this module shares code with Go's vertex parser.

use std::fmt;

use crate::othello::bits::{MAX_SIZE, MIN_SIZE};

/// A square of an Othello board: column `x` (0 = `A`, left) and row `y` (0 = row 1, top).
/// It does not know the board size; [`Square::index`] and the parsers check against one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    // Row before column so that the derived order is reading order (top row first), which is
    // the greedy player's tie-break and the order moves are listed in.
    y: u8,
    x: u8,
}

impl Square {
    /// The square at column `x` and row `y`, both counted from 0 at the top-left corner.
    ///
    /// # Panics
    /// When `x` or `y` is not below [`MAX_SIZE`].
    pub fn new(x: usize, y: usize) -> Square {
        assert!(
            x < MAX_SIZE && y < MAX_SIZE,
            "square ({x}, {y}) off every board"
        );
        Square {
            x: x as u8,
            y: y as u8,
        }
    }

    /// The column, 0 for `A`.
    pub fn x(self) -> usize {
        self.x as usize
    }

    /// The row, 0 for row 1 at the top.
    pub fn y(self) -> usize {
        self.y as usize
    }

    /// `y * size + x`: the bit of this square in the board's square sets.
    #[inline]
    pub fn index(self, size: usize) -> usize {
        self.y() * size + self.x()
    }

    /// The square of bit `index` on a board of `size`.
    #[inline]
    pub fn from_index(index: usize, size: usize) -> Square {
        Square::new(index % size, index / size)
    }

    /// Whether the square lies on a board of `size`.
    pub fn is_on(self, size: usize) -> bool {
        self.x() < size && self.y() < size
    }

    /// Parses `d3`, `D3`, `j10`... for a board of `size`. `pass` is not a square: see
    /// [`Move::parse`].
    ///
    /// # Errors
    /// [`CoordError`] when the text is not a column letter and a row number on that board.
    pub fn parse(text: &str, size: usize) -> Result<Square, CoordError> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or(CoordError)?;
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.iter().all(u8::is_ascii_digit)
            || digits[0] == b'0'
        {
            return Err(CoordError);
        }
        let x = (letter.to_ascii_uppercase() - b'A') as usize;
        // At most two digits, so this fits and cannot fail.
        let row: usize = digits.iter().fold(0, |n, d| n * 10 + (d - b'0') as usize);
        if x >= size || row > size {
            return Err(CoordError);
        }
        Ok(Square::new(x, row - 1))
    }
}

/// `A1`-style text: upper-case column letter, row counted from 1 at the top.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.x) as char, self.y() + 1)
    }
}

/// A move carries no colour: a disc on a square, or a pass (legal only without a disc move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Square),
    Pass,
}

impl Move {
    /// Parses a square (any case) or `pass` (any case) for a board of `size`.
    ///
    /// # Errors
    /// [`CoordError`] for anything else, squares off that board included.
    pub fn parse(text: &str, size: usize) -> Result<Move, CoordError> {
        if text.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Square::parse(text, size).map(Move::Play)
        }
    }

    /// The square, unless this is a pass.
    pub fn square(self) -> Option<Square> {
        match self {
            Move::Play(s) => Some(s),
            Move::Pass => None,
        }
    }
}

/// `D3` or `pass`. (Edax answers in lower case; front ends accept either.)
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(s) => s.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// The text is not a square of the board (nor `pass` where a move was asked for).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CoordError;

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid coordinate")
    }
}

impl std::error::Error for CoordError {}

/// The board size is odd or outside 4..=26.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SizeError;

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unacceptable size (Othello boards are even, {MIN_SIZE} to {MAX_SIZE})"
        )
    }
}

impl std::error::Error for SizeError {}

/// Checks an Othello board size: even and within `MIN_SIZE..=MAX_SIZE`.
///
/// # Errors
/// [`SizeError`] otherwise.
pub fn check_size(size: usize) -> Result<usize, SizeError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) && size.is_multiple_of(2) {
        Ok(size)
    } else {
        Err(SizeError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_count_from_the_top_and_no_column_is_skipped() {
        assert_eq!(Square::parse("a1", 8), Ok(Square::new(0, 0)));
        assert_eq!(Square::parse("D3", 8), Ok(Square::new(3, 2)));
        assert_eq!(Square::parse("i9", 10), Ok(Square::new(8, 8)));
        assert_eq!(Square::parse("J10", 10), Ok(Square::new(9, 9)));
        assert_eq!(Square::parse("z26", 26), Ok(Square::new(25, 25)));
        assert_eq!(Move::parse("PaSs", 8), Ok(Move::Pass));
    }

    #[test]
    fn refuses_what_is_not_on_the_board() {
        for bad in [
            "", "a", "1", "a0", "a9", "i1", "a01", "a-1", "a 1", "aa1", "é1", "pas", "a100",
        ] {
            assert_eq!(Square::parse(bad, 8), Err(CoordError), "{bad:?}");
        }
        assert_eq!(Move::parse("k1", 10), Err(CoordError));
    }

    #[test]
    fn text_round_trips_on_every_size() {
        for size in (MIN_SIZE..=MAX_SIZE).step_by(2) {
            for i in 0..size * size {
                let s = Square::from_index(i, size);
                assert_eq!(s.index(size), i);
                assert_eq!(Square::parse(&s.to_string(), size), Ok(s));
                assert_eq!(Square::parse(&s.to_string().to_lowercase(), size), Ok(s));
            }
        }
    }

    #[test]
    fn sizes_are_even_from_4_to_26() {
        assert_eq!(check_size(8), Ok(8));
        assert_eq!(check_size(26), Ok(26));
        for bad in [0, 2, 3, 7, 27, 28] {
            assert_eq!(check_size(bad), Err(SizeError));
        }
    }
}
