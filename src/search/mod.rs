//! Choosing moves: the tree search and what it is made of, the heuristic player, and the
//! estimates built on playouts (dead stones, seki, ownership).
//!
//! It reads the rules core (`game`, `board`, `score`) and the tactics, never the GTP layer.
//! Everything it needs from its caller comes in as a value: the [`Params`] (budget and
//! [`Tunables`]), a seed, and a stop flag.
//!
//! | file | what it holds |
//! |---|---|
//! | `params` | [`Params`] (playouts, time, resign, threads) and [`Tunables`] (the weights; `SHICHO_TUNE`) |
//! | `player` | [`Player`] and [`decide`]: tree search, heuristics or random; the cleanup move |
//! | `mcts` | [`Searcher`]: Monte-Carlo tree search on threads sharing one tree, kept between moves; [`Analysis`] for live analysis |
//! | `tree` | the lock-free node arena: urgency (RAVE), expansion, virtual loss, subtrees |
//! | `simulation` | one simulation: descend by urgency, expand, play out, back up |
//! | `priors` | the virtual visits and wins a new child starts with |
//! | `gammas` | the learnt weight of each feature (`data/gammas-9x9.txt`, `data/gammas-19x19.txt`, from `examples/train_priors.rs`) |
//! | `features` | what a move looks like at a glance (3x3 shape, captures, ataris, distances, larger shapes, who owns the point in playouts), for the learnt priors |
//! | `policy` | the playout policy: atari answers with a ladder check, nakade, two-liberty tactics, patterns, filtered random moves |
//! | `replies` | the last good replies the playouts learn during a search |
//! | `playout` | random playouts, the playout loop, the superko set playouts share |
//! | `spatial` | larger shapes around a move (out to distance 8), hashed, for the learnt priors |
//! | `patterns` | MoGo's 3x3 shape patterns, for priors and playouts |
//! | `heuristic` | the heuristic player: ladder-aware tactics, then shape; a prior at the root |
//! | `dead_stones` | Monte-Carlo ownership, dead stones and seki at the end of a game |
//! | `time` | time controls, both clocks and the time budget of the next move |

pub(crate) mod dead_stones;
pub mod features;
pub mod gammas;
pub mod heuristic;
mod mcts;
mod params;
mod patterns;
mod player;
pub mod playout;
pub mod policy;
mod priors;
mod replies;
mod simulation;
pub mod spatial;
pub mod time;
mod tree;

pub use dead_stones::ownership;
pub use mcts::{Analysis, AnalysisLine, Candidate, Decision, SearchResult, Searcher, search};
pub use params::{DEFAULT_PLAYOUTS, Params, Tunables};
pub use player::{Player, UnknownPlayer, cleanup_move, decide, random_legal_move};
