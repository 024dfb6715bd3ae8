//! Eyes: which empty points a random playout may play, and which are eye shapes or true
//! eyes of a colour.

use crate::color::Color;
use crate::go::board::{Board, Ko};
use crate::go::point::Point;

impl Board {
    /// Classifies the empty point `p` for a random playout in one pass over its neighbours:
    /// `None` when `c` may not play there or it is one of `c`'s own true eyes (filling those
    /// is never a sensible random move), otherwise whether the play captures.
    ///
    /// A false eye stays a candidate: connecting through it is often the only way to save a
    /// chain in atari, and a search that never sees that move believes the chain is dead.
    #[inline]
    pub fn playout_candidate(&self, c: Color, p: Point) -> Option<bool> {
        if self.ko
            == Some(Ko {
                point: p,
                banned: c,
            })
        {
            return None;
        }
        let mut own_only = true;
        let mut lives = false;
        let mut captures = false;
        for &q in self.geo.neighbours(p) {
            match self.cells[q.index()] {
                None => {
                    own_only = false;
                    lives = true;
                }
                Some(x) => {
                    let libs = self.chains[self.head[q.index()] as usize].libs;
                    if x == c {
                        lives |= libs > 1;
                    } else {
                        own_only = false;
                        captures |= libs == 1;
                    }
                }
            }
        }
        if !(lives || captures) || (own_only && self.is_true_eye(c, p)) {
            None
        } else {
            Some(captures)
        }
    }

    /// Whether the empty point `p` is surrounded only by `c`'s stones (a one-point eye
    /// shape, true or false).
    #[inline]
    pub fn is_eye_shape(&self, c: Color, p: Point) -> bool {
        self.geo
            .neighbours(p)
            .iter()
            .all(|&q| self.cells[q.index()] == Some(c))
    }

    /// Whether the empty point `p` is an eye of `c` that filling would be a mistake: all
    /// neighbours are `c`, and the opponent holds at most one diagonal (none at the edge).
    pub fn is_true_eye(&self, c: Color, p: Point) -> bool {
        if !self.is_eye_shape(c, p) {
            return false;
        }
        let opponent = Some(c.other());
        let bad = self
            .geo
            .diagonals(p)
            .iter()
            .filter(|&&q| self.cells[q.index()] == opponent)
            .count();
        let limit = if self.geo.is_edge(p) { 0 } else { 1 };
        bad <= limit
    }
}
