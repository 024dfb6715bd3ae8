//! The learnt evaluation of 8x8 positions: pattern tables in the manner of Buro's Logistello
//! and Edax, one set per game phase.
//!
//! A pattern is a fixed set of squares; its configuration (each square empty, the side to
//! move's or the opponent's) indexes a table of weights. Every pattern is read at each of
//! its places on the board (its images under the board's eight symmetries), all sharing one
//! table, and configurations that a symmetry of the pattern maps onto each other share one
//! weight. The patterns: the edge with its two X-squares, the 3x3 and 2x5 corner blocks, the
//! second, third and fourth rows (and columns), and the diagonals of 4 to 8 squares: 46
//! places in all. Besides them, a bias, the number of moves of each side, and the parity of
//! the empties. A position's value is the sum of its weights in the table set of its phase
//! (`PHASES` sets, four empties apart), in discs times [`SCALE`].
//!
//! The weights are fitted by `train/src/othello_eval.rs` (self-play, exact and searched
//! labels, least squares) and stored in `data/patterns.bin`; [`Weights::read`] says the
//! format. [`features`] gives the training the indices the evaluation reads.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// Game phases: one table set per four empties (1-4, 5-8, ..., 57-60).
pub const PHASES: usize = 15;
/// Weights are in discs times this.
pub const SCALE: i32 = 64;
/// Mobility counts above this share the last weight.
pub const MAX_MOBILITY: usize = 31;

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties.max(1) as usize - 1).min(4 * PHASES - 1) / 4
}

/// A pattern: its squares as (column, row) on the canonical place, in digit order.
struct Pattern {
    name: &'static str,
    squares: &'static [(u8, u8)],
}

const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2X",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
            (1, 1),
            (6, 1),
        ],
    },
    Pattern {
        name: "corner 3x3",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ],
    },
    Pattern {
        name: "corner 2x5",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
        ],
    },
    Pattern {
        name: "row 2",
        squares: &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
        ],
    },
    Pattern {
        name: "row 3",
        squares: &[
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
        ],
    },
    Pattern {
        name: "row 4",
        squares: &[
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
        ],
    },
    Pattern {
        name: "diagonal 8",
        squares: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    },
    Pattern {
        name: "diagonal 7",
        squares: &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    },
    Pattern {
        name: "diagonal 6",
        squares: &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    },
    Pattern {
        name: "diagonal 5",
        squares: &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    },
    Pattern {
        name: "diagonal 4",
        squares: &[(4, 0), (5, 1), (6, 2), (7, 3)],
    },
];

/// A map of (column, row) to (column, row).
type Symmetry = fn(u8, u8) -> (u8, u8);

/// The board's symmetries. `SYMMETRIES[g]` is the one the transformed board `g` of
/// [`transforms`] reads through.
const SYMMETRIES: [Symmetry; 8] = [
    |x, y| (x, y),
    |x, y| (7 - x, y),
    |x, y| (x, 7 - y),
    |x, y| (7 - x, 7 - y),
    |x, y| (y, x),
    |x, y| (y, 7 - x),
    |x, y| (7 - y, x),
    |x, y| (7 - y, 7 - x),
];

/// What the tables need to know of the patterns, built once.
struct Layout {
    /// Per pattern: the symmetries giving its distinct places.
    places: Vec<Vec<usize>>,
    /// Per pattern: each configuration's shared weight (an index among the pattern's
    /// distinct weights).
    canonical: Vec<Vec<u32>>,
    /// Per pattern: its number of distinct weights.
    distinct: Vec<usize>,
    /// Per pattern: where its distinct weights start among all features.
    offset: Vec<usize>,
    /// Features in all: the patterns' distinct weights, then the scalars.
    features: usize,
}

/// The scalar features after the patterns' weights: the bias, the side to move's moves,
/// the opponent's moves, an odd number of empties.
const SCALARS: usize = 1 + 2 * (MAX_MOBILITY + 1) + 1;

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut places = Vec::new();
        let mut canonical = Vec::new();
        let mut distinct = Vec::new();
        let mut offset = Vec::new();
        let mut next = 0;
        for p in &PATTERNS {
            let k = p.squares.len();
            let set = |g: usize| -> Vec<u8> {
                let mut v: Vec<u8> = p
                    .squares
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = SYMMETRIES[g](x, y);
                        y * 8 + x
                    })
                    .collect();
                v.sort_unstable();
                v
            };
            let mut seen: Vec<Vec<u8>> = Vec::new();
            let mut mine = Vec::new();
            // Digit permutations of the symmetries that keep the pattern's squares.
            let mut perms: Vec<Vec<usize>> = Vec::new();
            for (g, symmetry) in SYMMETRIES.iter().enumerate() {
                let s = set(g);
                if s == set(0) {
                    let perm = p
                        .squares
                        .iter()
                        .map(|&(x, y)| {
                            let image = symmetry(x, y);
                            p.squares.iter().position(|&q| q == image).unwrap_or(0)
                        })
                        .collect();
                    perms.push(perm);
                }
                if !seen.contains(&s) {
                    seen.push(s);
                    mine.push(g);
                }
            }
            let size = 3usize.pow(k as u32);
            let mut canon = vec![u32::MAX; size];
            let mut count = 0;
            for idx in 0..size {
                if canon[idx] != u32::MAX {
                    continue;
                }
                let digits: Vec<usize> = (0..k).map(|j| idx / 3usize.pow(j as u32) % 3).collect();
                for perm in &perms {
                    // Digit j of the image is the digit of the square the symmetry sends j to.
                    let image: usize = (0..k).map(|j| digits[perm[j]] * 3usize.pow(j as u32)).sum();
                    canon[image] = count;
                }
                count += 1;
            }
            places.push(mine);
            canonical.push(canon);
            distinct.push(count as usize);
            offset.push(next);
            next += count as usize;
        }
        Layout {
            places,
            canonical,
            distinct,
            offset,
            features: next + SCALARS,
        }
    })
}

/// The number of features (weights of one phase).
pub fn feature_count() -> usize {
    layout().features
}

/// The features of a position (`own`: the side to move's discs), each an index below
/// [`feature_count`]: one per pattern place, then the scalars. Mobility counts are the
/// number of moves of each side.
pub fn features(own: u64, opp: u64, own_moves: u32, opp_moves: u32) -> Vec<u32> {
    let l = layout();
    let mut out = Vec::with_capacity(PLACES + 4);
    let boards = transforms(own, opp);
    for (p, places) in l.places.iter().enumerate() {
        for &g in places {
            let (o, q) = boards[g];
            let idx = index(p, o, q) as usize;
            out.push((l.offset[p] + l.canonical[p][idx] as usize) as u32);
        }
    }
    let base = (l.features - SCALARS) as u32;
    out.push(base);
    out.push(base + 1 + (own_moves as usize).min(MAX_MOBILITY) as u32);
    out.push(base + 1 + (MAX_MOBILITY + 1) as u32 + (opp_moves as usize).min(MAX_MOBILITY) as u32);
    let empties = (!(own | opp)).count_ones();
    if empties % 2 == 1 {
        out.push(base + SCALARS as u32 - 1);
    }
    out
}

/// Pattern places in all.
pub const PLACES: usize = 46;

/// Per 10-bit set: its squares as base-3 digits of value 1.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut j = 0;
        while j < 10 {
            if m >> j & 1 != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

#[inline(always)]
fn flip_h(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

#[inline(always)]
fn transpose(b: u64) -> u64 {
    let t = (b ^ (b >> 7)) & 0x00aa_00aa_00aa_00aa;
    let b = b ^ t ^ (t << 7);
    let t = (b ^ (b >> 14)) & 0x0000_cccc_0000_cccc;
    let b = b ^ t ^ (t << 14);
    let t = (b ^ (b >> 28)) & 0x0000_0000_f0f0_f0f0;
    b ^ t ^ (t << 28)
}

/// The board read through each symmetry: `transforms(..)[g]` has at (x, y) what the board
/// has at `SYMMETRIES[g](x, y)`.
#[inline(always)]
fn transforms(own: u64, opp: u64) -> [(u64, u64); 8] {
    let one = |b: u64| {
        let t = transpose(b);
        let (h, v) = (flip_h(b), b.swap_bytes());
        let (th, tv) = (flip_h(t), t.swap_bytes());
        [b, h, v, h.swap_bytes(), t, th, tv, th.swap_bytes()]
    };
    let (a, b) = (one(own), one(opp));
    std::array::from_fn(|g| (a[g], b[g]))
}

/// The bits of pattern `p`'s canonical place in `b`, in digit order.
#[inline(always)]
fn gather(p: usize, b: u64) -> usize {
    const FILL: u64 = 0x0101_0101_0101_0101;
    (match p {
        0 => (b & 0xff) | (b >> 1 & 0x100) | (b >> 5 & 0x200),
        1 => (b & 7) | (b >> 5 & 0x38) | (b >> 10 & 0x1c0),
        2 => (b & 0x1f) | (b >> 3 & 0x3e0),
        3 => b >> 8 & 0xff,
        4 => b >> 16 & 0xff,
        5 => b >> 24 & 0xff,
        // A diagonal has one square per row, in distinct columns: the product adds each
        // row's byte into the top byte without carries, each square on its column's bit.
        6 => (b & 0x8040_2010_0804_0201).wrapping_mul(FILL) >> 56,
        7 => (b & 0x0080_4020_1008_0402).wrapping_mul(FILL) >> 57,
        8 => (b & 0x0000_8040_2010_0804).wrapping_mul(FILL) >> 58,
        9 => (b & 0x0000_0080_4020_1008).wrapping_mul(FILL) >> 59,
        _ => (b & 0x0000_0000_8040_2010).wrapping_mul(FILL) >> 60,
    }) as usize
}

/// The configuration index of pattern `p`'s canonical place: digit 1 own, 2 opponent.
#[inline(always)]
fn index(p: usize, own: u64, opp: u64) -> u32 {
    TERNARY[gather(p, own)] as u32 + 2 * TERNARY[gather(p, opp)] as u32
}

/// Pattern tables for every phase, expanded to every configuration.
pub struct Weights {
    /// Per phase, per pattern: one weight per configuration.
    tables: Vec<Vec<Vec<i16>>>,
    /// Per phase: the scalar weights.
    scalars: Vec<[i16; SCALARS]>,
}

/// A weights file that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadWeights(pub String);

impl fmt::Display for BadWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad pattern weights: {}", self.0)
    }
}

impl std::error::Error for BadWeights {}

const MAGIC: &[u8; 8] = b"SHOPAT1\n";

/// The fitted weights, as committed.
static SHIPPED: &[u8] = include_bytes!("data/patterns.bin");

impl Weights {
    /// The weights shipped with the engine (`data/patterns.bin`), read once.
    pub fn shipped() -> Arc<Weights> {
        static W: OnceLock<Arc<Weights>> = OnceLock::new();
        W.get_or_init(|| {
            // The file is part of the build and checked by the tests, so it reads.
            Arc::new(Weights::read(SHIPPED).unwrap_or_else(|_| Weights::zero()))
        })
        .clone()
    }

    /// All weights zero.
    pub fn zero() -> Weights {
        Weights::from_features(&vec![vec![0.0; feature_count()]; PHASES])
    }

    /// Weights from one vector of [`feature_count`] values per phase, in discs.
    pub fn from_features(phases: &[Vec<f32>]) -> Weights {
        let l = layout();
        let q = |w: f32| (w * SCALE as f32).round().clamp(-32000.0, 32000.0) as i16;
        let mut tables = Vec::new();
        let mut scalars = Vec::new();
        for w in phases {
            let mut t = Vec::new();
            for (p, canon) in l.canonical.iter().enumerate() {
                t.push(
                    canon
                        .iter()
                        .map(|&c| q(w[l.offset[p] + c as usize]))
                        .collect(),
                );
            }
            tables.push(t);
            let base = l.features - SCALARS;
            scalars.push(std::array::from_fn(|k| q(w[base + k])));
        }
        Weights { tables, scalars }
    }

    /// The weights as stored: the magic line `SHOPAT1`, then per phase and per pattern its
    /// distinct weights in order, then the scalars; each weight a zigzag LEB128 number, a
    /// zero followed by the count of further zeros.
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = layout();
        let mut values = Vec::new();
        for (phase, tables) in self.tables.iter().enumerate() {
            for (p, canon) in l.canonical.iter().enumerate() {
                let mut distinct = vec![0i16; l.distinct[p]];
                for (idx, &c) in canon.iter().enumerate() {
                    distinct[c as usize] = tables[p][idx];
                }
                values.extend(distinct);
            }
            values.extend(self.scalars[phase]);
        }
        let mut out = MAGIC.to_vec();
        let mut k = 0;
        while k < values.len() {
            let v = values[k];
            put_varint(&mut out, ((v as i32) << 1 ^ (v as i32) >> 31) as u32);
            k += 1;
            if v == 0 {
                let run = values[k..].iter().take_while(|&&w| w == 0).count();
                put_varint(&mut out, run as u32);
                k += run;
            }
        }
        out
    }

    /// Reads what [`Weights::to_bytes`] wrote.
    ///
    /// # Errors
    /// A wrong magic line, a truncated file, or trailing bytes.
    pub fn read(bytes: &[u8]) -> Result<Weights, BadWeights> {
        let l = layout();
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| BadWeights("no SHOPAT1 line".into()))?;
        let per_phase = l.features;
        let total = per_phase * PHASES;
        let mut values = Vec::with_capacity(total);
        let mut at = 0;
        while values.len() < total {
            let z = get_varint(rest, &mut at)?;
            let v = (z >> 1) as i32 ^ -((z & 1) as i32);
            values.push(v as i16);
            if v == 0 {
                let run = get_varint(rest, &mut at)? as usize;
                values.extend(std::iter::repeat_n(0, run));
            }
        }
        if values.len() != total || at != rest.len() {
            return Err(BadWeights("wrong length".into()));
        }
        let mut tables = Vec::new();
        let mut scalars = Vec::new();
        for w in values.chunks(per_phase) {
            let mut t = Vec::new();
            for (p, canon) in l.canonical.iter().enumerate() {
                t.push(canon.iter().map(|&c| w[l.offset[p] + c as usize]).collect());
            }
            tables.push(t);
            scalars.push(std::array::from_fn(|k| w[per_phase - SCALARS + k]));
        }
        Ok(Weights { tables, scalars })
    }

    /// The value of a position for the side to move (`own`), in discs times [`SCALE`].
    #[inline]
    pub fn evaluate(&self, own: u64, opp: u64, own_moves: u32, opp_moves: u32) -> i32 {
        let l = layout();
        let empties = (!(own | opp)).count_ones();
        let ph = phase(empties);
        let tables = &self.tables[ph];
        let s = &self.scalars[ph];
        let boards = transforms(own, opp);
        let mut sum = s[0] as i32
            + s[1 + (own_moves as usize).min(MAX_MOBILITY)] as i32
            + s[2 + MAX_MOBILITY + (opp_moves as usize).min(MAX_MOBILITY)] as i32;
        if empties % 2 == 1 {
            sum += s[SCALARS - 1] as i32;
        }
        for (p, places) in l.places.iter().enumerate() {
            let table = &tables[p];
            for &g in places {
                let (o, q) = boards[g];
                sum += table[index(p, o, q) as usize] as i32;
            }
        }
        sum
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u32, BadWeights> {
    let mut v = 0u32;
    for shift in (0..35).step_by(7) {
        let b = *bytes
            .get(*at)
            .ok_or_else(|| BadWeights("truncated".into()))?;
        *at += 1;
        v |= ((b & 0x7f) as u32) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(BadWeights("overlong number".into()))
}

/// The pattern names and their places, for reports.
pub fn describe() -> Vec<(&'static str, usize, usize)> {
    let l = layout();
    PATTERNS
        .iter()
        .enumerate()
        .map(|(p, pat)| (pat.name, l.places[p].len(), l.distinct[p]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index of a place read square by square, as the definition says.
    fn slow_index(p: usize, g: usize, own: u64, opp: u64) -> usize {
        PATTERNS[p]
            .squares
            .iter()
            .enumerate()
            .map(|(j, &(x, y))| {
                let (x, y) = SYMMETRIES[g](x, y);
                let bit = 1u64 << (y * 8 + x);
                let d = if own & bit != 0 {
                    1
                } else if opp & bit != 0 {
                    2
                } else {
                    0
                };
                d * 3usize.pow(j as u32)
            })
            .sum()
    }

    fn random_board(seed: &mut u64) -> (u64, u64) {
        let mut next = || {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *seed
        };
        let occupied = next() | next();
        let own = next() & occupied;
        (own, occupied & !own)
    }

    #[test]
    fn forty_six_places() {
        let l = layout();
        let places: usize = l.places.iter().map(Vec::len).sum();
        assert_eq!(places, PLACES);
        let counts: Vec<usize> = l.places.iter().map(Vec::len).collect();
        assert_eq!(counts, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
    }

    #[test]
    fn fast_indices_read_the_squares_they_claim() {
        let mut seed = 5;
        for _ in 0..200 {
            let (own, opp) = random_board(&mut seed);
            let boards = transforms(own, opp);
            for p in 0..PATTERNS.len() {
                for (g, &(o, q)) in boards.iter().enumerate() {
                    assert_eq!(
                        index(p, o, q) as usize,
                        slow_index(p, g, own, opp),
                        "{p} {g}"
                    );
                }
            }
        }
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        let mut seed = 11;
        let w: Vec<Vec<f32>> = (0..PHASES)
            .map(|ph| {
                (0..feature_count())
                    .map(|i| ((i * 7919 + ph * 31) % 201) as f32 / 50.0 - 2.0)
                    .collect()
            })
            .collect();
        let weights = Weights::from_features(&w);
        for _ in 0..50 {
            let (own, opp) = random_board(&mut seed);
            let v = weights.evaluate(own, opp, 3, 5);
            for (o, q) in transforms(own, opp) {
                assert_eq!(weights.evaluate(o, q, 3, 5), v);
            }
        }
    }

    #[test]
    fn the_shipped_weights_read() {
        assert!(Weights::read(SHIPPED).is_ok());
    }

    #[test]
    fn weights_survive_the_file() {
        let w: Vec<Vec<f32>> = (0..PHASES)
            .map(|ph| {
                (0..feature_count())
                    .map(|i| {
                        if i % 5 == ph % 5 {
                            (i % 17) as f32 - 8.0
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        let a = Weights::from_features(&w);
        let b = Weights::read(&a.to_bytes()).unwrap();
        assert_eq!(a.tables, b.tables);
        assert_eq!(a.scalars, b.scalars);
        assert!(Weights::read(b"nonsense").is_err());
        let bytes = a.to_bytes();
        assert!(Weights::read(&bytes[..bytes.len() - 1]).is_err());
    }
}
