//! The engine as its front ends see it: both games behind one GTP engine (`gtp`) and one
//! terminal board (`play`); and Go's JSON analysis engine for review tools (`analysis`).

pub mod analysis;
pub mod gtp;
pub mod play;

pub use gtp::{Config, Engine, command_names, othello_command_names};
