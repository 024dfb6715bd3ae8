//! Zobrist keys from a fixed seed, so that hashes are stable across runs and tests can pin them.

use crate::color::Color;
use crate::go::geometry::MAX_SIZE;
use crate::go::point::Point;
use crate::rng::splitmix64;

const SEED: u64 = 0x5348_4943_484f_2d31; // "SHICHO-1"
const POINTS: usize = MAX_SIZE * MAX_SIZE;

const fn build_keys() -> [[u64; 2]; POINTS] {
    let mut keys = [[0u64; 2]; POINTS];
    let mut state = SEED;
    let mut i = 0;
    while i < POINTS {
        let (s, a) = splitmix64(state);
        let (s, b) = splitmix64(s);
        keys[i] = [a, b];
        state = s;
        i += 1;
    }
    keys
}

static STONE_KEYS: [[u64; 2]; POINTS] = build_keys();

/// Key xored in for "White to move next" in situational superko states.
pub const WHITE_TO_MOVE: u64 = splitmix64(SEED ^ 0xdead_beef_cafe_f00d).1;

/// The key of a stone of colour `c` on point `p`.
#[inline]
pub fn stone_key(p: Point, c: Color) -> u64 {
    STONE_KEYS[p.index()][c.index()]
}

/// The key for "`c` moves next", combined with a position hash to make a situational hash.
#[inline]
pub fn to_move_key(c: Color) -> u64 {
    match c {
        Color::Black => 0,
        Color::White => WHITE_TO_MOVE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_pinned() {
        let all: HashSet<u64> = STONE_KEYS.iter().flatten().copied().collect();
        assert_eq!(all.len(), 2 * POINTS);
        assert!(!all.contains(&WHITE_TO_MOVE));
        // Pinned so that a change of seed or mixer, which would invalidate stored hashes, shows.
        assert_eq!(
            stone_key(Point::from_index(0), Color::Black),
            splitmix64(SEED).1
        );
    }
}
