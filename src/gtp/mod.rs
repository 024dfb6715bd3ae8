//! The Go Text Protocol, version 2, as both games speak it.
//!
//! `session` reads lines and watches for GoGui's interrupt; `parse` reads a line and its
//! entities; a game's command [`table`] finds the handler; `response` frames the reply.
//! Failures are [`GtpError`]s, whose `Display` is the text after `?`. The families every
//! game answers alike are here, generic over the game's state: `admin`, `time` and GoGui's
//! `ruler`. Each game's own families and state live in its wing (`go::gtp`, `othello::gtp`).

pub mod admin;
pub mod analysis;
pub mod args;
pub mod error;
pub mod files;
pub mod parse;
pub mod response;
pub mod ruler;
pub mod session;
pub mod state;
pub mod table;
pub mod time;

pub use error::GtpError;
pub use response::{Reply, Response, frame};
pub use session::{Answerer, run};
