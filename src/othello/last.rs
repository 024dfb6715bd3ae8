//! The exact solver's last few empties, below `HASH_EMPTIES`: no table, no sorting, no
//! keys. Squares in regions (quadrants) with an odd number of empties go first (parity: the
//! side that plays last in a region gains there), and within that the corners before the
//! rest and the squares next to an empty corner last; the very last empty square is
//! counted without making the move.
//!
//! On 8x8 the same search runs on plain `u64`s with the parity carried down (a move flips
//! its quadrant's parity) rather than recounted at every node: the same moves in the same
//! order, so the same nodes, in less time.

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
        if let (Some(own), Some(opp)) = (pos.own.eight(), pos.opp.eight()) {
            let late = self.masks.x_and_c.eight().unwrap_or_default();
            let odd = odd_quadrants8(!(own | opp));
            return self.shallow8(own, opp, odd, late, n, alpha, beta, budget);
        }
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

    /// `shallow` on 8x8: `odd` holds the quadrants with an odd number of empties, `late` the
    /// X- and C-squares.
    #[allow(clippy::too_many_arguments)]
    fn shallow8(
        &mut self,
        own: u64,
        opp: u64,
        odd: u64,
        late: u64,
        n: u32,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        if self.tick(budget) {
            return 0;
        }
        let empty = !(own | opp);
        if n == 1 {
            return last_square8(own, opp, empty.trailing_zeros() as usize);
        }
        let mut alpha = alpha;
        let mut best = -INFINITY;
        let candidates = empty & opp.neighbours(&());
        for group in [
            (candidates & odd) & !late,
            candidates & odd & late,
            candidates & !odd & !late,
            candidates & !odd & late,
        ] {
            for i in group.squares() {
                let flips = u64::flips(own, opp, i, &());
                if flips == 0 {
                    continue;
                }
                let v = -self.shallow8(
                    opp & !flips,
                    own | flips | 1 << i,
                    odd ^ QUADRANT_OF8[i],
                    late,
                    n - 1,
                    -beta,
                    -alpha,
                    budget,
                );
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
        } else if u64::moves(opp, own, &()) == 0 {
            final_score8(own, opp, n)
        } else {
            -self.shallow8(opp, own, odd, late, n, -beta, -alpha, budget)
        }
    }
}

/// The 8x8 quadrants, as `Masks` numbers them: (y / 4) * 2 + x / 4.
const QUADRANTS8: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// Per square, its quadrant.
const QUADRANT_OF8: [u64; 64] = {
    let mut of = [0; 64];
    let mut i = 0;
    while i < 64 {
        of[i] = QUADRANTS8[(i >> 5) << 1 | (i >> 2 & 1)];
        i += 1;
    }
    of
};

/// The quadrants holding an odd number of the squares of `empty`.
#[inline]
fn odd_quadrants8(empty: u64) -> u64 {
    QUADRANTS8
        .iter()
        .filter(|&&q| (empty & q).count_ones() % 2 == 1)
        .fold(0, |odd, q| odd | q)
}

/// `last_square` on 8x8.
#[inline]
fn last_square8(own: u64, opp: u64, i: usize) -> i32 {
    // 63 discs on the board: own - opp = 63 - 2 opp.
    let diff = 63 - 2 * opp.count_ones() as i32;
    let own_flips = u64::flips(own, opp, i, &()).count_ones() as i32;
    if own_flips > 0 {
        return diff + 2 * own_flips + 1;
    }
    let opp_flips = u64::flips(opp, own, i, &()).count_ones() as i32;
    if opp_flips > 0 {
        return diff - 2 * opp_flips - 1;
    }
    final_score8(own, opp, 1)
}

/// `Pos::final_score` on 8x8: the empties go to the winner.
#[inline]
fn final_score8(own: u64, opp: u64, empties: u32) -> i32 {
    let diff = own.count_ones() as i32 - opp.count_ones() as i32;
    match diff {
        d if d > 0 => d + empties as i32,
        d if d < 0 => d - empties as i32,
        _ => 0,
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
    use super::*;
    use crate::othello::eval::Masks;

    #[test]
    fn the_8x8_quadrants_are_the_masks_quadrants() {
        let masks = Masks::<u64>::new(&());
        assert_eq!(masks.quadrants, QUADRANTS8);
        for (i, &q) in QUADRANT_OF8.iter().enumerate() {
            assert_ne!(q & 1 << i, 0, "square {i}");
        }
    }
}
