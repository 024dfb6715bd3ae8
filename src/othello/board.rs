//! The public board: Black's and White's discs on any even size 4..=26, a Zobrist hash, and
//! the rules of a single move. Turn order, passes and history belong to
//! [`Game`](crate::othello::Game).
//!
//! Discs are stored as two [`Wide`] sets whatever the size; up to 8x8 the first word *is* the
//! one-word bitboard, so move generation and flips run on the `u64` fast path on 8x8, on
//! [`Narrow`] below it and on the general `Wide` above.
//!
//! [`with_position!`] is how the generic code (perft, search, the solver) is entered: it
//! builds the side-to-move position in the representation the size calls for and
//! monomorphizes its body for each.

use std::fmt;

use crate::color::{ByColor, Color};

use crate::othello::bits::Bits;
use crate::othello::bits::other_sizes::{Narrow, Wide};
use crate::othello::coord::{SizeError, Square, check_size};
use crate::othello::position::{Pos, WHITE_TO_MOVE, disc_key, discs_key, flip_key};

/// Why a play is refused. The board is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The square holds a disc.
    Occupied,
    /// The disc would bracket no line of opponent discs.
    FlipsNothing,
    /// A pass while a disc move exists.
    PassWithMoves,
    /// (Games only) the colour is not to move, and the side to move has a move.
    WrongColor,
    /// (Games only) the game is over.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "square occupied",
            IllegalMove::FlipsNothing => "flips nothing",
            IllegalMove::PassWithMoves => "pass while a move exists",
            IllegalMove::WrongColor => "wrong color",
            IllegalMove::GameOver => "game over",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Disc counts, and the result they make: `B+N`, `W+N` or `0`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Score {
    pub black: u32,
    pub white: u32,
}

impl Score {
    /// Black's discs minus White's.
    pub fn difference(self) -> i32 {
        self.black as i32 - self.white as i32
    }

    pub fn winner(self) -> Option<Color> {
        match self.difference() {
            d if d > 0 => Some(Color::Black),
            d if d < 0 => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.difference();
        match self.winner() {
            Some(c) => write!(f, "{}+{}", c.letter(), d.abs()),
            None => f.write_str("0"),
        }
    }
}

/// Runs `$body` with `$pos` bound to the position of `$board` with `$color` to move and
/// `$shape` to its size's shape, in the representation of that size: `u64` on 8x8,
/// `Narrow` below, `Wide` above.
macro_rules! with_position {
    ($board:expr, $color:expr, |$pos:ident, $shape:ident| $body:expr) => {{
        let board: &$crate::othello::board::Board = $board;
        let color: $crate::color::Color = $color;
        match board.size() {
            8 => {
                let $pos = board.pos8(color);
                let $shape = &();
                $body
            }
            s if s < 8 => {
                let $pos = board.pos_narrow(color);
                let $shape =
                    <$crate::othello::bits::other_sizes::Narrow as $crate::othello::bits::Bits>::shape(s);
                $body
            }
            s => {
                let $pos = board.pos_wide(color);
                let $shape = <$crate::othello::bits::other_sizes::Wide as $crate::othello::bits::Bits>::shape(s);
                $body
            }
        }
    }};
}
pub(crate) use with_position;

/// The discs of both colours on an n x n board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    size: usize,
    discs: ByColor<Wide>,
    /// Zobrist hash of the discs alone (the side to move is the game's).
    hash: u64,
}

impl Board {
    /// The starting position of `size`: White on the two centre squares of the main
    /// diagonal, Black on the other two (8x8: White D4 E5, Black E4 D5).
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is even and within 4..=26.
    pub fn new(size: usize) -> Result<Board, SizeError> {
        let mut b = Board::empty(size)?;
        let (lo, hi) = (size / 2 - 1, size / 2);
        b.set(Square::new(lo, lo), Some(Color::White));
        b.set(Square::new(hi, hi), Some(Color::White));
        b.set(Square::new(hi, lo), Some(Color::Black));
        b.set(Square::new(lo, hi), Some(Color::Black));
        Ok(b)
    }

    /// A board without discs (for setups).
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is even and within 4..=26.
    pub fn empty(size: usize) -> Result<Board, SizeError> {
        check_size(size)?;
        Ok(Board {
            size,
            discs: ByColor::default(),
            hash: 0,
        })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Every square, in reading order (top row first, left to right).
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<> {
        let size = self.size;
        (0..size * size).map(move |i| Square::from_index(i, size))
    }

    /// The disc on `s`.
    ///
    /// # Panics
    /// When `s` is off this board (as for every method taking a square).
    pub fn get(&self, s: Square) -> Option<Color> {
        let i = self.index(s);
        Color::ALL.into_iter().find(|&c| self.discs[c].contains(i))
    }

    /// Puts a disc on `s` or empties it, whatever was there: setup, not a move.
    pub fn set(&mut self, s: Square, disc: Option<Color>) {
        let i = self.index(s);
        if let Some(old) = self.get(s) {
            self.discs[old] = self.discs[old].without(Wide::single(i));
            self.hash ^= disc_key(i, old);
        }
        if let Some(c) = disc {
            self.discs[c] |= Wide::single(i);
            self.hash ^= disc_key(i, c);
        }
    }

    /// The number of discs of `c`.
    pub fn count(&self, c: Color) -> u32 {
        self.discs[c].count()
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        (self.size * self.size) as u32 - self.count(Color::Black) - self.count(Color::White)
    }

    /// Both disc counts.
    pub fn score(&self) -> Score {
        Score {
            black: self.count(Color::Black),
            white: self.count(Color::White),
        }
    }

    /// The Zobrist hash of the discs, kept incrementally.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The same hash computed from scratch (tests hold the two together).
    pub fn recomputed_hash(&self) -> u64 {
        discs_key(self.discs.black, Color::Black) ^ discs_key(self.discs.white, Color::White)
    }

    /// The hash of this board with `to_move` to play: the key the searcher's transposition
    /// table uses.
    pub fn position_key(&self, to_move: Color) -> u64 {
        self.hash
            ^ match to_move {
                Color::Black => 0,
                Color::White => WHITE_TO_MOVE,
            }
    }

    /// The squares where `c` may play, in reading order.
    pub fn legal_moves(&self, c: Color) -> Vec<Square> {
        self.to_squares(self.move_set(c))
    }

    /// Whether `c` has a disc move (if not, `c` must pass).
    pub fn has_moves(&self, c: Color) -> bool {
        !self.move_set(c).is_empty()
    }

    /// Whether neither colour can move: the game is over.
    pub fn is_game_over(&self) -> bool {
        !self.has_moves(Color::Black) && !self.has_moves(Color::White)
    }

    /// Whether `c` may play on `s`.
    pub fn is_legal(&self, c: Color, s: Square) -> bool {
        !self.flip_set(c, s).is_empty()
    }

    /// The discs a play of `c` on `s` would turn over, in reading order (empty: illegal).
    pub fn flips(&self, c: Color, s: Square) -> Vec<Square> {
        self.to_squares(self.flip_set(c, s))
    }

    /// How many discs a play of `c` on `s` would turn over (0: illegal).
    pub fn flip_count(&self, c: Color, s: Square) -> u32 {
        self.flip_set(c, s).count()
    }

    /// Plays a disc of `c` on `s` and turns the bracketed lines over; returns how many discs
    /// turned.
    ///
    /// # Errors
    /// `Occupied` or `FlipsNothing`; the board is then unchanged.
    pub fn play(&mut self, c: Color, s: Square) -> Result<u32, IllegalMove> {
        if self.get(s).is_some() {
            return Err(IllegalMove::Occupied);
        }
        let flips = self.flip_set(c, s);
        if flips.is_empty() {
            return Err(IllegalMove::FlipsNothing);
        }
        let i = self.index(s);
        self.discs[c] |= flips | Wide::single(i);
        self.discs[c.other()] = self.discs[c.other()].without(flips);
        self.hash ^= disc_key(i, c) ^ flip_key(flips);
        Ok(flips.count())
    }

    /// Rows top first, each square `X` (Black), `O` (White) or `.`.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .map(|y| {
                (0..self.size)
                    .map(|x| match self.get(Square::new(x, y)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// The legal moves of `c` computed by the general representation even on 8x8, where the
    /// board normally uses the `u64` path: lets tests hold the two paths together.
    #[doc(hidden)]
    pub fn legal_moves_general(&self, c: Color) -> Vec<Square> {
        let shape = Wide::shape(self.size);
        self.to_squares(Wide::moves(self.discs[c], self.discs[c.other()], shape))
    }

    /// The same for the flips of a play.
    #[doc(hidden)]
    pub fn flips_general(&self, c: Color, s: Square) -> Vec<Square> {
        let shape = Wide::shape(self.size);
        let i = self.index(s);
        self.to_squares(Wide::flips(self.discs[c], self.discs[c.other()], i, shape))
    }

    /// The position with `c` to move, on the 8x8 fast path.
    pub(crate) fn pos8(&self, c: Color) -> Pos<u64> {
        debug_assert_eq!(self.size, 8);
        Pos::new(
            self.discs[c].low_word(),
            self.discs[c.other()].low_word(),
            c,
        )
    }

    /// The position with `c` to move, on a board below 8x8.
    pub(crate) fn pos_narrow(&self, c: Color) -> Pos<Narrow> {
        debug_assert!(self.size < 8);
        Pos::new(
            Narrow(self.discs[c].low_word()),
            Narrow(self.discs[c.other()].low_word()),
            c,
        )
    }

    /// The position with `c` to move, in the general representation.
    pub(crate) fn pos_wide(&self, c: Color) -> Pos<Wide> {
        Pos::new(self.discs[c], self.discs[c.other()], c)
    }

    fn index(&self, s: Square) -> usize {
        assert!(s.is_on(self.size), "{s} is off a {0}x{0} board", self.size);
        s.index(self.size)
    }

    fn move_set(&self, c: Color) -> Wide {
        let (own, opp) = (self.discs[c], self.discs[c.other()]);
        if self.size == 8 {
            Wide::from_u64(u64::moves(own.low_word(), opp.low_word(), &()))
        } else if self.size < 8 {
            let shape = Narrow::shape(self.size);
            Wide::from_u64(Narrow::moves(Narrow(own.low_word()), Narrow(opp.low_word()), shape).0)
        } else {
            Wide::moves(own, opp, Wide::shape(self.size))
        }
    }

    fn flip_set(&self, c: Color, s: Square) -> Wide {
        let i = self.index(s);
        let (own, opp) = (self.discs[c], self.discs[c.other()]);
        if self.size == 8 {
            Wide::from_u64(u64::flips(own.low_word(), opp.low_word(), i, &()))
        } else if self.size < 8 {
            let shape = Narrow::shape(self.size);
            let (own, opp) = (Narrow(own.low_word()), Narrow(opp.low_word()));
            Wide::from_u64(Narrow::flips(own, opp, i, shape).0)
        } else {
            Wide::flips(own, opp, i, Wide::shape(self.size))
        }
    }

    fn to_squares(&self, set: Wide) -> Vec<Square> {
        set.squares()
            .map(|i| Square::from_index(i, self.size))
            .collect()
    }
}

/// The diagram `showboard` prints: column letters, rows numbered from 1 at the top, `X` for
/// Black, `O` for White, `.` for empty.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: String = (0..self.size)
            .map(|x| format!(" {}", (b'A' + x as u8) as char))
            .collect();
        writeln!(f, "   {letters}")?;
        for (y, row) in self.rows().iter().enumerate() {
            let cells: String = row.chars().map(|c| format!(" {c}")).collect();
            writeln!(f, "{:>2} {cells} {:<2}", y + 1, y + 1)?;
        }
        write!(f, "   {letters}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str, size: usize) -> Square {
        Square::parse(s, size).unwrap()
    }

    #[test]
    fn starts_with_white_on_the_main_diagonal() {
        let b = Board::new(8).unwrap();
        assert_eq!(b.get(sq("d4", 8)), Some(Color::White));
        assert_eq!(b.get(sq("e5", 8)), Some(Color::White));
        assert_eq!(b.get(sq("e4", 8)), Some(Color::Black));
        assert_eq!(b.get(sq("d5", 8)), Some(Color::Black));
        assert_eq!(b.score().to_string(), "0");
        let moves: Vec<String> = b
            .legal_moves(Color::Black)
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(moves, ["D3", "C4", "F5", "E6"]);
        let b4 = Board::new(4).unwrap();
        assert_eq!(b4.rows(), ["....", ".OX.", ".XO.", "...."]);
    }

    #[test]
    fn a_play_flips_and_keeps_the_hash() {
        let mut b = Board::new(8).unwrap();
        assert_eq!(b.play(Color::Black, sq("d3", 8)), Ok(1));
        assert_eq!(b.get(sq("d4", 8)), Some(Color::Black));
        assert_eq!(b.score().to_string(), "B+3");
        assert_eq!(b.hash(), b.recomputed_hash());
        let before = b.clone();
        assert_eq!(
            b.play(Color::Black, sq("d3", 8)),
            Err(IllegalMove::Occupied)
        );
        assert_eq!(
            b.play(Color::Black, sq("a1", 8)),
            Err(IllegalMove::FlipsNothing)
        );
        assert_eq!(b, before);
    }

    #[test]
    fn diagram_numbers_rows_from_the_top() {
        let text = Board::new(4).unwrap().to_string();
        assert_eq!(
            text,
            "    A B C D\n 1  . . . . 1 \n 2  . O X . 2 \n 3  . X O . 3 \n 4  . . . . 4 \n    A B C D"
        );
    }
}
