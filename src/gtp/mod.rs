//! The Go Text Protocol, version 2.
//!
//! - `parse` turns raw input lines into command lines and GTP entities; it knows nothing
//!   about what the commands mean.
//! - `engine` holds the state, frames responses and dispatches through the command table.
//! - `commands` implements the standard commands and their common extensions; `reading`
//!   GNU Go's tactical commands and the analyze commands on reading and move choice.
//! - `analyze` streams live analysis (`lz-analyze`, `kata-analyze`, `analyze`).
//! - `session` runs the read-answer loop on stdin/stdout with interrupt support.

pub mod analyze;
pub mod commands;
pub mod engine;
pub mod parse;
pub mod reading;
pub mod session;

pub use crate::search::Player;
pub use engine::{Config, Engine, Response};
pub use session::run;
