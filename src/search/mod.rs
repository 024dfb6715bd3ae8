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
//! | `mcts` | [`search`]: root-parallel Monte-Carlo tree search and its answer; [`Analysis`] for live analysis |
//! | `tree` | the tree's nodes and one simulation: descend by urgency (RAVE), expand, play out, back up |
//! | `priors` | the virtual visits and wins a new child starts with |
//! | `playout` | random and policy playouts (the tree's playout policy), the superko set they share |
//! | `patterns` | MoGo's 3x3 shape patterns, for priors and playouts |
//! | `heuristic` | the heuristic player: ladder-aware tactics, then shape; a prior at the root |
//! | `dead_stones` | Monte-Carlo ownership, dead stones and seki at the end of a game |
//! | `time` | time controls, both clocks and the time budget of the next move |

pub(crate) mod dead_stones;
pub mod heuristic;
mod mcts;
mod params;
mod patterns;
mod player;
pub mod playout;
mod priors;
pub mod time;
mod tree;

pub use mcts::{Analysis, AnalysisLine, Candidate, Decision, SearchResult, search};
pub use params::{Params, Tunables};
pub use player::{Player, UnknownPlayer, cleanup_move, decide, random_legal_move};
