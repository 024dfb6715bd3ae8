//! Go's GTP commands, one file per family, its state ([`State`](state::State)) and its
//! table ([`GO`]); the administrative, time and ruler families are the shared ones
//! (`crate::gtp`), generic over the state.
//!
//! A handler takes the state and the arguments and returns a `Reply`
//! (`crate::gtp::response`): the text, or a [`GtpError`] whose `Display` is the error text.
//! It checks every argument before it changes anything, and changes the state only through
//! the state's methods.
//!
//! To add a command: write its handler in its family's file and add a row to that family's
//! `COMMANDS`; `list_commands`, `known_command` and dispatch follow. If GoGui should offer
//! it, add a line to `gogui::ANALYZE_COMMANDS`.

pub mod analyze;
pub mod args;
pub mod gnugo;
pub mod gogui;
pub mod observe;
pub mod play;
pub mod ruler;
pub mod rules;
pub mod score;
pub mod server;
pub mod settings;
pub mod setup;
pub mod sgf;
pub mod state;

use crate::go::gtp::state::State;
use crate::gtp::admin::Admin;
use crate::gtp::analysis::{Stream, Streamed};
use crate::gtp::ruler::Ruler;
use crate::gtp::state::{Common, GtpState};
use crate::gtp::table::CommandTable;
use crate::gtp::time::Time;

/// The Go engine's commands, in the order `list_commands` shows them.
pub static GO: CommandTable<State> = CommandTable::new(&[
    Admin::<State>::COMMANDS,
    setup::COMMANDS,
    play::COMMANDS,
    Time::<State>::COMMANDS,
    score::COMMANDS,
    sgf::COMMANDS,
    rules::COMMANDS,
    server::COMMANDS,
    observe::COMMANDS,
    gogui::COMMANDS,
    Ruler::<State>::COMMANDS,
    gnugo::COMMANDS,
    analyze::COMMANDS,
    settings::COMMANDS,
]);

impl GtpState for State {
    fn common(&self) -> &Common<State> {
        &self.common
    }

    fn common_mut(&mut self) -> &mut Common<State> {
        &mut self.common
    }

    fn stream_analysis(&mut self, stream: Stream<'_>) -> Streamed {
        analyze::stream(self, stream)
    }

    fn before_command(&mut self) {
        self.stop_pondering();
    }
}
