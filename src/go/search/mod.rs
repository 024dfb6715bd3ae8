//! Choosing moves: the tree search and what it is made of, the heuristic player, and the
//! estimates built on playouts (dead stones, seki, ownership).
//!
//! It reads Go's rules core (`go`: `game`, `board`, `score`), the tactics and the network,
//! never the GTP layer. Everything it needs from its caller comes in as a value: the [`Params`]
//! (budget and [`Tunables`]), a seed, and a stop flag.
//!
//! | file | what it holds |
//! |---|---|
//! | `params` | [`Params`] (playouts, time, resign, threads) and [`Tunables`] (the weights; `SHICHO_TUNE`) |
//! | `tunable` | `tunables!`: a struct of tunables declared once (name, type, default, range, doc), with its `SHICHO_TUNE` setter and its listing |
//! | `player` | [`Player`] and [`decide`]: tree search, heuristics or random; the cleanup move |
//! | `level` | [`Level`]: playing at a chosen strength, the table of levels and the draw from the policy or the search's visits |
//! | `memory` | what `--max-memory` counts, and the tree arena that fits in it |
//! | `mcts` | [`Searcher`]: Monte-Carlo tree search on threads sharing one tree, kept between moves |
//! | `analysis` | [`Analysis`] and [`genmove_observed`]: searches that report each root move's visits, win rate, prior, score and ownership while they run; [`raw_evaluation`] |
//! | `tally` | what an analysis counts under each root move: the network's score and ownership at the positions the search evaluated (without a network, the playouts'), a slot per thread |
//! | `avoid` | [`AvoidMoves`]: the moves an analysis keeps out of the tree to a given ply (`avoid`, `allow`) |
//! | `tree` | the lock-free node arena: urgency (RAVE), expansion, virtual loss, subtrees |
//! | `simulation` | one simulation: descend by urgency, expand, play out, back up |
//! | `strategy` | the two tree policies a search is built with: RAVE with playouts (the default), PUCT with the network's value (the zero search) |
//! | `priors` | the virtual visits and wins a new child starts with, from the learnt move model |
//! | `pattern/` | the learnt move model: what a move looks like (`features`, larger `spatial` shapes, MoGo's 3x3 shapes in `mogo`) and the weight learnt for each (`gammas`, its tables in `data/`, from `train/src/priors.rs`) |
//! | `playout/` | playouts: the loop and light random playouts (`mod.rs`), the playout `policy` and its rules, one file per family, and the `replies` it learns |
//! | `handicap` | the dynamic komi of handicap games: White's extra komi in the search, fading over the opening |
//! | `heuristic` | the heuristic player: ladder-aware tactics, then shape; a prior at the root |
//! | `dead_stones` | Monte-Carlo ownership, dead stones and seki at the end of a game |

mod analysis;
mod avoid;
pub(crate) mod dead_stones;
mod handicap;
pub mod heuristic;
mod level;
mod mcts;
pub mod memory;
mod params;
pub mod pattern;
mod player;
pub mod playout;
mod priors;
mod simulation;
mod strategy;
mod tally;
mod tree;
pub mod tunable;

pub use analysis::{
    Analysis, AnalysisLine, AnalysisOptions, Report, RootSummary, Score, Watch, genmove_observed,
    raw_evaluation,
};
pub use avoid::AvoidMoves;
pub use dead_stones::ownership;
pub use level::{LEVELS, Level, NotALevel, Row, decide_at_level};
pub use mcts::{Candidate, Decision, SearchResult, Searcher, search};
pub use params::{DEFAULT_PLAYOUTS, DEFAULT_WEIGHTS, Network, Params, Tunables};
pub use player::{Player, UnknownPlayer, cleanup_move, decide, random_legal_move};
