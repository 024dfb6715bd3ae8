//! The exact solver's last few empties, below `HASH_EMPTIES`: no table, no sorting, no
//! keys. Squares in regions (quadrants) with an odd number of empties go first (parity: the
//! side that plays last in a region gains there), and within that the corners before the
//! rest and the squares next to an empty corner last; the very last empty square is
//! counted without making the move.

use super::bits::Bits;
use super::endgame::{INFINITY, Solver};
use super::limits::Budget;
use super::position::Pos;

impl<B: Bits> Solver<'_, B> {
    /// The final score of `pos` (`n` >= 1 empties) in the window `alpha..beta`: exact inside
    /// it, a bound outside. Counts `pos` as a node.
    pub fn shallow(
        &mut self,
        pos: &Pos<B>,
        n: u32,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        if self.tick(budget) {
            return 0;
        }
        let empty = pos.empties(self.shape);
        if n == 1 {
            // `empty` holds one square.
            return last_square(pos, empty.first().unwrap_or(0), self.shape);
        }
        let mut alpha = alpha;
        let mut odd = B::default();
        for &q in &self.masks.quadrants {
            if (empty & q).count() % 2 == 1 {
                odd |= q;
            }
        }
        let mut best = -INFINITY;
        // Only a square next to an opponent disc can flip anything.
        let candidates = empty & pos.opp.neighbours(self.shape);
        let late = self.masks.x_and_c;
        for group in [
            (candidates & odd).without(late),
            candidates & odd & late,
            candidates.without(odd).without(late),
            candidates.without(odd) & late,
        ] {
            for i in group.squares() {
                let flips = pos.flips(i, self.shape);
                if flips.is_empty() {
                    continue;
                }
                let child = pos.play_unkeyed(i, flips);
                let v = -self.shallow(&child, n - 1, -beta, -alpha, budget);
                if self.halted(budget) {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        if best > -INFINITY {
            best
        } else if pos.opponent_moves(self.shape).is_empty() {
            pos.final_score(n)
        } else {
            -self.shallow(&pos.pass(), n, -beta, -alpha, budget)
        }
    }
}

/// The final score with one empty square `i` left: whoever can play there does (the side to
/// move first); the score is counted without making the move.
#[inline]
pub(crate) fn last_square<B: Bits>(pos: &Pos<B>, i: usize, shape: &B::Shape) -> i32 {
    let diff = pos.disc_difference();
    let own_flips = pos.flips(i, shape).count() as i32;
    if own_flips > 0 {
        return diff + 2 * own_flips + 1;
    }
    let opp_flips = B::flips(pos.opp, pos.own, i, shape).count() as i32;
    if opp_flips > 0 {
        return diff - 2 * opp_flips - 1;
    }
    pos.final_score(1)
}
