//! Square sets as bitboards, and move generation and flips on them by shifts.
//!
//! Bit `y * size + x` is the square at column `x`, row `y` (row 0 at the top). Two
//! representations share one trait, [`Bits`]:
//! - `u64` for 8x8, the board everything in Othello is measured on: every shift and its edge
//!   mask is a constant, and the eight directions are unrolled;
//! - [`Narrow`], one word with per-size shift tables, for 4x4 and 6x6;
//! - [`Wide`], eleven words, for every even size 4..=26 (used from 10x10 up; 8x8 and the
//!   small boards included, which lets the tests hold the representations against each
//!   other). Its shifts carry bits across words and mask with per-size tables built once.
//!
//! Move generation is a shift fill per direction ("dumb7fill"): from the player's discs, step
//! through contiguous opponent discs; an empty square one step past such a run is a move.
//! Flips of one move are the same fill started from the move's square, kept in each direction
//! whose run ends on an own disc.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};
use std::sync::OnceLock;

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

// 8x8 edge masks: a step east or west (or diagonal) must not wrap into the next row.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Columns B..G: the only squares an opponent run crossing the board sideways can use.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Per 8x8 square and direction: the squares from there to the edge, the square excluded.
static RAYS8: [[u64; 8]; 64] = build_rays8();

const fn build_rays8() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut i = 0;
    while i < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            let (mut x, mut y) = ((i % 8) as i32 + dx, (i / 8) as i32 + dy);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                rays[i][d] |= 1 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            d += 1;
        }
        i += 1;
    }
    rays
}

/// One step in direction `d` on 8x8 (see [`DIRECTIONS`]).
#[inline(always)]
fn step8(b: u64, d: usize) -> u64 {
    match d {
        0 => (b << 1) & NOT_A,
        1 => (b >> 1) & NOT_H,
        2 => b << 8,
        3 => b >> 8,
        4 => (b << 9) & NOT_A,
        5 => (b >> 9) & NOT_H,
        6 => (b >> 7) & NOT_A,
        _ => (b << 7) & NOT_H,
    }
}

/// The same step without the edge mask, for callers that mask their operands with `INNER`.
#[inline(always)]
fn raw8(b: u64, d: usize) -> u64 {
    match d {
        0 => b << 1,
        1 => b >> 1,
        2 => b << 8,
        3 => b >> 8,
        4 => b << 9,
        5 => b >> 9,
        6 => b >> 7,
        _ => b << 7,
    }
}

/// The opponent discs a run in direction `d` may cross: columns B..G unless the step is
/// vertical, so that a raw shift can never carry a run over the edge.
#[inline(always)]
fn runway8(opp: u64, d: usize) -> u64 {
    if d == 2 || d == 3 { opp } else { opp & INNER }
}

impl Bits for u64 {
    type Shape = ();

    fn shape(size: usize) -> &'static () {
        debug_assert_eq!(size, 8);
        &()
    }

    fn size(_: &()) -> usize {
        8
    }

    #[inline(always)]
    fn full(_: &()) -> u64 {
        !0
    }

    #[inline(always)]
    fn shift(self, _: &(), d: usize) -> u64 {
        step8(self, d)
    }

    #[inline(always)]
    fn single(index: usize) -> u64 {
        1 << index
    }

    #[inline(always)]
    fn contains(self, index: usize) -> bool {
        self >> index & 1 != 0
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }

    #[inline(always)]
    fn first(self) -> Option<usize> {
        (self != 0).then(|| self.trailing_zeros() as usize)
    }

    #[inline(always)]
    fn without(self, other: u64) -> u64 {
        self & !other
    }

    /// Six fixed fill steps per direction (a run on 8x8 is at most six discs), no branches.
    #[inline]
    fn moves(own: u64, opp: u64, _: &()) -> u64 {
        let empty = !(own | opp);
        let mut moves = 0;
        for d in 0..8 {
            let o = runway8(opp, d);
            let mut t = o & raw8(own, d);
            for _ in 0..5 {
                t |= o & raw8(t, d);
            }
            moves |= raw8(t, d);
        }
        moves & empty
    }

    /// Along each ray from the move, the first own disc (the nearest: lowest bit on rays
    /// going up the bit order, highest on rays going down) closes the line; the line flips
    /// when every square before it is an opponent disc.
    #[inline]
    fn flips(own: u64, opp: u64, index: usize, _: &()) -> u64 {
        if (own | opp) >> index & 1 != 0 {
            return 0;
        }
        let mut flips = 0;
        let rays = &RAYS8[index];
        for (d, &ray) in rays.iter().enumerate() {
            let closing = own & ray;
            if closing == 0 {
                continue;
            }
            // Directions 0, 2, 4 and 7 step to higher bits (+1, +8, +9, +7).
            let between = if matches!(d, 0 | 2 | 4 | 7) {
                let first = closing & closing.wrapping_neg();
                ray & (first - 1)
            } else {
                let first = 1u64 << (63 - closing.leading_zeros());
                ray & !(first | (first - 1))
            };
            if between & !opp == 0 {
                flips |= between;
            }
        }
        flips
    }

    #[inline]
    fn neighbours(self, _: &()) -> u64 {
        let sideways = ((self << 1) & NOT_A) | ((self >> 1) & NOT_H);
        let row = sideways | self;
        sideways | (row << 8) | (row >> 8)
    }
}

/// A square set of a board up to 8x8 in one word, bit `y * size + x` as for [`Wide`]: the
/// 4x4 and 6x6 boards, which the multi-word set would spend ten empty words on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Narrow(pub(crate) u64);

/// What a [`Narrow`] set needs to know of its board size.
pub struct NarrowShape {
    size: usize,
    full: u64,
    /// Per direction: the bit offset of one step.
    offset: [i32; 8],
    /// Per direction: the squares a step can land on.
    landing: [u64; 8],
}

static NARROW_SHAPES: OnceLock<Vec<NarrowShape>> = OnceLock::new();

impl NarrowShape {
    fn build(size: usize) -> NarrowShape {
        // The same tables as the wide shape, for boards that fit a word.
        let wide = WideShape::build(size.min(8));
        NarrowShape {
            size,
            full: wide.full.0[0],
            offset: wide.offset,
            landing: wide.landing.map(|w| w.0[0]),
        }
    }
}

macro_rules! narrow_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Narrow {
            type Output = Narrow;
            #[inline(always)]
            fn $f(self, o: Narrow) -> Narrow {
                Narrow(self.0 $op o.0)
            }
        }
        impl $tra for Narrow {
            #[inline(always)]
            fn $fa(&mut self, o: Narrow) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
narrow_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
narrow_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
narrow_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Bits for Narrow {
    type Shape = NarrowShape;

    fn shape(size: usize) -> &'static NarrowShape {
        let shapes = NARROW_SHAPES.get_or_init(|| (0..=8).map(NarrowShape::build).collect());
        &shapes[size]
    }

    fn size(shape: &NarrowShape) -> usize {
        shape.size
    }

    #[inline(always)]
    fn full(shape: &NarrowShape) -> Narrow {
        Narrow(shape.full)
    }

    #[inline(always)]
    fn shift(self, shape: &NarrowShape, d: usize) -> Narrow {
        let k = shape.offset[d];
        let moved = if k > 0 { self.0 << k } else { self.0 >> -k };
        Narrow(moved & shape.landing[d])
    }

    #[inline(always)]
    fn single(index: usize) -> Narrow {
        Narrow(1 << index)
    }

    #[inline(always)]
    fn contains(self, index: usize) -> bool {
        index < 64 && self.0 >> index & 1 != 0
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    #[inline(always)]
    fn without(self, other: Narrow) -> Narrow {
        Narrow(self.0 & !other.0)
    }
}

/// A square set of any board up to 26x26: bit `i` in word `i / 64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Wide(pub(crate) [u64; WORDS]);

impl fmt::Debug for Wide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares()).finish()
    }
}

/// What a [`Wide`] set needs to know of its board size.
pub struct WideShape {
    size: usize,
    full: Wide,
    /// Per direction: the bit offset of one step (`dy * size + dx`).
    offset: [i32; 8],
    /// Per direction: the squares a step can land on (on the board, and not wrapped from the
    /// other edge).
    landing: [Wide; 8],
}

impl WideShape {
    fn build(size: usize) -> WideShape {
        let mut full = Wide::default();
        let mut landing = [Wide::default(); 8];
        let mut offset = [0; 8];
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            offset[d] = dy * size as i32 + dx;
            for y in 0..size as i32 {
                for x in 0..size as i32 {
                    let (fx, fy) = (x - dx, y - dy);
                    if (0..size as i32).contains(&fx) && (0..size as i32).contains(&fy) {
                        landing[d] |= Wide::single((y * size as i32 + x) as usize);
                    }
                }
            }
        }
        for i in 0..size * size {
            full |= Wide::single(i);
        }
        WideShape {
            size,
            full,
            offset,
            landing,
        }
    }
}

static WIDE_SHAPES: OnceLock<Vec<WideShape>> = OnceLock::new();

impl Wide {
    /// The set of the given squares.
    pub fn from_indices(indices: impl IntoIterator<Item = usize>) -> Wide {
        let mut w = Wide::default();
        for i in indices {
            w |= Wide::single(i);
        }
        w
    }

    /// The first word: the whole set when the board is 8x8.
    #[inline]
    pub fn low_word(self) -> u64 {
        self.0[0]
    }

    /// The set holding the 8x8 set `b`.
    #[inline]
    pub fn from_u64(b: u64) -> Wide {
        let mut w = Wide::default();
        w.0[0] = b;
        w
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Wide {
            type Output = Wide;
            #[inline]
            fn $f(mut self, o: Wide) -> Wide {
                for i in 0..WORDS {
                    self.0[i] $op o.0[i];
                }
                self
            }
        }
        impl $tra for Wide {
            #[inline]
            fn $fa(&mut self, o: Wide) {
                for i in 0..WORDS {
                    self.0[i] $op o.0[i];
                }
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl Bits for Wide {
    type Shape = WideShape;

    fn shape(size: usize) -> &'static WideShape {
        let shapes = WIDE_SHAPES.get_or_init(|| (0..=MAX_SIZE).map(WideShape::build).collect());
        &shapes[size]
    }

    fn size(shape: &WideShape) -> usize {
        shape.size
    }

    #[inline]
    fn full(shape: &WideShape) -> Wide {
        shape.full
    }

    #[inline]
    // Each word takes bits from its neighbour: indices say that more plainly than iterators.
    #[allow(clippy::needless_range_loop)]
    fn shift(self, shape: &WideShape, d: usize) -> Wide {
        let k = shape.offset[d];
        let mut out = [0u64; WORDS];
        // A step is at most 27 bits, so a bit moves into the same word or the next one.
        if k > 0 {
            let k = k as u32;
            out[0] = self.0[0] << k;
            for i in 1..WORDS {
                out[i] = (self.0[i] << k) | (self.0[i - 1] >> (64 - k));
            }
        } else {
            let k = (-k) as u32;
            for i in 0..WORDS - 1 {
                out[i] = (self.0[i] >> k) | (self.0[i + 1] << (64 - k));
            }
            out[WORDS - 1] = self.0[WORDS - 1] >> k;
        }
        Wide(out) & shape.landing[d]
    }

    #[inline]
    fn single(index: usize) -> Wide {
        let mut w = Wide::default();
        w.0[index / 64] = 1 << (index % 64);
        w
    }

    #[inline]
    fn contains(self, index: usize) -> bool {
        index < WORDS * 64 && self.0[index / 64] >> (index % 64) & 1 != 0
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    fn first(self) -> Option<usize> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|i| i * 64 + self.0[i].trailing_zeros() as usize)
    }

    #[inline]
    fn without(mut self, other: Wide) -> Wide {
        for i in 0..WORDS {
            self.0[i] &= !other.0[i];
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
