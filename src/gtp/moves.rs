//! How the engine picks its move for genmove, reg_genmove and cleanup, and what it shows
//! GoGui about that choice.

use crate::color::Color;
use crate::gtp::engine::Engine;
use crate::point::{Move, Point};
use crate::rng::Rng;

/// Analyze commands about move choice, added to GoGui's menu.
pub const ANALYZE_COMMANDS: &[&str] = &[];

/// The engine's move for `c`: a legal move, or a pass. `seed` makes the choice repeatable.
pub fn choose(e: &mut Engine, c: Color, seed: u64) -> Move {
    let game = e.game();
    let board = game.board();
    let mut rng = Rng::new(seed);
    let mut candidates: Vec<Point> = board.empties().to_vec();
    candidates.sort();
    while !candidates.is_empty() {
        let p = candidates.swap_remove(rng.below(candidates.len()));
        if !board.is_true_eye(c, p) && game.is_legal(c, Move::Play(p)) {
            return Move::Play(p);
        }
    }
    Move::Pass
}
