//! Othello's wing (Reversi on any even board from 4x4 to 26x26). Its root holds the rules
//! core; the folders are the rooms built on it (`ARCHITECTURE.md` says what each holds).
//!
//! The core, bottom up:
//! - [`coord`]: squares and moves as Othello front ends write them (row 1 at the top, no
//!   column letter skipped: not Go's convention).
//! - `bits/`: square sets as bitboards (`u64` on 8x8, one word below, eleven words above)
//!   and shift-based move generation and flips.
//! - `position`: the side-to-move-relative position search runs on, with Zobrist keys.
//! - [`Board`]: the absolute view (Black's and White's discs, a hash, one move's rules).
//! - [`Game`]: board, side to move, passes (forced and inferred), history with undo, setup;
//!   the game's facade for the front ends.
//! - [`perft`]: move sequence counts, passes included.
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
