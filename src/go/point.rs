//! Points of a board and moves.

/// A dense index of an on-board point, meaningful only with the [`Geometry`](crate::Geometry)
/// it came from: `index = row * size + column`, row 0 at the bottom (GTP's row 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// Wraps a raw index. The caller vouches that it is below its geometry's point count.
    #[inline]
    pub const fn from_index(i: usize) -> Point {
        Point(i as u16)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move without its colour: a stone play or a pass. Resigning is a decision, not a move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    Play(Point),
    Pass,
}

impl Move {
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }

    pub fn is_pass(self) -> bool {
        self == Move::Pass
    }
}

impl From<Point> for Move {
    fn from(p: Point) -> Move {
        Move::Play(p)
    }
}
