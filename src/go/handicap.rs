//! Handicap stone placement: GTP's fixed placement and the engine's free placement.

use crate::go::geometry::Geometry;
use crate::go::point::Point;

/// Most fixed handicap stones on a board of `size`: 9 on odd boards from 9x9, 4 on 7x7 and
/// even boards from 8x8, none below 7x7 (GTP spec 4.1.1, as GNU Go implements it).
pub fn max_fixed(size: usize) -> usize {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// The standard placement of `stones` handicap stones, or `None` when `stones` is outside
/// `2..=max_fixed(size)`. Star points on the 3rd line up to 11x11, the 4th line above; the
/// order is the spec's (named here for 19x19): Q16 D4, then D16, Q4, and from five stones on
/// tengen for odd counts, D10 Q10 for six or more, K16 K4 for eight or more.
pub fn fixed(geo: &Geometry, stones: usize) -> Option<Vec<Point>> {
    let n = geo.size();
    if stones < 2 || stones > max_fixed(n) {
        return None;
    }
    let lo = if n <= 11 { 2 } else { 3 };
    let hi = n - 1 - lo;
    let mid = n / 2;
    let mut xy = vec![(hi, hi), (lo, lo)];
    if stones >= 3 {
        xy.push((lo, hi));
    }
    if stones >= 4 {
        xy.push((hi, lo));
    }
    if stones >= 6 {
        xy.push((lo, mid));
        xy.push((hi, mid));
    }
    if stones >= 8 {
        xy.push((mid, hi));
        xy.push((mid, lo));
    }
    if stones % 2 == 1 && stones >= 5 {
        xy.push((mid, mid));
    }
    xy.into_iter().map(|(x, y)| geo.point(x, y)).collect()
}

/// The engine's choice of `stones` free handicap stones: the fixed placement as far as it
/// goes, then, one at a time, the point farthest (by distance to the nearest stone, the
/// torus wrapping where it applies) from those already placed, preferring points off the
/// first two lines, so the stones spread evenly. `None` when `stones` is outside
/// `2..num_points - 1` (a full board would leave the stones without liberties).
pub fn free(geo: &Geometry, stones: usize) -> Option<Vec<Point>> {
    let points = geo.num_points();
    if stones < 2 || stones >= points {
        return None;
    }
    let fixed_count = stones.min(max_fixed(geo.size()));
    let mut placed = if fixed_count >= 2 {
        fixed(geo, fixed_count)?
    } else {
        Vec::new()
    };
    let n = geo.size() as i64;
    let torus = geo.topology() == crate::go::geometry::Topology::Torus;
    let axis = |a: usize, b: usize| {
        let d = (a as i64 - b as i64).abs();
        if torus { d.min(n - d) } else { d }
    };
    let line = |p: Point| {
        let (x, y) = geo.xy(p);
        if torus {
            n
        } else {
            [x as i64, y as i64, n - 1 - x as i64, n - 1 - y as i64]
                .into_iter()
                .min()
                .unwrap_or(0)
        }
    };
    while placed.len() < stones {
        let best = geo
            .points()
            .filter(|p| !placed.contains(p))
            .max_by_key(|&p| {
                let (x, y) = geo.xy(p);
                let nearest = placed
                    .iter()
                    .map(|&q| {
                        let (qx, qy) = geo.xy(q);
                        axis(x, qx).pow(2) + axis(y, qy).pow(2)
                    })
                    .min()
                    .unwrap_or(i64::MAX);
                // Off the first two lines first, then spread; ties go to the lower index.
                (line(p) >= 2, nearest, std::cmp::Reverse(p.index()))
            })?;
        placed.push(best);
    }
    Some(placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::Topology;

    fn names(geo: &Geometry, pts: &[Point]) -> Vec<String> {
        pts.iter().map(|&p| geo.format_point(p)).collect()
    }

    #[test]
    fn fixed_placements_follow_the_spec() {
        let g19 = Geometry::get(19, Topology::Plane).unwrap();
        assert_eq!(names(g19, &fixed(g19, 2).unwrap()), ["Q16", "D4"]);
        assert_eq!(
            names(g19, &fixed(g19, 5).unwrap()),
            ["Q16", "D4", "D16", "Q4", "K10"]
        );
        assert_eq!(
            names(g19, &fixed(g19, 9).unwrap()),
            ["Q16", "D4", "D16", "Q4", "D10", "Q10", "K16", "K4", "K10"]
        );
        let g9 = Geometry::get(9, Topology::Plane).unwrap();
        assert_eq!(names(g9, &fixed(g9, 3).unwrap()), ["G7", "C3", "C7"]);
        let g13 = Geometry::get(13, Topology::Plane).unwrap();
        assert_eq!(names(g13, &fixed(g13, 2).unwrap()), ["K10", "D4"]);
    }

    #[test]
    fn fixed_limits() {
        for (size, max) in [(6, 0), (7, 4), (8, 4), (9, 9), (10, 4), (19, 9), (25, 9)] {
            let g = Geometry::get(size, Topology::Plane).unwrap();
            assert_eq!(max_fixed(size), max);
            assert!(fixed(g, 1).is_none());
            assert!(fixed(g, max + 1).is_none());
            if max >= 2 {
                assert_eq!(fixed(g, max).unwrap().len(), max);
            }
        }
    }

    #[test]
    fn free_placement_spreads_distinct_stones() {
        for (size, topology) in [
            (19, Topology::Plane),
            (9, Topology::Plane),
            (5, Topology::Plane),
            (16, Topology::Torus),
        ] {
            let g = Geometry::get(size, topology).unwrap();
            for stones in [2, 5, 12, 20] {
                if stones >= g.num_points() {
                    continue;
                }
                let mut pts = free(g, stones).unwrap();
                assert_eq!(pts.len(), stones);
                pts.sort();
                pts.dedup();
                assert_eq!(pts.len(), stones);
            }
            assert!(free(g, 1).is_none());
            assert!(free(g, g.num_points()).is_none());
        }
    }
}
