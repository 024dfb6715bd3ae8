//! shicho: a Go engine speaking GTP v2, with exact rules (Japanese, Chinese, AGA,
//! New Zealand, Tromp-Taylor, Dao-qi on a torus), a protocol layer that survives any input,
//! ladder-aware tactics and a Monte-Carlo tree search.
//!
//! # Reading guide
//!
//! The library is in layers; a file imports only from its own layer or the ones below it
//! (`scripts/check-imports` keeps the file graph free of cycles). From the bottom:
//!
//! | layer | modules | what they hold |
//! |---|---|---|
//! | vocabulary | `color`, `point`, `geometry`, `rules`, `zobrist`, `rng` | colours, points and moves; neighbour tables for the plane and the torus; rules as independent settings with presets; hash keys; the seeded RNG |
//! | board | `board` | [`Board`]: stones, chains with exact liberty sets, the simple-ko point, the hash; `play` checks, `play_unchecked` is for hot loops |
//! | game | `game`, [`score`], [`handicap`], [`perft`] | [`Game`]: a board plus rules, komi, history, superko and undo; area and territory scoring; handicap placement; perft counts |
//! | reading, records | [`tactics`], [`sgf`] | ladders and capture reading over a `&Board`; SGF text to records and records to games |
//! | search | [`search`] | how a move is chosen: tree search, heuristics or random; playouts, priors, patterns; dead stones and seki |
//! | front ends | [`gtp`], [`play`] | the GTP session, engine, command families and the engine state; the terminal board (`shicho play`) |
//!
//! The second game, [`othello`], is self-contained (its own coordinates, bitboards, game,
//! players, search and solver); it uses only the colour and the RNG from the vocabulary.
//! The protocol layer plays either game: [`gtp`] holds a state per game, `set_game` and
//! `--game` choose, and Othello's `GM[2]` records are [`sgf::OthelloRecord`]s.
//!
//! Binaries: `src/main.rs` is the engine (`shicho`, GTP on stdin/stdout); the match referee
//! (`shicho-match`) is a crate of its own in `shicho-match/`, built on this library.
//! `ARCHITECTURE.md` says where to change what.
//!
//! The core types are re-exported here, so callers write `shicho::Board`, `shicho::Game`.

mod board;
mod color;
mod game;
mod geometry;
pub mod gtp;
pub mod handicap;
pub mod othello;
pub mod perft;
pub mod play;
mod point;
mod rng;
mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod tactics;
pub mod zobrist;

pub use board::undo::Undo;
pub use board::{Board, ChainStones, IllegalMove, Ko, Liberties, PlayOutcome, Snapshot};
pub use color::{ByColor, Color, ParseColorError};
pub use game::{Action, CannotUndo, Game};
pub use geometry::{Geometry, MAX_SIZE, MIN_SIZE, SizeError, Topology, VertexError};
pub use point::{Move, Point};
pub use rng::Rng;
pub use rules::{KoRule, PRESETS, Rules, Scoring, SuicideRule, UnknownRules};
pub use score::Score;
pub use tactics::{Budget, Outcome, ReadingStack};
