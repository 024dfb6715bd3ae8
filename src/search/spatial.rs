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

use crate::board::Board;
use crate::color::Color;
use crate::geometry::Topology;
use crate::point::Point;
use crate::rng::Rng;

/// The smallest and largest pattern sizes (distances) hashed.
pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 8;
/// Number of sizes, `MIN_SIZE..=MAX_SIZE`.
pub const SIZES: usize = MAX_SIZE - MIN_SIZE + 1;

/// The offsets around the centre sorted by distance, how many lie within each distance,
/// the eight symmetries as permutations of the offsets, and a random key per offset and
/// point state (empty, own, opponent, off the board).
struct Layout {
    offsets: Vec<(i64, i64)>,
    within: [usize; MAX_SIZE + 1],
    symmetries: [Vec<usize>; 8],
    keys: Vec<[u64; 4]>,
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
        let symmetries = std::array::from_fn(|s| symmetry_permutation(&offsets, s));
        // Keys from a fixed seed: the hashes are stored in the gammas file.
        let mut rng = Rng::new(0x5348_4943_484f);
        let keys = offsets
            .iter()
            .map(|_| std::array::from_fn(|_| rng.next_u64()))
            .collect();
        Layout {
            offsets,
            within,
            symmetries,
            keys,
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
    let mut states = [0u8; 64];
    for (i, &(dx, dy)) in layout.offsets.iter().enumerate() {
        let (mut qx, mut qy) = (x + dx, y + dy);
        if torus {
            qx = qx.rem_euclid(n);
            qy = qy.rem_euclid(n);
        }
        states[i] = match geo.point(qx as usize, qy as usize) {
            Some(q) => match board.get(q) {
                None => 0,
                Some(s) if s == c => 1,
                Some(_) => 2,
            },
            _ => 3,
        };
    }
    let mut best = [u64::MAX; SIZES];
    for perm in &layout.symmetries {
        let mut h = 0u64;
        let mut i = 0;
        for (slot, size) in best.iter_mut().zip(MIN_SIZE..=MAX_SIZE) {
            while i < layout.within[size] {
                // The point that this symmetry brings to canonical offset `i`.
                h ^= layout.keys[i][states[perm[i]] as usize];
                i += 1;
            }
            *slot = (*slot).min(h);
        }
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
        for perm in &l.symmetries {
            let mut seen = perm.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..l.offsets.len()).collect::<Vec<_>>());
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
