//! Large shapes ("spatial patterns", after Stern, Herbrich and Graepel 2006 and Coulom 2007):
//! the stones around a move out to a growing distance, as one hash per size. A 3x3 shape
//! (in `features`) says whether a move is a hane or a cut; the larger shapes say which
//! opening point, extension or endgame move it is, which the 3x3 cannot tell apart.
//!
//! Distances are Coulom's `dx + dy + max(dx, dy)`: size 4 adds the four points two lines
//! away to the 3x3, size 5 the eight knight's moves, and so on to `MAX_SIZE`. Each hash is
//! seen from the mover (own and opponent stones, not black and white) and is the smallest
//! over the eight symmetries of the square, so one weight serves every orientation.

use std::sync::OnceLock;

use crate::color::Color;
use crate::go::board::Board;
use crate::go::geometry::Topology;
use crate::go::point::Point;
use crate::rng::Rng;

/// The smallest and largest pattern sizes (distances) hashed.
pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 8;
/// Number of sizes, `MIN_SIZE..=MAX_SIZE`.
pub const SIZES: usize = MAX_SIZE - MIN_SIZE + 1;

/// The offsets around the centre sorted by distance, how many lie within each distance,
/// and the keys: for each offset, the key each of the eight symmetries gives a stone of
/// the mover, of the opponent, or the board's edge there (the key of the canonical offset
/// it maps to). An empty point has no key, so it costs nothing: around most candidates
/// most points are empty.
struct Layout {
    offsets: Vec<(i64, i64)>,
    within: [usize; MAX_SIZE + 1],
    keys: Vec<[[u64; 8]; 3]>,
    /// Mixed into each size's hash at the end, so that shapes of different sizes (all
    /// empty ones, above all) do not share a hash.
    size_salts: [u64; SIZES],
}

/// Coulom's distance of an offset, `dx + dy + max(dx, dy)` in absolute values.
pub(crate) fn coulom_distance(dx: usize, dy: usize) -> usize {
    dx + dy + dx.max(dy)
}

fn gridcular(dx: i64, dy: i64) -> usize {
    coulom_distance(dx.unsigned_abs() as usize, dy.unsigned_abs() as usize)
}

/// Where each of `offsets` goes under symmetry `s` of the square (0..4 the rotations, 4..8
/// the same mirrored), as indices into `offsets`, which every symmetry must map onto itself.
pub(crate) fn symmetry_permutation(offsets: &[(i64, i64)], s: usize) -> Vec<usize> {
    offsets
        .iter()
        .map(|&(dx, dy)| {
            let (mut x, mut y) = (dx, dy);
            for _ in 0..(s % 4) {
                (x, y) = (-y, x);
            }
            if s >= 4 {
                x = -x;
            }
            offsets
                .iter()
                .position(|&o| o == (x, y))
                .expect("a symmetry maps the offsets onto themselves")
        })
        .collect()
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let reach = MAX_SIZE as i64;
        let mut offsets: Vec<(i64, i64)> = (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| (1..=MAX_SIZE).contains(&gridcular(dx, dy)))
            .collect();
        offsets.sort_by_key(|&(dx, dy)| (gridcular(dx, dy), dy, dx));
        let mut within = [0; MAX_SIZE + 1];
        for (d, slot) in within.iter_mut().enumerate() {
            *slot = offsets
                .iter()
                .filter(|&&(dx, dy)| gridcular(dx, dy) <= d)
                .count();
        }
        // Keys from a fixed seed: the hashes are stored in the gammas file.
        let mut rng = Rng::new(0x5348_4943_484f);
        let canonical_keys: Vec<[u64; 3]> = offsets
            .iter()
            .map(|_| std::array::from_fn(|_| rng.next_u64()))
            .collect();
        let size_salts = std::array::from_fn(|_| rng.next_u64());
        // Symmetry s brings the point at offset perm[i] to canonical offset i.
        let mut keys = vec![[[0u64; 8]; 3]; offsets.len()];
        for s in 0..8 {
            for (i, &j) in symmetry_permutation(&offsets, s).iter().enumerate() {
                for (by_symmetry, &key) in keys[j].iter_mut().zip(&canonical_keys[i]) {
                    by_symmetry[s] = key;
                }
            }
        }
        Layout {
            offsets,
            within,
            keys,
            size_salts,
        }
    })
}

/// The hashes of the shapes around `c` playing at `p`, sizes `MIN_SIZE..=MAX_SIZE`.
pub fn hashes(board: &Board, c: Color, p: Point) -> [u64; SIZES] {
    let layout = layout();
    let geo = board.geometry();
    let n = geo.size() as i64;
    let torus = geo.topology() == Topology::Torus;
    let (x, y) = geo.xy(p);
    let (x, y) = (x as i64, y as i64);
    // One hash per symmetry, built together point by point; at each size the smallest is
    // the canonical one.
    let mut h = [0u64; 8];
    let mut best = [0u64; SIZES];
    let mut i = 0;
    for (slot, size) in best.iter_mut().zip(MIN_SIZE..=MAX_SIZE) {
        while i < layout.within[size] {
            let (dx, dy) = layout.offsets[i];
            let (mut qx, mut qy) = (x + dx, y + dy);
            if torus {
                qx = qx.rem_euclid(n);
                qy = qy.rem_euclid(n);
            }
            let state = if (0..n).contains(&qx) && (0..n).contains(&qy) {
                geo.point(qx as usize, qy as usize)
                    .and_then(|q| board.get(q))
                    .map(|s| if s == c { 0 } else { 1 })
            } else {
                Some(2)
            };
            if let Some(state) = state {
                let keys = &layout.keys[i][state];
                for (hash, key) in h.iter_mut().zip(keys) {
                    *hash ^= key;
                }
            }
            i += 1;
        }
        *slot = h.iter().copied().min().unwrap_or(0) ^ layout.size_salts[size - MIN_SIZE];
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_holds_every_offset_once_and_symmetries_permute_it() {
        let l = layout();
        assert!(l.offsets.len() <= 64);
        assert_eq!(l.within[2], 4);
        assert_eq!(l.within[3], 8);
        assert_eq!(l.within[4], 12);
        assert_eq!(l.within[5], 20);
        for s in 0..8 {
            let perm = symmetry_permutation(&l.offsets, s);
            let mut seen = perm.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..l.offsets.len()).collect::<Vec<_>>());
            // Each symmetry hands out the same keys within each distance, in another order.
            for state in 0..3 {
                let keys_of = |s: usize| {
                    let mut k: Vec<u64> = (0..l.within[MAX_SIZE])
                        .map(|j| l.keys[j][state][s])
                        .collect();
                    k.sort_unstable();
                    k
                };
                assert_eq!(keys_of(s), keys_of(0));
            }
        }
    }

    #[test]
    fn sizes_of_an_empty_neighbourhood_differ() {
        let empty = Board::new(crate::go::geometry::Geometry::get(19, Topology::Plane).unwrap());
        let centre = empty.geometry().parse_point("K10").unwrap();
        let h = hashes(&empty, Color::Black, centre);
        for a in 0..SIZES {
            for b in a + 1..SIZES {
                assert_ne!(h[a], h[b]);
            }
        }
    }

    #[test]
    fn shapes_are_the_same_in_every_orientation_and_for_both_colours() {
        let a = Board::square_from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O . . . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        // The same stones mirrored left to right, colours swapped.
        let b = Board::square_from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . X . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let g = a.geometry();
        let p = |s: &str| g.parse_point(s).unwrap();
        let ha = hashes(&a, Color::Black, p("C3"));
        let hb = hashes(&b, Color::White, p("G3"));
        assert_eq!(ha, hb);
        // Another colour to move, another point or another board: other hashes.
        assert_ne!(ha, hashes(&a, Color::White, p("C3")));
        assert_ne!(ha[0], hashes(&a, Color::Black, p("D2"))[0]);
        // The edge is part of the shape: C3 and E5 see the same stones, not the same edge.
        let empty = Board::new(g);
        assert_ne!(
            hashes(&empty, Color::Black, p("C3"))[SIZES - 1],
            hashes(&empty, Color::Black, p("E5"))[SIZES - 1]
        );
        assert_eq!(
            hashes(&empty, Color::Black, p("C3")),
            hashes(&empty, Color::Black, p("G7"))
        );
    }
}
