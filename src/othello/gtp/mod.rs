//! Othello's GTP commands, one file per family, its state ([`OthelloState`]) and its table
//! ([`OTHELLO`]); the administrative, time and ruler families are the shared ones
//! (`crate::gtp`), generic over the state.
//!
//! Vertices are Othello's (row 1 at the top, no column letter skipped, any case on input);
//! moves are written upper case, a pass as `PASS`. `genmove` answers `PASS` only when the
//! colour has no legal move (Quarry reads nothing but a vertex or `resign`).

pub mod analyze;
pub mod args;
pub mod gogui;
pub mod observe;
pub mod play;
pub mod ruler;
pub mod sgf;
pub mod state;

use crate::gtp::admin::Admin;
use crate::gtp::analysis::{Stream, Streamed};
use crate::gtp::ruler::Ruler;
use crate::gtp::state::{Common, GtpState};
use crate::gtp::table::CommandTable;
use crate::gtp::time::Time;
use crate::othello::gtp::state::OthelloState;

/// The Othello engine's commands, in the order `list_commands` shows them.
pub static OTHELLO: CommandTable<OthelloState> = CommandTable::new(&[
    Admin::<OthelloState>::COMMANDS,
    play::COMMANDS,
    Time::<OthelloState>::COMMANDS,
    observe::COMMANDS,
    sgf::COMMANDS,
    gogui::COMMANDS,
    Ruler::<OthelloState>::COMMANDS,
    analyze::COMMANDS,
]);

impl GtpState for OthelloState {
    fn common(&self) -> &Common<OthelloState> {
        &self.common
    }

    fn common_mut(&mut self) -> &mut Common<OthelloState> {
        &mut self.common
    }

    fn stream_analysis(&mut self, stream: Stream<'_>) -> Streamed {
        analyze::stream(self, stream)
    }
}
