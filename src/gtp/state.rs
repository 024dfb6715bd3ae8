//! What every game's GTP state holds alike ([`Common`]) and what the shared families ask of
//! a game's state ([`GtpState`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::clock::Clock;
use crate::game::GameKind;
use crate::gtp::analysis::{Stream, Streamed};
use crate::gtp::table::CommandTable;

/// The part of a game's GTP state that does not depend on the game.
pub struct Common<S: 'static> {
    /// The commands the state answers.
    pub commands: &'static CommandTable<S>,
    /// Both players' clocks (the time family sets them).
    pub clock: Clock,
    /// The flag GoGui's interrupt raises; one for the engine, shared by every game's state.
    pub interrupt: Arc<AtomicBool>,
    /// What `version` answers: shicho's own version, unless `--override-version` names
    /// another.
    pub version: String,
    /// The game `set_game` asked for, until the engine takes the request.
    game_request: Option<GameKind>,
}

impl<S> Common<S> {
    pub fn new(
        commands: &'static CommandTable<S>,
        interrupt: Arc<AtomicBool>,
        version: &str,
    ) -> Common<S> {
        Common {
            commands,
            clock: Clock::default(),
            interrupt,
            version: version.to_string(),
            game_request: None,
        }
    }

    /// Asks the engine to play `game` once the running command has answered (the engine
    /// holds the states; a state cannot replace itself).
    pub fn request_game(&mut self, game: GameKind) {
        self.game_request = Some(game);
    }

    /// The game asked for by the last command, if any (taken: asked once).
    pub fn take_game_request(&mut self) -> Option<GameKind> {
        self.game_request.take()
    }

    /// Whether GoGui asked the running command to stop.
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }
}

/// A game's GTP state, as the engine and the shared families (`admin`, `time`, `ruler`)
/// drive it.
pub trait GtpState: Sized + 'static {
    fn common(&self) -> &Common<Self>;

    fn common_mut(&mut self) -> &mut Common<Self>;

    /// Runs an analysis command to completion: `=id`, a report every interval, the empty
    /// line once the stream says new input is waiting.
    fn stream_analysis(&mut self, stream: Stream<'_>) -> Streamed;

    /// Called before every command: stops whatever the state does in the background (Go's
    /// search on the opponent's time).
    fn before_command(&mut self) {}
}
