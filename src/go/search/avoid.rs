//! Moves an analysis keeps out of the tree: KataGo's `avoid` and `allow` (its
//! `avoidMoveUntilByLoc`). A colour's move is avoided at a node `depth` plies below the root
//! while `depth` is below the move's "until" ply, so `avoid b D4 1` keeps Black's D4 out of
//! the root only and `avoid w D4 4` keeps White's D4 out of the first four plies.
//!
//! Only the tree is restricted: a playout below it plays whatever its policy picks, as
//! KataGo's avoidance is of the search's own choices. A node keeps its pass child when
//! every move would be avoided, so that the search always has a way down.

use crate::color::Color;
use crate::go::point::Move;

/// For each colour, the ply from which each move may be searched again (0: never
/// avoided), a point's index then pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AvoidMoves {
    until: [Vec<u32>; 2],
}

fn side(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl AvoidMoves {
    /// Nothing avoided.
    pub fn none() -> AvoidMoves {
        AvoidMoves::default()
    }

    /// Whether nothing is avoided.
    pub fn is_empty(&self) -> bool {
        self.until.iter().all(|u| u.iter().all(|&d| d == 0))
    }

    fn index(m: Move, points: usize) -> usize {
        match m {
            Move::Play(p) => p.index(),
            Move::Pass => points,
        }
    }

    fn table(&mut self, c: Color, points: usize) -> &mut Vec<u32> {
        let table = &mut self.until[side(c)];
        table.resize(points + 1, 0);
        table
    }

    /// `avoid c moves until`: `c`'s `moves` on a board of `points` points are avoided above
    /// ply `until`.
    pub fn avoid(&mut self, c: Color, moves: &[Move], until: u32, points: usize) {
        let table = self.table(c, points);
        for &m in moves {
            table[AvoidMoves::index(m, points)] = until;
        }
    }

    /// `allow c moves until`: every move of `c` but `moves` is avoided above ply `until`.
    pub fn allow_only(&mut self, c: Color, moves: &[Move], until: u32, points: usize) {
        let table = self.table(c, points);
        table.fill(until);
        for &m in moves {
            table[AvoidMoves::index(m, points)] = 0;
        }
    }

    /// Whether `c`'s move `m` is kept out of a node `depth` plies below the root.
    #[inline]
    pub fn avoids(&self, c: Color, m: Move, depth: usize) -> bool {
        let table = &self.until[side(c)];
        let points = table.len().saturating_sub(1);
        table
            .get(AvoidMoves::index(m, points))
            .is_some_and(|&until| depth < until as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::point::Point;

    #[test]
    fn a_move_is_avoided_above_its_ply_for_its_colour_only() {
        let d4 = Move::Play(Point::from_index(3));
        let e5 = Move::Play(Point::from_index(4));
        let mut a = AvoidMoves::none();
        assert!(a.is_empty());
        a.avoid(Color::Black, &[d4, Move::Pass], 2, 9);
        assert!(!a.is_empty());
        assert!(a.avoids(Color::Black, d4, 0) && a.avoids(Color::Black, d4, 1));
        assert!(
            !a.avoids(Color::Black, d4, 2),
            "from its ply on, searched again"
        );
        assert!(a.avoids(Color::Black, Move::Pass, 1));
        assert!(!a.avoids(Color::Black, e5, 0));
        assert!(
            !a.avoids(Color::White, d4, 0),
            "the other colour's moves are free"
        );
    }

    #[test]
    fn allow_avoids_every_other_move() {
        let d4 = Move::Play(Point::from_index(3));
        let e5 = Move::Play(Point::from_index(4));
        let mut a = AvoidMoves::none();
        a.allow_only(Color::White, &[d4], 1, 9);
        assert!(!a.avoids(Color::White, d4, 0));
        assert!(a.avoids(Color::White, e5, 0) && a.avoids(Color::White, Move::Pass, 0));
        assert!(!a.avoids(Color::White, e5, 1));
        assert!(!a.avoids(Color::Black, e5, 0));
    }
}
