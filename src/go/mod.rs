//! Go's wing. Its root holds the rules core: what a position is, which plays are legal and
//! how a game is counted, under every rules preset, on the plane and on the torus. The
//! folders are the rooms built on it (`ARCHITECTURE.md` says what each holds).
//!
//! | file | what it holds |
//! |---|---|
//! | `point` | [`Point`](point::Point) (a dense index, valid with its geometry) and [`Move`](point::Move) |
//! | `geometry` | size, topology, the neighbour tables of the plane and the torus, GTP's vertex text |
//! | `rules` | [`Rules`](rules::Rules): ko, suicide, scoring and topology as independent settings, with presets |
//! | `zobrist` | hash keys from a fixed seed |
//! | `board/` | [`Board`](board::Board): chains with exact liberty sets, the simple-ko point, the hash; no turn order |
//! | `game` | [`Game`](game::Game): a board plus rules, komi, history, superko, undo and passes; the game's facade for the front ends |
//! | `score` | area and territory counts, dead stones given |
//! | `handicap` | fixed and free handicap placement |
//! | `perft` | counts of legal move sequences, to check the rules against known numbers |
//!
//! The layers of the core, from the bottom: `point`, `geometry`, `rules`, `zobrist`; then
//! `board`; then `game`, `score`, `handicap`, `perft`. The core imports none of the rooms.

pub mod analysis;
pub(crate) mod board;
pub(crate) mod game;
pub(crate) mod geometry;
pub mod gtp;
pub mod handicap;
pub mod network;
pub mod perft;
pub(crate) mod point;
pub(crate) mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod tactics;
pub mod terminal;
pub mod zobrist;
