//! The eight symmetries of a square board, numbered as KataGo numbers them
//! (`SymmetryHelpers::getSymLoc`): bit 1 mirrors the columns, bit 0 the rows, bit 2 then
//! transposes, rows counted from the top as KataGo counts them. The net is not trained to
//! be symmetric, so the same position seen through another symmetry gives slightly other
//! outputs: `kata-raw-nn` shows any of them, read back on the board as it stands.

use crate::go::geometry::Geometry;
use crate::go::network::inputs::{BINARY_PLANES, Inputs};
use crate::go::network::model::Evaluation;
use crate::go::point::Point;

/// How many symmetries there are: `0..SYMMETRIES` are valid.
pub const SYMMETRIES: usize = 8;

/// Where symmetry `sym` takes `p`.
pub fn map_point(geo: &Geometry, sym: usize, p: Point) -> Point {
    let n = geo.size();
    let (x, y) = geo.xy(p);
    // KataGo's rows run from the top.
    let (mut x, mut row) = (x, n - 1 - y);
    if sym & 2 != 0 {
        x = n - 1 - x;
    }
    if sym & 1 != 0 {
        row = n - 1 - row;
    }
    if sym & 4 != 0 {
        std::mem::swap(&mut x, &mut row);
    }
    Point::from_index((n - 1 - row) * n + x)
}

/// The inputs of the position seen through `sym`: each point's planes moved to its image.
pub fn transform_inputs(inputs: &Inputs, geo: &Geometry, sym: usize) -> Inputs {
    let mut out = inputs.clone();
    for p in geo.points() {
        let to = map_point(geo, sym, p).index() * BINARY_PLANES;
        let from = p.index() * BINARY_PLANES;
        out.planes[to..to + BINARY_PLANES]
            .copy_from_slice(&inputs.planes[from..from + BINARY_PLANES]);
    }
    out
}

/// An evaluation of inputs transformed by `sym`, read back on the board as it stands.
pub fn restore(e: Evaluation, geo: &Geometry, sym: usize) -> Evaluation {
    let points = geo.num_points();
    let at = |p: Point| map_point(geo, sym, p).index();
    let mut policy: Vec<f32> = geo.points().map(|p| e.policy[at(p)]).collect();
    policy.extend_from_slice(&e.policy[points..]);
    let ownership = geo.points().map(|p| e.ownership[at(p)]).collect();
    Evaluation {
        policy,
        ownership,
        ..e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::Topology;

    #[test]
    fn the_symmetries_are_katagos_and_distinct() {
        let geo = Geometry::get(5, Topology::Plane).unwrap();
        let at = |v: &str| geo.parse_point(v).unwrap();
        let name = |p: Point| geo.format_point(p);
        // B5: column 1, KataGo's row 0 (the top).
        let images: Vec<String> = (0..SYMMETRIES)
            .map(|s| name(map_point(geo, s, at("B5"))))
            .collect();
        assert_eq!(
            images,
            ["B5", "B1", "D5", "D1", "A4", "E4", "A2", "E2"],
            "identity, flips, then the transposed ones"
        );
        for s in 0..SYMMETRIES {
            let mut seen: Vec<usize> = geo.points().map(|p| map_point(geo, s, p).index()).collect();
            seen.sort();
            assert_eq!(
                seen,
                (0..25).collect::<Vec<_>>(),
                "symmetry {s} is a permutation"
            );
        }
    }

    #[test]
    fn restoring_undoes_the_transform() {
        let geo = Geometry::get(3, Topology::Plane).unwrap();
        let e = Evaluation {
            policy: (0..10).map(|i| i as f32).collect(),
            win: 0.25,
            lead: 1.5,
            ownership: (0..9).map(|i| i as f32 / 10.0).collect(),
        };
        for s in 0..SYMMETRIES {
            // The net's outputs for the transformed position, as an equivariant net gives
            // them: each point's value at its image.
            let mut seen = e.clone();
            for p in geo.points() {
                seen.policy[map_point(geo, s, p).index()] = e.policy[p.index()];
                seen.ownership[map_point(geo, s, p).index()] = e.ownership[p.index()];
            }
            assert_eq!(restore(seen, geo, s), e, "symmetry {s}");
        }
    }
}
