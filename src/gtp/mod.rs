//! The Go Text Protocol, version 2.
//!
//! A line travels one way through these files:
//! `session` (reads lines, watches for GoGui's interrupt) -> `engine` (parses with `parse`,
//! looks the command up, frames the reply with `response`) -> `commands/*` (one file per
//! family of commands) -> `state` (the game, clocks, reading stack; its methods keep its
//! invariants) -> the rules core and the search. Failures are [`GtpError`]s, whose
//! `Display` is the text after `?`.
//!
//! One engine, two games ([`GameKind`]): Go's state and commands are `state` and
//! `commands`; Othello's are in [`othello`] (its own state and table, the administrative
//! and time families shared). The engine runs each line on the game being played.

mod commands;
mod engine;
mod error;
mod games;
pub mod othello;
pub mod parse;
mod response;
mod session;
mod state;

pub use engine::Engine;
pub use error::GtpError;
pub use games::{GameKind, UnsupportedGame};
pub use response::Response;
pub use session::run;
pub use state::Config;

pub use crate::search::Player;

/// Every command the Go engine knows, in the order `list_commands` shows them (GoGui's
/// ruler commands other than `gogui-rules_game_id` only on the torus).
pub fn command_names() -> impl Iterator<Item = &'static str> {
    commands::GO.names()
}

/// Every command the engine knows in Othello mode, in the order `list_commands` shows them.
pub fn othello_command_names() -> impl Iterator<Item = &'static str> {
    othello::OTHELLO.names()
}
