//! How an Othello move is chosen: the players ([`greedy_move`], [`random_move`]) and the
//! [`Searcher`] (iterative-deepening principal-variation search with a transposition table,
//! `tt`), its evaluation (`eval`: hand-written terms, or the learnt [`patterns`]), the
//! limits of one search (`limits`), and the exact endgame solver ([`solve`]: the entry
//! points and the root; `endgame`: the search over the shared table; `last_empties`: the
//! last few empty squares; `parallel`: its threads).

pub(crate) mod endgame;
pub(crate) mod eval;
pub(crate) mod last_empties;
pub(crate) mod limits;
pub(crate) mod parallel;
pub mod patterns;
pub(crate) mod players;
pub(crate) mod searcher;
pub(crate) mod solve;
pub(crate) mod tt;

pub use eval::{Evaluation, static_evaluation};
pub use limits::Limits;
pub use players::{PlayerKind, UnknownPlayer, greedy_move, random_move};
pub use searcher::{Outcome, SearchInfo, Searcher, tuning};
pub use solve::{
    Progress, SOLVE_TABLE_BITS, Solution, SolveError, SolveOptions, solve, solve_in, solve_with,
    solve_within,
};
pub use tt::EndTable;
