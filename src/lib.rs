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
//! | shared vocabulary | `color`, `rng` | the two colours and the seeded RNG, which both games use |
//! | Go's rules core | [`go`] (`point`, `geometry`, `rules`, `zobrist`; `board`; `game`, [`go::score`], [`go::handicap`], [`go::perft`]) | points and moves; neighbour tables for the plane and the torus; rules as independent settings with presets; hash keys; [`Board`] (chains with exact liberty sets, the simple-ko point); [`Game`] (rules, komi, history, superko, undo); scoring, handicap placement, perft counts |
//! | reading, records | [`tactics`], [`sgf`] | ladders, capture reading and which self-ataris a player would make, over a `&Board`; SGF text to records and records to games |
//! | search | [`search`] | how a Go move is chosen: tree search, heuristics or random; priors from learnt patterns, playouts and their policy; dead stones and seki; clocks |
//! | front ends | [`gtp`], [`play`] | the GTP session, engine, command families and the engine state; the terminal board (`shicho play`) |
//!
//! The second game, [`othello`], is self-contained (its own coordinates, bitboards, game,
//! players, search and solver) and sits beside [`go`]; it uses only the shared vocabulary.
//! The protocol layer plays either game: [`gtp`] holds a state per game, `set_game` and
//! `--game` choose, and Othello's `GM[2]` records are [`sgf::OthelloRecord`]s.
//!
//! Binaries: `src/main.rs` is the engine (`shicho`, GTP on stdin/stdout); the match referee
//! (`shicho-match`) is a crate of its own in `shicho-match/`, built on this library.
//! `ARCHITECTURE.md` says where to change what.
//!
//! The core types are re-exported here, so callers write `shicho::Board`, `shicho::Game`.

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
