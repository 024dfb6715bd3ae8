//! The Go Text Protocol, version 2.
//!
//! - `parse` turns raw input lines into command lines and GTP entities; it knows nothing
//!   about what the commands mean.
//! - `engine` holds the state, frames responses and dispatches through the command table.
//! - `commands` implements the standard commands and their common extensions; `moves`
//!   decides genmove's answer.
//! - `session` runs the read-answer loop on stdin/stdout with interrupt support.

pub mod commands;
pub mod engine;
pub mod moves;
pub mod parse;
pub mod session;

pub use engine::{Config, Engine, Response};
pub use session::run;
