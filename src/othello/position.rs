//! The position as search sees it: the side to move's discs and the opponent's, over either
//! bitboard representation, with an incrementally kept Zobrist key.
//!
//! Search is negamax, so a position is relative (`own` moves next) and a move swaps the two
//! sides; the colour is kept only for the hash. The public [`Board`](crate::othello::Board) is the
//! absolute (Black, White) view and converts to this one.

use crate::color::Color;
use crate::rng::splitmix64;

use crate::othello::bits::{Bits, MAX_SIZE};

const SEED: u64 = 0x4f54_4845_4c4c_4f31; // "OTHELLO1"
const SQUARES: usize = MAX_SIZE * MAX_SIZE;

const fn build_keys() -> [[u64; 3]; SQUARES] {
    let mut keys = [[0u64; 3]; SQUARES];
    let mut state = SEED;
    let mut i = 0;
    while i < SQUARES {
        let (s, a) = splitmix64(state);
        let (s, b) = splitmix64(s);
        // The third key is the other two together: turning a disc over is one xor.
        keys[i] = [a, b, a ^ b];
        state = s;
        i += 1;
    }
    keys
}

/// Per square (bit index): Black's key, White's key, and their xor.
static KEYS: [[u64; 3]; SQUARES] = build_keys();

/// Xored in when White is to move, so that a position key includes the side to move.
pub const WHITE_TO_MOVE: u64 = splitmix64(!SEED).1;

/// The Zobrist key of a disc of colour `c` on bit `index`.
#[inline]
pub fn disc_key(index: usize, c: Color) -> u64 {
    KEYS[index][c.index()]
}

/// The key change when the discs of `flipped` turn over.
#[inline]
pub fn flip_key<B: Bits>(flipped: B) -> u64 {
    flipped.squares().fold(0, |k, i| k ^ KEYS[i][2])
}

/// The key of a whole set of discs of one colour, recomputed.
pub fn discs_key<B: Bits>(discs: B, c: Color) -> u64 {
    discs.squares().fold(0, |k, i| k ^ disc_key(i, c))
}

/// A position relative to the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos<B: Bits> {
    /// The discs of the side to move.
    pub own: B,
    /// The discs of the other side.
    pub opp: B,
    /// The colour of the side to move (the hash needs it).
    pub color: Color,
    /// Zobrist key of the discs and the side to move.
    pub key: u64,
}

impl<B: Bits> Pos<B> {
    /// The position with `own` (of colour `color`) to move, its key computed.
    pub fn new(own: B, opp: B, color: Color) -> Pos<B> {
        let side = if color == Color::White {
            WHITE_TO_MOVE
        } else {
            0
        };
        Pos {
            own,
            opp,
            color,
            key: discs_key(own, color) ^ discs_key(opp, color.other()) ^ side,
        }
    }

    #[inline]
    pub fn moves(&self, shape: &B::Shape) -> B {
        B::moves(self.own, self.opp, shape)
    }

    #[inline]
    pub fn opponent_moves(&self, shape: &B::Shape) -> B {
        B::moves(self.opp, self.own, shape)
    }

    #[inline]
    pub fn flips(&self, index: usize, shape: &B::Shape) -> B {
        B::flips(self.own, self.opp, index, shape)
    }

    /// The position after a play on `index` turning `flips` over (which must be the play's
    /// flips: nothing is checked here).
    #[inline]
    pub fn play(&self, index: usize, flips: B) -> Pos<B> {
        Pos {
            own: self.opp.without(flips),
            opp: self.own | flips | B::single(index),
            color: self.color.other(),
            key: self.key ^ disc_key(index, self.color) ^ flip_key(flips) ^ WHITE_TO_MOVE,
        }
    }

    /// As [`Pos::play`] but leaves the key stale: for the solver's last plies, which keep no
    /// table.
    #[inline]
    pub fn play_unkeyed(&self, index: usize, flips: B) -> Pos<B> {
        Pos {
            own: self.opp.without(flips),
            opp: self.own | flips | B::single(index),
            color: self.color.other(),
            key: self.key,
        }
    }

    /// The position after a pass.
    #[inline]
    pub fn pass(&self) -> Pos<B> {
        Pos {
            own: self.opp,
            opp: self.own,
            color: self.color.other(),
            key: self.key ^ WHITE_TO_MOVE,
        }
    }

    #[inline]
    pub fn empties(&self, shape: &B::Shape) -> B {
        B::full(shape).without(self.own | self.opp)
    }

    /// Own discs minus opponent discs.
    #[inline]
    pub fn disc_difference(&self) -> i32 {
        self.own.count() as i32 - self.opp.count() as i32
    }

    /// The final disc difference when the game ends here, counted as endgame test suites
    /// count it: the empty squares go to the winner.
    #[inline]
    pub fn final_score(&self, empties: u32) -> i32 {
        let diff = self.disc_difference();
        match diff {
            d if d > 0 => d + empties as i32,
            d if d < 0 => d - empties as i32,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_pinned() {
        let all: HashSet<u64> = KEYS.iter().flat_map(|k| [k[0], k[1]]).collect();
        assert_eq!(all.len(), 2 * SQUARES);
        assert!(!all.contains(&WHITE_TO_MOVE));
        // Pinned: a change of seed or mixer would change every stored hash.
        assert_eq!(disc_key(0, Color::Black), splitmix64(SEED).1);
    }

    #[test]
    fn incremental_key_equals_recomputed() {
        let black = 1u64 << 28 | 1 << 35;
        let white = 1u64 << 27 | 1 << 36;
        let p = Pos::new(black, white, Color::Black);
        let flips = p.flips(19, &());
        let q = p.play(19, flips);
        assert_eq!(q.key, Pos::new(q.own, q.opp, Color::White).key);
        assert_eq!(q.pass().key, Pos::new(q.opp, q.own, Color::Black).key);
    }
}
