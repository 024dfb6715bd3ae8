//! Square sets for the other sizes: `Narrow` (one word, 4x4 and 6x6) and `Wide` (eleven
//! words, any size to 26x26), each with per-size tables of shift offsets and landing masks.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};
use std::sync::OnceLock;

use crate::othello::bits::{Bits, DIRECTIONS, MAX_SIZE, WORDS};

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

    #[inline(always)]
    fn fold(self) -> u64 {
        self.0
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

    /// A multiply between words: a plain xor of (rotated) words would give a disc on one
    /// square and on another the same fold.
    #[inline]
    fn fold(self) -> u64 {
        self.0.iter().fold(0, |h, &w| {
            (h.rotate_left(29) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }
}
