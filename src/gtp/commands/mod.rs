//! The commands, one file per family, and the Go engine's table ([`GO`]).
//!
//! A handler takes the [`State`] and the arguments and returns a `Reply`
//! (`crate::gtp::response`): the text, or a [`GtpError`](crate::gtp::error::GtpError) whose
//! `Display` is the error text. It checks every argument before it changes anything, and
//! changes the state only through the state's methods.
//!
//! To add a command: write its handler in its family's file and add a row to that family's
//! `COMMANDS`; `list_commands`, `known_command` and dispatch follow. If GoGui should offer
//! it, add a line to `gogui::ANALYZE_COMMANDS`.

pub mod admin;
pub mod analyze;
pub mod args;
pub mod command_table;
pub mod gnugo;
pub mod gogui;
pub mod observe;
pub mod play;
pub mod ruler;
pub mod rules;
pub mod score;
pub mod setup;
pub mod sgf;
pub mod time;

use crate::gtp::commands::admin::Admin;
use crate::gtp::commands::command_table::CommandTable;
use crate::gtp::commands::ruler::Ruler;
use crate::gtp::commands::time::Time;
use crate::gtp::state::State;

/// The Go engine's commands, in the order `list_commands` shows them.
pub static GO: CommandTable<State> = CommandTable::new(&[
    Admin::<State>::COMMANDS,
    setup::COMMANDS,
    play::COMMANDS,
    Time::<State>::COMMANDS,
    score::COMMANDS,
    sgf::COMMANDS,
    rules::COMMANDS,
    observe::COMMANDS,
    gogui::COMMANDS,
    Ruler::<State>::COMMANDS,
    gnugo::COMMANDS,
    analyze::COMMANDS,
]);
