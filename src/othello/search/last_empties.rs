//! The exact solver's last few empties, below `HASH_EMPTIES`: no table, no keys. With six
//! empties the moves are sorted fastest first; below, squares in regions (quadrants) with an
//! odd number of empties go first (parity: the side that plays last in a region gains
//! there), and within that the X- and C-squares last. From four empties a high alpha tries
//! the stability cutoff. The very last empty square is counted without making the move,
//! from the lines through it.
//! The parity is counted once, where this search starts, and carried down from there.
//! Three and two empties, most of the nodes, have loops of their own that visit the same
//! nodes in the same order without the general loop's bookkeeping.

use crate::othello::bits::Bits;
use crate::othello::position::Pos;
use crate::othello::search::endgame::{HASH_EMPTIES, INFINITY, Solver};
use crate::othello::search::eval::quadrant_index;
use crate::othello::search::limits::Budget;

/// From this many empties the opponent's stable discs may cap the score (below it they
/// seldom decide, and cost more than the node).
const STABILITY_EMPTIES: u32 = 4;
/// From this many empties the moves are sorted fastest first (with the table's ordering
/// terms), the odd quadrants' squares ahead by `PARITY_BONUS` (half a reply); below, the
/// fixed parity order.
const SORT_EMPTIES: u32 = 6;
const PARITY_BONUS: i32 = 8;

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
        if n == 2 {
            return self.last_two(pos, odd, empty, alpha, beta, budget);
        }
        if n == 3 {
            return self.last_three(pos, odd, empty, alpha, beta, budget);
        }
        if n >= STABILITY_EMPTIES
            && let Some(cap) = self.stability_cap(pos, alpha, n)
        {
            return cap;
        }
        // Only a square next to an opponent disc can flip anything.
        let candidates = empty & pos.opp.neighbours(self.shape);
        let mut window = (alpha, -INFINITY);
        if n >= SORT_EMPTIES {
            let mut order = [(0, 0, B::default()); HASH_EMPTIES as usize];
            let mut len = 0;
            for i in candidates.squares() {
                let flips = pos.flips(i, self.shape);
                if flips.is_empty() || len == order.len() {
                    continue;
                }
                let parity = if odd.contains(i) { PARITY_BONUS } else { 0 };
                let key = self.fastest_first_key(pos, i, flips) - parity;
                // Insertion by key, lowest first: a handful of moves.
                let mut at = len;
                while at > 0 && order[at - 1].0 > key {
                    order[at] = order[at - 1];
                    at -= 1;
                }
                order[at] = (key, i, flips);
                len += 1;
            }
            for &(_, i, flips) in &order[..len] {
                if let Some(v) = self.child(pos, odd, i, flips, n, &mut window, beta, budget) {
                    return v;
                }
            }
        } else {
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
                    if let Some(v) = self.child(pos, odd, i, flips, n, &mut window, beta, budget) {
                        return v;
                    }
                }
            }
        }
        self.after_moves(pos, odd, n, window, beta, budget)
    }

    /// What a node of `last` (`n` empties) returns once its moves are searched in `window`
    /// (alpha, and the best score, `-INFINITY` when it had no move): with no move, the final
    /// score, or the opponent's after a pass.
    #[inline(always)]
    fn after_moves(
        &mut self,
        pos: &Pos<B>,
        odd: B,
        n: u32,
        window: (i32, i32),
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        let (alpha, best) = window;
        if best > -INFINITY {
            best
        } else if pos.opponent_moves(self.shape).is_empty() {
            pos.final_score(n)
        } else {
            -self.last(&pos.pass(), odd, n, -beta, -alpha, budget)
        }
    }

    /// The rank of square `i` in `last`'s order below `SORT_EMPTIES` (lowest first): odd
    /// quadrants first, X- and C-squares last.
    #[inline(always)]
    fn rank(&self, odd: B, i: usize) -> u8 {
        2 * u8::from(!odd.contains(i)) + u8::from(self.masks.x_and_c.contains(i))
    }

    /// `last` with three empties (`empty`): the same order and the same nodes, each child
    /// going straight to `last_two`.
    #[inline(always)]
    fn last_three(
        &mut self,
        pos: &Pos<B>,
        odd: B,
        empty: B,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        let mut squares = [0; 3];
        let mut rest = empty;
        for s in &mut squares {
            *s = rest.first().unwrap_or(0);
            rest = rest.without(B::single(*s));
        }
        // Within a rank, the square order (a stable sort of squares taken in that order).
        squares.sort_by_key(|&i| self.rank(odd, i));
        let mut window = (alpha, -INFINITY);
        for i in squares {
            let flips = pos.flips(i, self.shape);
            if flips.is_empty() {
                continue;
            }
            // The child is a node.
            if self.tick(budget) {
                return 0;
            }
            let child = pos.play_unkeyed(i, flips);
            let odd = odd ^ self.quadrant_of(i);
            let rest = empty.without(B::single(i));
            let v = -self.last_two(&child, odd, rest, -beta, -window.0, budget);
            if self.halted(budget) {
                return 0;
            }
            if raise(&mut window, v, beta) {
                return v;
            }
        }
        self.after_moves(pos, odd, 3, window, beta, budget)
    }

    /// `last` with two empties (`empty`), the most frequent node: the same order and the
    /// same nodes, without the general loop; each child is scored from its last square.
    #[inline(always)]
    fn last_two(
        &mut self,
        pos: &Pos<B>,
        odd: B,
        empty: B,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        let first = empty.first().unwrap_or(0);
        let second = empty.without(B::single(first)).first().unwrap_or(0);
        let (a, b) = if self.rank(odd, second) < self.rank(odd, first) {
            (second, first)
        } else {
            (first, second)
        };
        let mut window = (alpha, -INFINITY);
        for (i, other) in [(a, b), (b, a)] {
            let flips = pos.flips(i, self.shape);
            if flips.is_empty() {
                continue;
            }
            // The child is a node.
            if self.tick(budget) {
                return 0;
            }
            let v = -last_square(&pos.play_unkeyed(i, flips), other, self.shape);
            if raise(&mut window, v, beta) {
                return v;
            }
        }
        self.after_moves(pos, odd, 2, window, beta, budget)
    }

    /// Searches the move on `i` of `pos` (`n` empties) inside `window` (alpha and the best
    /// score so far, both raised by what it finds): the value to return at once on a cutoff
    /// or when the search is unwinding.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn child(
        &mut self,
        pos: &Pos<B>,
        odd: B,
        i: usize,
        flips: B,
        n: u32,
        window: &mut (i32, i32),
        beta: i32,
        budget: &mut Budget,
    ) -> Option<i32> {
        let child = pos.play_unkeyed(i, flips);
        let odd = odd ^ self.quadrant_of(i);
        let v = -self.last(&child, odd, n - 1, -beta, -window.0, budget);
        if self.halted(budget) {
            return Some(0);
        }
        raise(window, v, beta).then_some(v)
    }

    /// The quadrant of square `i` (on 8x8 the size is a constant, so this is shifts).
    #[inline]
    fn quadrant_of(&self, i: usize) -> B {
        self.masks.quadrants[quadrant_index(B::size(self.shape), i)]
    }
}

/// Takes a child's score `v` into `window` (alpha and the best score so far); true on a
/// cutoff (`v` at or above `beta`).
#[inline(always)]
fn raise(window: &mut (i32, i32), v: i32, beta: i32) -> bool {
    if v > window.1 {
        window.1 = v;
        if v >= beta {
            return true;
        }
        window.0 = window.0.max(v);
    }
    false
}

/// The final score with one empty square `i` left: whoever can play there does (the side to
/// move first); the score is counted without making the move.
#[inline]
pub(crate) fn last_square<B: Bits>(pos: &Pos<B>, i: usize, shape: &B::Shape) -> i32 {
    let diff = pos.disc_difference();
    let own_flips = B::last_flip_count(pos.own, i, shape) as i32;
    if own_flips > 0 {
        return diff + 2 * own_flips + 1;
    }
    let opp_flips = B::last_flip_count(pos.opp, i, shape) as i32;
    if opp_flips > 0 {
        return diff - 2 * opp_flips - 1;
    }
    pos.final_score(1)
}

#[cfg(test)]
mod tests {
    use crate::othello::bits::Bits;
    use crate::othello::bits::other_sizes::{Narrow, Wide};
    use crate::othello::search::endgame::Solver;
    use crate::othello::search::eval::Evaluation;
    use crate::othello::search::tt::EndTable;

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
