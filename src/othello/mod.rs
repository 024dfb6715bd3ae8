//! Othello (Reversi) on any even board from 4x4 to 26x26: rules, players and search.
//!
//! How to read it, bottom up:
//! - [`coord`]: squares and moves as Othello front ends write them (row 1 at the top, no
//!   column letter skipped: not Go's convention).
//! - `bits` (with `eight` and `wide`): square sets as bitboards (`u64` on 8x8, one word
//!   below, eleven words above) and shift-based move generation and flips.
//! - `position`: the side-to-move-relative position search runs on, with Zobrist keys.
//! - [`Board`]: the absolute view (Black's and White's discs, a hash, one move's rules).
//! - [`Game`]: board, side to move, passes (forced and inferred), history with undo, setup.
//! - [`perft`]: move sequence counts, passes included.
//! - players: [`greedy_move`] (the classic most-flips rule), [`random_move`], and
//!   [`Searcher`]: iterative-deepening principal-variation search with a transposition table,
//!   an evaluation (`eval`: hand-written terms, or the learnt [`patterns`]) and the exact
//!   endgame solver ([`solve`]: the entry points and the root; `endgame`: the search over
//!   the shared table `tt`; `last`: the last few empties; `parallel`: its threads).
//!
//! Everything generic over the bitboard representations is monomorphized; the entry points
//! pick the representation by board size (`with_position!` in `board`).

mod bits;
mod board;
pub mod coord;
mod game;
pub mod gtp;
pub mod perft;
mod position;
pub mod search;
pub mod sgf;
pub mod terminal;

pub use bits::{MAX_SIZE, MIN_SIZE};
pub use board::{Board, IllegalMove, Score};
pub use coord::{CoordError, Move, SizeError, Square, check_size};
pub use game::{CannotUndo, Game, Played, Turn};
pub use search::{
    EndTable, Evaluation, Limits, Outcome, PlayerKind, Progress, SOLVE_TABLE_BITS, SearchInfo,
    Searcher, Solution, SolveError, SolveOptions, UnknownPlayer, greedy_move, random_move, solve,
    solve_in, solve_with, solve_within, static_evaluation, tuning,
};
