//! The static evaluation: how good a position is for the side to move, in hundredths of a
//! disc, on any board size.
//!
//! Terms (weights in [`weights`]): mobility (moves now), potential mobility (empty squares
//! next to the opponent's discs: moves later), corners, X-squares (diagonally next to an
//! empty corner) and C-squares (beside an empty corner on the edge), stable discs (a sound
//! lower bound: discs that no sequence of moves can turn), parity (who gets the last move
//! of the board), and late in the game the discs themselves.

use std::sync::Arc;

use crate::color::Color;

use crate::othello::bits::Bits;
use crate::othello::board::{Board, with_position};
use crate::othello::position::Pos;
use crate::othello::search::patterns::{SCALE, Weights};

/// Which evaluation the searcher, and the solver's move ordering, use.
#[derive(Clone, Default)]
pub enum Evaluation {
    /// The hand-written terms below, on every board size.
    #[default]
    Hand,
    /// Learnt pattern tables ([`patterns`](crate::othello::search::patterns)), on 8x8; other sizes fall
    /// back to the hand-written terms.
    Patterns(Arc<Weights>),
}

impl Evaluation {
    /// The learnt tables as shipped (`data/patterns.bin`).
    pub fn learnt() -> Evaluation {
        Evaluation::Patterns(Weights::shipped())
    }
}

/// The evaluation `ev` of `board` for `to_move`, in hundredths of a disc.
pub fn static_evaluation(ev: &Evaluation, board: &Board, to_move: Color) -> i32 {
    with_position!(board, to_move, |pos, shape| {
        let masks = Masks::new(shape);
        let (own, opp) = (pos.moves(shape), pos.opponent_moves(shape));
        evaluate_with(ev, &pos, own, opp, &masks, shape)
    })
}

/// The evaluation `ev` of `pos` for its side to move, in hundredths of a disc, given both
/// sides' move sets.
#[inline]
pub(crate) fn evaluate_with<B: Bits>(
    ev: &Evaluation,
    pos: &Pos<B>,
    own_moves: B,
    opp_moves: B,
    masks: &Masks<B>,
    shape: &B::Shape,
) -> i32 {
    if let Evaluation::Patterns(w) = ev
        && let (Some(own), Some(opp)) = (pos.own.eight(), pos.opp.eight())
    {
        let v = w.evaluate(own, opp, own_moves.count(), opp_moves.count());
        return v * 100 / SCALE;
    }
    evaluate(pos, own_moves, opp_moves, masks, shape)
}

/// The evaluation weights, in hundredths of a disc per unit of each term.
pub mod weights {
    /// Per move of difference in mobility.
    pub const MOBILITY: i32 = 140;
    /// Per square of difference in potential mobility.
    pub const POTENTIAL_MOBILITY: i32 = 45;
    /// Per corner held.
    pub const CORNER: i32 = 850;
    /// Per own disc on an X-square of an empty corner (a penalty).
    pub const X_SQUARE: i32 = -420;
    /// Per own disc on a C-square of an empty corner (a penalty).
    pub const C_SQUARE: i32 = -130;
    /// Per stable disc.
    pub const STABLE: i32 = 110;
    /// For the side to move when the number of empty squares is odd (it plays last).
    pub const PARITY: i32 = 150;
    /// Per disc of difference, once fewer than a quarter of the squares are empty.
    pub const LATE_DISC: i32 = 40;
}

/// The squares the evaluation and move ordering look at, for one board size.
pub(crate) struct Masks<B: Bits> {
    pub corners: B,
    /// The X- and C-squares of every corner.
    pub x_and_c: B,
    /// Per corner: the corner, its X-square, its two C-squares.
    pub corner_groups: [(B, B, B); 4],
    /// The four quadrants (parity regions of the endgame).
    pub quadrants: [B; 4],
    /// Per direction: the squares whose step that way leaves the board.
    pub exit: [B; 8],
    pub squares: usize,
}

impl<B: Bits> Masks<B> {
    pub fn new(shape: &B::Shape) -> Masks<B> {
        let n = B::size(shape);
        let at = |x: usize, y: usize| B::single(y * n + x);
        let far = n - 1;
        let corner_groups = [(0, 0), (far, 0), (0, far), (far, far)].map(|(x, y)| {
            // One step from the corner towards the board's inside on each axis.
            let ix = if x == 0 { 1 } else { far - 1 };
            let iy = if y == 0 { 1 } else { far - 1 };
            (at(x, y), at(ix, iy), at(ix, y) | at(x, iy))
        });
        let mut quadrants = [B::default(); 4];
        for i in 0..n * n {
            quadrants[quadrant_index(n, i)] |= B::single(i);
        }
        let full = B::full(shape);
        let exit = std::array::from_fn(|d| full.without(full.shift(shape, d ^ 1)));
        Masks {
            corners: corner_groups.iter().fold(B::default(), |m, g| m | g.0),
            x_and_c: corner_groups
                .iter()
                .fold(B::default(), |m, g| m | g.1 | g.2),
            corner_groups,
            quadrants,
            exit,
            squares: n * n,
        }
    }
}

/// Which of `Masks::quadrants` holds square `i` of a `size` board: (y / half) * 2 + x / half.
#[inline]
pub(crate) fn quadrant_index(size: usize, i: usize) -> usize {
    let half = size / 2;
    (i / size / half) * 2 + (i % size) / half
}

/// The discs of `own` that can never be turned over (a subset of the truly stable ones): in
/// each of the four axes, the line through the disc is full, or it touches the edge, or
/// its neighbour on that axis is such a disc of the same colour.
pub(crate) fn stable_discs<B: Bits>(own: B, opp: B, masks: &Masks<B>, shape: &B::Shape) -> B {
    let lines = B::full_lines(own | opp, &masks.exit, shape);
    let protected: [B; 4] =
        std::array::from_fn(|a| lines[a] | masks.exit[2 * a] | masks.exit[2 * a + 1]);
    let mut stable = B::default();
    loop {
        let mut next = own;
        for (a, &p) in protected.iter().enumerate() {
            next &= p | stable.shift(shape, 2 * a) | stable.shift(shape, 2 * a + 1);
        }
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The evaluation of `pos` for its side to move, given both sides' move sets.
pub(crate) fn evaluate<B: Bits>(
    pos: &Pos<B>,
    own_moves: B,
    opp_moves: B,
    masks: &Masks<B>,
    shape: &B::Shape,
) -> i32 {
    use weights::*;
    let empty = B::full(shape).without(pos.own | pos.opp);
    let empties = empty.count() as i32;
    let mut score = MOBILITY * (own_moves.count() as i32 - opp_moves.count() as i32);
    let own_potential = (pos.opp.neighbours(shape) & empty).count() as i32;
    let opp_potential = (pos.own.neighbours(shape) & empty).count() as i32;
    score += POTENTIAL_MOBILITY * (own_potential - opp_potential);
    for &(corner, x, c) in &masks.corner_groups {
        if (pos.own & corner) != B::default() {
            score += CORNER;
        } else if (pos.opp & corner) != B::default() {
            score -= CORNER;
        } else {
            score += X_SQUARE * ((pos.own & x).count() as i32 - (pos.opp & x).count() as i32);
            score += C_SQUARE * ((pos.own & c).count() as i32 - (pos.opp & c).count() as i32);
        }
    }
    // No disc is stable by this test before a corner or a full line is taken; a corner is
    // the cheap sign that looking could pay.
    if !((pos.own | pos.opp) & masks.corners).is_empty() {
        let own_stable = stable_discs(pos.own, pos.opp, masks, shape).count() as i32;
        let opp_stable = stable_discs(pos.opp, pos.own, masks, shape).count() as i32;
        score += STABLE * (own_stable - opp_stable);
    }
    if empties % 2 == 1 {
        score += PARITY;
    } else {
        score -= PARITY;
    }
    if (empties as usize) * 4 < masks.squares {
        score += LATE_DISC * pos.disc_difference();
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;

    #[test]
    fn a_full_corner_region_is_stable() {
        // Black holds a1, b1, a2 (top-left corner): all stable; a lone centre disc is not.
        let black = 1u64 | 1 << 1 | 1 << 8 | 1 << 27;
        let white = 1u64 << 28 | 1 << 36;
        let masks = Masks::<u64>::new(&());
        assert_eq!(stable_discs(black, white, &masks, &()), 1 | 1 << 1 | 1 << 8);
        assert_eq!(stable_discs(white, black, &masks, &()), 0);
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let black = 0x0f0f_0f0f_0f0f_0f0fu64;
        let masks = Masks::<u64>::new(&());
        assert_eq!(stable_discs(black, !black, &masks, &()), black);
    }

    #[test]
    fn the_start_is_even() {
        let p = Pos::new(1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36, Color::Black);
        let masks = Masks::<u64>::new(&());
        let (m, o) = (p.moves(&()), p.opponent_moves(&()));
        // Symmetric but for parity: 60 empties, even, so the side to move loses that term.
        assert_eq!(evaluate(&p, m, o, &masks, &()), -weights::PARITY);
    }
}
