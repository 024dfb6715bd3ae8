//! The exact solver's last few empties, below `HASH_EMPTIES`: no table, no sorting, no
//! keys. Squares in regions (quadrants) with an odd number of empties go first (parity: the
//! side that plays last in a region gains there), and within that the corners before the
//! rest and the squares next to an empty corner last; the very last empty square is
//! counted without making the move.
//! The parity is counted once, where this search starts, and carried down from there.

use super::bits::Bits;
use super::endgame::{INFINITY, Solver};
use super::eval::quadrant_index;
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
        let empty = pos.empties(self.shape);
        let mut odd = B::default();
        for &q in &self.masks.quadrants {
            if (empty & q).count() % 2 == 1 {
                odd |= q;
            }
        }
        self.last(pos, odd, n, alpha, beta, budget)
    }

    /// `shallow`, with `odd` the quadrants holding an odd number of empties (carried down the
    /// search: a move flips its quadrant's parity, a pass none).
    fn last(
        &mut self,
        pos: &Pos<B>,
        odd: B,
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
                let odd = odd ^ self.quadrant_of(i);
                let v = -self.last(&child, odd, n - 1, -beta, -alpha, budget);
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
            -self.last(&pos.pass(), odd, n, -beta, -alpha, budget)
        }
    }

    /// The quadrant of square `i` (on 8x8 the size is a constant, so this is shifts).
    #[inline]
    fn quadrant_of(&self, i: usize) -> B {
        self.masks.quadrants[quadrant_index(B::size(self.shape), i)]
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

#[cfg(test)]
mod tests {
    use crate::othello::bits::Bits;
    use crate::othello::endgame::Solver;
    use crate::othello::eval::Evaluation;
    use crate::othello::tt::EndTable;
    use crate::othello::wide::{Narrow, Wide};

    fn each_square_is_in_its_quadrant<B: Bits>(size: usize) {
        let table = EndTable::new(4);
        let solver = Solver::<B>::new(B::shape(size), &table, Evaluation::Hand);
        for i in 0..size * size {
            assert!(
                solver.quadrant_of(i).contains(i),
                "{size}x{size} square {i}"
            );
        }
    }

    #[test]
    fn every_square_is_in_its_quadrant() {
        each_square_is_in_its_quadrant::<u64>(8);
        each_square_is_in_its_quadrant::<Narrow>(6);
        each_square_is_in_its_quadrant::<Wide>(10);
        each_square_is_in_its_quadrant::<Wide>(26);
    }
}
