//! The 8x8 bitboard: a `u64`, bit `y * 8 + x`, with constant shifts and masks.

use super::bits::{Bits, DIRECTIONS};

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
pub fn step8(b: u64, d: usize) -> u64 {
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

    #[inline(always)]
    fn fold(self) -> u64 {
        self
    }

    #[inline(always)]
    fn eight(self) -> Option<u64> {
        Some(self)
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

    /// Along each ray from the move, the first square that is not the opponent's (the
    /// nearest: lowest bit on rays going up the bit order, highest on rays going down) ends
    /// the run of opponent discs before it, which flips when that square is an own disc.
    /// Branch-free: the solver's inner loop calls this on nearly every node, and whether a
    /// ray flips is a coin toss the branch predictor loses.
    #[inline]
    fn flips(own: u64, opp: u64, index: usize, _: &()) -> u64 {
        if (own | opp) >> index & 1 != 0 {
            return 0;
        }
        let rays = &RAYS8[index];
        let mut flips = 0;
        // Directions 0, 2, 4 and 7 step to higher bits (+1, +8, +9, +7).
        for d in [0, 2, 4, 7] {
            let ray = rays[d];
            let ends = ray & !opp;
            let first = ends & ends.wrapping_neg();
            let run = first.wrapping_sub(1) & ray;
            flips |= if first & own != 0 { run } else { 0 };
        }
        for d in [1, 3, 5, 6] {
            let ray = rays[d];
            // Bit 0 stands in for "no end on this ray": it is then either off the ray or an
            // opponent disc, and neither flips.
            let first = 1u64 << (63 - ((ray & !opp) | 1).leading_zeros());
            let run = ray & !((first << 1).wrapping_sub(1));
            flips |= if first & own & ray != 0 { run } else { 0 };
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
