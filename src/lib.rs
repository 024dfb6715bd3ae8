//! shicho: a Go engine speaking GTP v2, with exact rules (Japanese, Chinese, AGA,
//! New Zealand, Tromp-Taylor, Dao-qi on a torus), a protocol layer that survives any input,
//! ladder-aware tactics, a Monte-Carlo tree search with a neural network of its own; and
//! Othello, played by the same engine.
//!
//! The crate is one folder per game (a wing: [`go`], [`othello`]), each with the same rooms
//! (its rules at the root, then its search, GTP commands, SGF records and terminal part),
//! over a shared level that knows no game ([`gtp`], [`sgf`], [`terminal`], [`clock`],
//! [`game`], the colours and the RNG), and [`engine`] on top, which puts both games behind
//! one GTP engine and one terminal board. `ARCHITECTURE.md` is the map: where each thing is,
//! which way the imports go, and where to change what.
//!
//! Go's core types are re-exported here, so callers write `shicho::Board`, `shicho::Game`.

pub mod clock;
mod color;
pub mod engine;
pub mod game;
pub mod go;
pub mod gtp;
pub mod othello;
mod rng;
pub mod sgf;
pub mod terminal;

pub use color::{ByColor, Color, ParseColorError};
pub use go::board::undo::Undo;
pub use go::board::{Board, ChainStones, IllegalMove, Ko, Liberties, PlayOutcome, Snapshot};
pub use go::game::{Action, CannotUndo, Game};
pub use go::geometry::{Geometry, MAX_SIZE, MIN_SIZE, SizeError, Topology, VertexError};
pub use go::point::{Move, Point};
pub use go::rules::{KoRule, PRESETS, Rules, Scoring, SuicideRule, UnknownRules};
pub use go::score::Score;
pub use go::tactics::{Budget, Outcome, ReadingStack};
pub use rng::Rng;
