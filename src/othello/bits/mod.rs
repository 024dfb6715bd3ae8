//! Square sets as bitboards, and move generation and flips on them by shifts.
//!
//! Bit `y * size + x` is the square at column `x`, row `y` (row 0 at the top). Three
//! representations share one trait, [`Bits`]:
//! - `u64` for 8x8, the board everything in Othello is measured on (`eight_by_eight.rs`): every shift
//!   and its edge mask is a constant, the eight directions are unrolled, and flips come from
//!   precomputed rays;
//! - `Narrow`, one word with per-size shift tables, for 4x4 and 6x6 (`other_sizes.rs`);
//! - `Wide`, eleven words, for every even size 4..=26 (`other_sizes.rs`; used from 10x10 up, and
//!   on the smaller boards by the tests, to hold the representations against each other).
//!   Its shifts carry bits across words and mask with per-size tables built once.
//!
//! The generic move generation is a shift fill per direction ("dumb7fill"): from the
//! player's discs, step through contiguous opponent discs; an empty square one step past
//! such a run is a move. The generic flips of one move are the same fill started from the
//! move's square, kept in each direction whose run ends on an own disc.

pub(crate) mod eight_by_eight;
pub(crate) mod other_sizes;

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

/// The smallest Othello board.
pub const MIN_SIZE: usize = 4;
/// The largest board: 26 columns, `A` to `Z`.
pub const MAX_SIZE: usize = 26;
/// Words of a [`Wide`] set: 676 squares.
pub const WORDS: usize = (MAX_SIZE * MAX_SIZE).div_ceil(64);

/// The eight directions as (dx, dy), y growing downwards. Opposite directions are paired as
/// `d` and `d ^ 1`.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// A set of squares of one board size, with what move generation needs.
///
/// `Shape` holds whatever depends on the size (nothing for the 8x8 `u64`); every method that
/// moves bits between squares takes it.
pub trait Bits:
    Copy
    + Eq
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    type Shape: Sync + 'static;

    /// The shape of `size`, which must be a size this representation holds.
    fn shape(size: usize) -> &'static Self::Shape;
    fn size(shape: &Self::Shape) -> usize;
    /// Every square of the board.
    fn full(shape: &Self::Shape) -> Self;
    /// Each square moved one step in direction `d` (an index into [`DIRECTIONS`]); squares
    /// leaving the board vanish.
    fn shift(self, shape: &Self::Shape, d: usize) -> Self;

    fn single(index: usize) -> Self;
    fn contains(self, index: usize) -> bool;
    fn count(self) -> u32;
    fn is_empty(self) -> bool;
    /// The lowest square (reading order), if any.
    fn first(self) -> Option<usize>;
    /// `self` without the squares of `other`.
    fn without(self, other: Self) -> Self;
    /// The set folded into one word, for hashing: the set itself when it fits one.
    fn fold(self) -> u64;
    /// The 8x8 bitboard, if this is one (what the learnt evaluation reads).
    #[inline(always)]
    fn eight(self) -> Option<u64> {
        None
    }

    /// The squares where the owner of `own` may play against `opp`.
    fn moves(own: Self, opp: Self, shape: &Self::Shape) -> Self {
        let empty = Self::full(shape).without(own | opp);
        let mut moves = Self::default();
        for d in 0..8 {
            let mut run = own.shift(shape, d) & opp;
            while !run.is_empty() {
                let next = run.shift(shape, d);
                moves |= next & empty;
                run = next & opp;
            }
        }
        moves
    }

    /// The discs a play on `index` by the owner of `own` turns over (empty: not a move).
    fn flips(own: Self, opp: Self, index: usize, shape: &Self::Shape) -> Self {
        let mut flips = Self::default();
        if (own | opp).contains(index) {
            return flips;
        }
        for d in 0..8 {
            let mut line = Self::default();
            let mut step = Self::single(index).shift(shape, d);
            while !(step & opp).is_empty() {
                line |= step;
                step = step.shift(shape, d);
            }
            if !(step & own).is_empty() {
                flips |= line;
            }
        }
        flips
    }

    /// How many discs a play on `index` by the owner of `own` turns over, on a board whose
    /// only empty square is `index` (every other square is `own`'s or the opponent's).
    fn last_flip_count(own: Self, index: usize, shape: &Self::Shape) -> u32 {
        let opp = Self::full(shape).without(own | Self::single(index));
        Self::flips(own, opp, index, shape).count()
    }

    /// Per axis `a` (directions `2a` and `2a + 1`): the squares of `occupied` whose whole line
    /// along that axis is occupied, so that no move can flip a disc there along it. `edge[d]`:
    /// the squares whose step in direction `d` leaves the board (`Masks::exit`).
    fn full_lines(occupied: Self, edge: &[Self; 8], shape: &Self::Shape) -> [Self; 4] {
        // Per direction: the occupied squares from which every square to the edge that way
        // is occupied, grown back from the edge.
        let to_edge: [Self; 8] = std::array::from_fn(|d| {
            let mut ray = occupied & edge[d];
            loop {
                let grown = ray | (occupied & ray.shift(shape, d ^ 1));
                if grown == ray {
                    break ray;
                }
                ray = grown;
            }
        });
        std::array::from_fn(|a| to_edge[2 * a] & to_edge[2 * a + 1])
    }

    /// The squares next to (in the eight directions) some square of `self`.
    fn neighbours(self, shape: &Self::Shape) -> Self {
        let mut n = Self::default();
        for d in 0..8 {
            n |= self.shift(shape, d);
        }
        n
    }

    /// The squares in reading order, removed one by one.
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates the squares of a set, lowest first.
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.first()?;
        self.0 = self.0.without(B::single(i));
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::bits::eight_by_eight::step8;
    use crate::othello::bits::other_sizes::{Narrow, Wide};

    /// The 8x8 start: White d4 e5, Black e4 d5.
    fn start() -> (u64, u64) {
        let white = 1 << (3 * 8 + 3) | 1 << (4 * 8 + 4);
        let black = 1 << (3 * 8 + 4) | 1 << (4 * 8 + 3);
        (black, white)
    }

    #[test]
    fn black_has_four_opening_moves() {
        let (black, white) = start();
        let moves = u64::moves(black, white, &());
        // d3, c4, f5, e6
        let expected = [(3, 2), (2, 3), (5, 4), (4, 5)]
            .iter()
            .fold(0u64, |m, &(x, y)| m | 1 << (y * 8 + x));
        assert_eq!(moves, expected);
        assert_eq!(u64::flips(black, white, 2 * 8 + 3, &()), 1 << (3 * 8 + 3));
        assert_eq!(u64::flips(black, white, 0, &()), 0);
    }

    #[test]
    fn steps_never_wrap_on_any_size() {
        for size in (MIN_SIZE..=MAX_SIZE).step_by(2) {
            let shape = Wide::shape(size);
            for i in 0..size * size {
                let (x, y) = ((i % size) as i32, (i / size) as i32);
                for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    let (nx, ny) = (x + dx, y + dy);
                    let got = Wide::single(i).shift(shape, d);
                    if (0..size as i32).contains(&nx) && (0..size as i32).contains(&ny) {
                        assert_eq!(got, Wide::single((ny * size as i32 + nx) as usize));
                        if size == 8 {
                            assert_eq!(step8(1 << i, d), got.low_word());
                        }
                        if size <= 8 {
                            let n = Narrow::single(i).shift(Narrow::shape(size), d);
                            assert_eq!(n.0, got.low_word());
                        }
                    } else {
                        assert!(got.is_empty(), "{size} {i} {d}");
                        if size == 8 {
                            assert_eq!(step8(1 << i, d), 0);
                        }
                        if size <= 8 {
                            assert!(Narrow::single(i).shift(Narrow::shape(size), d).is_empty());
                        }
                    }
                }
            }
        }
    }

    /// The u64 flips (branch-free bit scans) against the generic fill on random boards,
    /// dense and sparse, every square: runs reaching the edge, ending on an empty square, or
    /// closed at the far end all occur.
    #[test]
    fn u64_flips_agree_with_the_generic_fill_on_random_boards() {
        let shape = Wide::shape(8);
        let mut rng = crate::rng::Rng::new(17);
        let mut next = || rng.next_u64();
        for _ in 0..2000 {
            let (a, b, c) = (next(), next(), next());
            let occupied = a | b | (c & 0x00ff_00ff_00ff_00ff);
            let own = occupied & next();
            let opp = occupied & !own;
            for i in 0..64 {
                assert_eq!(
                    u64::flips(own, opp, i, &()),
                    Wide::flips(Wide::from_u64(own), Wide::from_u64(opp), i, shape).low_word(),
                    "own {own:#x} opp {opp:#x} square {i}"
                );
            }
        }
    }

    /// On boards with one empty square the counted flips are those of the generic fill.
    #[test]
    fn last_flip_counts_agree_with_the_flips() {
        let shape = Wide::shape(8);
        let mut rng = crate::rng::Rng::new(29);
        for _ in 0..3000 {
            let own = rng.next_u64();
            let i = (rng.next_u64() % 64) as usize;
            let own = own & !(1 << i);
            let opp = !own & !(1 << i);
            for (a, b) in [(own, opp), (opp, own)] {
                let expected = Wide::flips(Wide::from_u64(a), Wide::from_u64(b), i, shape).count();
                assert_eq!(
                    u64::last_flip_count(a, i, &()),
                    expected,
                    "{a:#x} square {i}"
                );
                let wide = Wide::last_flip_count(Wide::from_u64(a), i, shape);
                assert_eq!(wide, expected, "{a:#x} square {i}");
            }
        }
    }

    /// Full lines by walking each square's line both ways, square by square.
    fn full_lines_by_walking(occupied: u64) -> [u64; 4] {
        let occupied_at = |x: i32, y: i32| occupied >> (y * 8 + x) & 1 != 0;
        std::array::from_fn(|a| {
            let mut full = 0;
            for i in 0..64 {
                let (x, y) = (i % 8, i / 8);
                let whole_line = [2 * a, 2 * a + 1].iter().all(|&d| {
                    let (dx, dy) = DIRECTIONS[d];
                    let (mut x, mut y) = (x, y);
                    while (0..8).contains(&x) && (0..8).contains(&y) {
                        if !occupied_at(x, y) {
                            return false;
                        }
                        x += dx;
                        y += dy;
                    }
                    true
                });
                if whole_line {
                    full |= 1 << i;
                }
            }
            full
        })
    }

    /// Both full-line computations against the walk, on boards from nearly empty to full
    /// (every line full somewhere only when most squares are occupied).
    #[test]
    fn full_lines_agree_with_walking_the_lines() {
        let shape = Wide::shape(8);
        let edge = crate::othello::search::eval::Masks::<Wide>::new(shape).exit;
        let mut rng = crate::rng::Rng::new(23);
        for k in 0..3000 {
            let holes = match k % 3 {
                0 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                1 => 1 << (rng.next_u64() % 64) | 1 << (rng.next_u64() % 64),
                _ => rng.next_u64(),
            };
            let occupied = !holes;
            let expected = full_lines_by_walking(occupied);
            assert_eq!(
                u64::full_lines(occupied, &[0; 8], &()),
                expected,
                "{occupied:#x}"
            );
            let wide = Wide::full_lines(Wide::from_u64(occupied), &edge, shape).map(Wide::low_word);
            assert_eq!(wide, expected, "{occupied:#x}");
        }
        assert_eq!(u64::full_lines(!0, &[0; 8], &()), [!0; 4]);
        assert_eq!(u64::full_lines(0, &[0; 8], &()), [0; 4]);
    }

    #[test]
    fn wide_and_u64_agree_on_8x8() {
        let (black, white) = start();
        let shape = Wide::shape(8);
        let (b, w) = (Wide::from_u64(black), Wide::from_u64(white));
        assert_eq!(
            Wide::moves(b, w, shape).low_word(),
            u64::moves(black, white, &())
        );
        for i in 0..64 {
            assert_eq!(
                Wide::flips(w, b, i, shape).low_word(),
                u64::flips(white, black, i, &())
            );
        }
        assert_eq!(
            Wide::from_u64(black | white).neighbours(shape).low_word(),
            (black | white).neighbours(&())
        );
    }
}
