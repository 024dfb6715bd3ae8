//! The 8x8 bitboard: a `u64`, bit `y * 8 + x`, with constant shifts and masks.

use crate::othello::bits::{Bits, DIRECTIONS};

// 8x8 edge masks: a step east or west (or diagonal) must not wrap into the next row.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Columns B..G: the only squares an opponent run crossing the board sideways can use.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The directions (indices into [`DIRECTIONS`]) in the order `RAYS8` holds their rays: the
/// four that step to higher bits (+1, +8, +9, +7), then the four that step to lower ones, so
/// that `flips` treats each half as one vector of four.
const RAY_ORDER: [usize; 8] = [0, 2, 4, 7, 1, 3, 5, 6];

/// Per 8x8 square, its eight rays in `RAY_ORDER`: the squares from there to the edge, the
/// square excluded. A square's rays fill one cache line.
#[repr(C, align(64))]
struct Rays8([[u64; 8]; 64]);

static RAYS8: Rays8 = build_rays8();

const fn build_rays8() -> Rays8 {
    let mut rays = [[0u64; 8]; 64];
    let mut i = 0;
    while i < 64 {
        let mut k = 0;
        while k < 8 {
            let (dx, dy) = DIRECTIONS[RAY_ORDER[k]];
            let (mut x, mut y) = ((i % 8) as i32 + dx, (i / 8) as i32 + dy);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                rays[i][k] |= 1 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            k += 1;
        }
        i += 1;
    }
    Rays8(rays)
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

/// `k` steps in direction `d` without the edge mask, for callers that mask their operands
/// with `INNER` (or as a fill does).
#[inline(always)]
fn raw8(b: u64, d: usize, k: u32) -> u64 {
    match d {
        0 => b << k,
        1 => b >> k,
        2 => b << (8 * k),
        3 => b >> (8 * k),
        4 => b << (9 * k),
        5 => b >> (9 * k),
        6 => b >> (7 * k),
        _ => b << (7 * k),
    }
}

/// Per square: its diagonal (down and right) and anti-diagonal (up and right), the square
/// included.
static DIAGONALS8: [[u64; 2]; 64] = {
    let mut lines = [[0u64; 2]; 64];
    let mut i = 0;
    while i < 64 {
        // Directions 4 and 5 (down and right, up and left) at 2 and 6 of `RAY_ORDER`; 6 and
        // 7 at 7 and 3.
        let rays = &RAYS8.0[i];
        lines[i] = [rays[2] | rays[6] | 1 << i, rays[7] | rays[3] | 1 << i];
        i += 1;
    }
    lines
};

/// Per position on a line of eight and per line (bit k set: an own disc at position k, clear:
/// an opponent's, or a square past the line's end): the discs a play at that position turns
/// over along the line, both ways, when it is the line's only empty square.
static LINE_FLIPS8: [[u8; 256]; 8] = {
    let mut counts = [[0u8; 256]; 8];
    let mut at = 0;
    while at < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Rightwards, then leftwards: the run of opponent discs counts when an own disc
            // closes it before the end.
            let mut k = at + 1;
            while k < 8 && line >> k & 1 == 0 {
                k += 1;
            }
            if k < 8 {
                total += k - at - 1;
            }
            let mut k = at as i32 - 1;
            while k >= 0 && line >> k & 1 == 0 {
                k -= 1;
            }
            if k >= 0 {
                total += at - k as usize - 1;
            }
            counts[at][line] = total as u8;
            line += 1;
        }
        at += 1;
    }
    counts
};

/// Per direction: the squares whose step that way leaves the board.
const EDGE8: [u64; 8] = {
    const A: u64 = 0x0101_0101_0101_0101;
    const H: u64 = 0x8080_8080_8080_8080;
    const TOP: u64 = 0xff;
    const BOTTOM: u64 = 0xff << 56;
    [H, A, BOTTOM, TOP, H | BOTTOM, A | TOP, H | TOP, A | BOTTOM]
};

/// `from` spread in direction `d` along runs of `through` (a Kogge-Stone occluded fill:
/// three doubling steps cover the seven of the longest line).
#[inline(always)]
fn fill8(from: u64, through: u64, d: usize) -> u64 {
    // Steps east or west must not wrap into the next row: the column a wrap would land in
    // is taken out of what the fill may cross.
    let mut through = match d {
        0 | 4 | 6 => through & NOT_A,
        1 | 5 | 7 => through & NOT_H,
        _ => through,
    };
    let mut filled = from;
    filled |= through & raw8(filled, d, 1);
    through &= raw8(through, d, 1);
    filled |= through & raw8(filled, d, 2);
    through &= raw8(through, d, 2);
    filled | (through & raw8(filled, d, 4))
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
            let mut t = o & raw8(own, d, 1);
            for _ in 0..5 {
                t |= o & raw8(t, d, 1);
            }
            moves |= raw8(t, d, 1);
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
        let rays = &RAYS8.0[index];
        let mut flips = 0;
        for &ray in &rays[..4] {
            let ends = ray & !opp;
            let first = ends & ends.wrapping_neg();
            let run = first.wrapping_sub(1) & ray;
            flips |= if first & own != 0 { run } else { 0 };
        }
        for &ray in &rays[4..] {
            // Bit 0 stands in for "no end on this ray": it is then either off the ray or an
            // opponent disc, and neither flips.
            let first = 1u64 << (63 - ((ray & !opp) | 1).leading_zeros());
            let run = ray & !((first << 1).wrapping_sub(1));
            flips |= if first & own & ray != 0 { run } else { 0 };
        }
        flips
    }

    /// Each of the four lines through the square gathered into a byte and looked up: the
    /// solver's last square is scored this way at most of its nodes.
    #[inline]
    fn last_flip_count(own: u64, index: usize, _: &()) -> u32 {
        const COLUMN: u64 = 0x0101_0101_0101_0101;
        let (x, y) = (index & 7, index >> 3);
        let row = (own >> (8 * y)) as u8;
        // Row k of the column lands on bit k of the top byte; a diagonal's squares land on
        // the bits of their columns.
        let column = (((own >> x) & COLUMN).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
        let diagonal = ((own & DIAGONALS8[index][0]).wrapping_mul(COLUMN) >> 56) as u8;
        let anti_diagonal = ((own & DIAGONALS8[index][1]).wrapping_mul(COLUMN) >> 56) as u8;
        let count = |at: usize, line: u8| LINE_FLIPS8[at][line as usize] as u32;
        count(x, row) + count(y, column) + count(x, diagonal) + count(x, anti_diagonal)
    }

    /// Rows and columns by folding bits together, diagonals by occluded fills from the
    /// edge (the constant `EDGE8`, so the `edge` masks go unread): no loops and no branches,
    /// as the solver's stability cutoff asks for this at many nodes.
    #[inline]
    fn full_lines(occupied: u64, _: &[u64; 8], _: &()) -> [u64; 4] {
        // A row is full when its eight bits anded together (into its lowest) are set.
        let mut rows = occupied & (occupied >> 4);
        rows &= rows >> 2;
        rows &= rows >> 1;
        let rows = (rows & 0x0101_0101_0101_0101) * 0xff;
        // Every byte anded with every other leaves the full columns in each.
        let mut columns = occupied & occupied.rotate_right(32);
        columns &= columns.rotate_right(16);
        columns &= columns.rotate_right(8);
        let to_edge = |d: usize| fill8(occupied & EDGE8[d], occupied, d ^ 1);
        [
            rows,
            columns,
            to_edge(4) & to_edge(5),
            to_edge(6) & to_edge(7),
        ]
    }

    #[inline]
    fn neighbours(self, _: &()) -> u64 {
        let sideways = ((self << 1) & NOT_A) | ((self >> 1) & NOT_H);
        let row = sideways | self;
        sideways | (row << 8) | (row >> 8)
    }
}
