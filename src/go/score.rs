//! Area and territory scoring, on a plane or a torus.

use std::fmt;

use crate::color::{ByColor, Color};
use crate::go::board::Board;
use crate::go::geometry::Geometry;
use crate::go::point::Point;
use crate::go::rules::Scoring;

/// A counted position: the parts of each side's total and the result.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Score {
    pub scoring: Scoring,
    /// Stones left on the board after removing the dead ones.
    pub stones: ByColor<u32>,
    /// Empty points (dead stones' points included) in regions reaching only that colour.
    pub territory: ByColor<u32>,
    /// Stones each side captured, dead stones included (counted only under territory scoring).
    pub prisoners: ByColor<u32>,
    pub komi: f64,
}

impl Score {
    /// Black's total minus White's total minus komi: positive when Black wins.
    pub fn margin(&self) -> f64 {
        let total = |c: Color| match self.scoring {
            Scoring::Area => self.stones[c] + self.territory[c],
            Scoring::Territory => self.territory[c] + self.prisoners[c],
        };
        total(Color::Black) as f64 - total(Color::White) as f64 - self.komi
    }

    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        let m = self.margin();
        if m > 0.0 {
            Some(Color::Black)
        } else if m < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    /// GTP's and SGF's form: `B+3.5`, `W+0.5`, `0` for a draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.margin();
        match self.winner() {
            None => f.write_str("0"),
            Some(c) => write!(f, "{}+{}", c.letter(), format_points(m.abs())),
        }
    }
}

/// A point count as GTP writes it: no trailing `.0`, otherwise as short as exact.
pub fn format_points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Counts `board` with the `dead` stones removed, by area or territory, minus `komi`.
/// Dead stones count as prisoners of their opponent; their points join the regions around.
pub fn score(board: &Board, scoring: Scoring, komi: f64, dead: &[Point]) -> Score {
    let geo = board.geometry();
    let mut cells = board.cells().to_vec();
    let mut prisoners = ByColor::new(board.captures(Color::Black), board.captures(Color::White));
    for &p in dead {
        if let Some(c) = cells[p.index()].take() {
            prisoners[c.other()] += 1;
        }
    }
    let mut stones = ByColor::default();
    for c in cells.iter().flatten() {
        stones[*c] += 1;
    }
    let mut territory = ByColor::default();
    for region in empty_regions_of(geo, &cells) {
        match (region.reaches.black, region.reaches.white) {
            (true, false) => territory.black += region.points.len() as u32,
            (false, true) => territory.white += region.points.len() as u32,
            _ => {}
        }
    }
    Score {
        scoring,
        stones,
        territory,
        prisoners,
        komi,
    }
}

/// Black's area minus White's minus komi with every stone alive: `score(..).margin()` under
/// area scoring without dead stones, made fast for the end of playouts, where nearly every
/// empty point is a one-point eye (regions of several points fall back to the flood fill).
pub fn area_margin(board: &Board, komi: f64) -> f64 {
    let geo = board.geometry();
    let mut margin = 0i32;
    for p in geo.points() {
        match board.get(p) {
            Some(Color::Black) => margin += 1,
            Some(Color::White) => margin -= 1,
            None => {
                let mut reaches = ByColor::new(false, false);
                for &q in geo.neighbours(p) {
                    match board.get(q) {
                        Some(c) => reaches[c] = true,
                        None => return score(board, Scoring::Area, komi, &[]).margin(),
                    }
                }
                margin += reaches.black as i32 - reaches.white as i32;
            }
        }
    }
    margin as f64 - komi
}

/// A maximal connected set of empty points and the colours of the stones it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyRegion {
    pub points: Vec<Point>,
    pub reaches: ByColor<bool>,
}

/// The empty regions of `board`.
pub fn empty_regions(board: &Board) -> Vec<EmptyRegion> {
    empty_regions_of(board.geometry(), board.cells())
}

/// The empty regions of a position given as cells (indexed by point) on `geo`.
pub fn empty_regions_of(geo: &Geometry, cells: &[Option<Color>]) -> Vec<EmptyRegion> {
    let mut regions = Vec::new();
    let mut seen = vec![false; cells.len()];
    for start in geo.points() {
        if cells[start.index()].is_some() || seen[start.index()] {
            continue;
        }
        let mut points = vec![start];
        let mut reaches = ByColor::new(false, false);
        seen[start.index()] = true;
        let mut i = 0;
        while i < points.len() {
            for &q in geo.neighbours(points[i]) {
                match cells[q.index()] {
                    Some(c) => reaches[c] = true,
                    None if !seen[q.index()] => {
                        seen[q.index()] = true;
                        points.push(q);
                    }
                    None => {}
                }
            }
            i += 1;
        }
        regions.push(EmptyRegion { points, reaches });
    }
    regions
}

/// Points of empty regions of at most `max_points` points that only one colour reaches:
/// someone's territory already, where neither side need play.
pub fn settled_points(board: &Board, max_points: usize) -> Vec<bool> {
    let mut settled = vec![false; board.geometry().num_points()];
    for region in empty_regions(board) {
        if region.reaches.black != region.reaches.white && region.points.len() <= max_points {
            for p in region.points {
                settled[p.index()] = true;
            }
        }
    }
    settled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};

    fn board(topology: Topology, text: &str) -> Board {
        let n = text.lines().filter(|l| !l.trim().is_empty()).count();
        Board::from_diagram(Geometry::get(n, topology).unwrap(), text).unwrap()
    }

    const SPLIT: &str = "
        . X O . .
        . X O . .
        X X O . .
        . . X O .
        . . X O .";

    #[test]
    fn area_counts_stones_and_one_colour_regions() {
        let b = board(Topology::Plane, SPLIT);
        let s = score(&b, Scoring::Area, 0.5, &[]);
        // Black: 6 stones + A5 A4 + A2 B2 A1 B1; White: 5 stones + the 8 points on the right.
        assert_eq!(s.stones, ByColor::new(6, 5));
        assert_eq!(s.territory, ByColor::new(6, 8));
        assert_eq!(s.margin(), 12.0 - 13.0 - 0.5);
        assert_eq!(s.to_string(), "W+1.5");
    }

    #[test]
    fn territory_counts_territory_and_prisoners() {
        let b = board(Topology::Plane, SPLIT);
        let s = score(&b, Scoring::Territory, 6.5, &[]);
        assert_eq!(s.margin(), 6.0 - 8.0 - 6.5);
        assert_eq!(s.to_string(), "W+8.5");
    }

    #[test]
    fn dead_stones_become_prisoners_and_territory() {
        let b = board(
            Topology::Plane,
            "
            . . . . .
            . . . . .
            . . O . .
            X X X X X
            . . . . .",
        );
        let dead = [b.geometry().parse_point("C3").unwrap()];
        let area = score(&b, Scoring::Area, 0.0, &dead);
        assert_eq!(area.stones.white, 0);
        assert_eq!(area.margin(), 25.0);
        let territory = score(&b, Scoring::Territory, 0.0, &dead);
        assert_eq!(territory.prisoners.black, 1);
        assert_eq!(territory.margin(), 20.0 + 1.0);
    }

    #[test]
    fn the_fast_area_count_equals_the_flood_fill() {
        use crate::go::search::playout::{Recent, random_playout};
        use crate::rng::Rng;
        for topology in [Topology::Plane, Topology::Torus] {
            for size in [2, 3, 5, 9] {
                let geo = Geometry::get(size, topology).unwrap();
                let mut rng = Rng::new(size as u64);
                let mut recent = Recent::new(&Board::new(geo));
                for i in 0..30 {
                    let mut b = Board::new(geo);
                    random_playout(&mut b, Color::Black, &mut rng, &mut recent);
                    let komi = i as f64 * 0.5;
                    assert_eq!(
                        area_margin(&b, komi),
                        score(&b, Scoring::Area, komi, &[]).margin()
                    );
                    // Mid-game positions have large regions: the fall-back path.
                    let empty = Board::new(geo);
                    assert_eq!(area_margin(&empty, komi), -komi);
                }
            }
        }
    }

    #[test]
    fn a_torus_wall_reaches_around() {
        // A black line across the torus and a white one: every empty region touches both.
        let b = board(
            Topology::Torus,
            "
            . . . .
            X X X X
            . . . .
            O O O O",
        );
        let s = score(&b, Scoring::Area, 0.0, &[]);
        assert_eq!(s.territory, ByColor::new(0, 0));
        assert_eq!(s.to_string(), "0");
    }
}
