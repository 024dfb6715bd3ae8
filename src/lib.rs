//! shicho: a Go engine speaking GTP v2.

mod board;
mod color;
mod game;
mod geometry;
pub mod gtp;
pub mod handicap;
pub mod perft;
mod point;
pub mod referee;
pub mod rng;
mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod tactics;
pub mod zobrist;

pub use board::{Board, ChainStones, IllegalMove, Ko, Liberties, PlayOutcome, Snapshot};
pub use color::{ByColor, Color, ParseColorError};
pub use game::{Action, CannotUndo, Game};
pub use geometry::{Geometry, MAX_SIZE, MIN_SIZE, SizeError, Topology, VertexError};
pub use point::{Move, Point};
pub use rng::Rng;
pub use rules::{KoRule, PRESETS, Rules, Scoring, SuicideRule, UnknownRules};
pub use score::Score;
pub use tactics::{Budget, Outcome, ReadingStack};
