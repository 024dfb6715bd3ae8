//! A game's command table: every command it answers, by family, in the order
//! `list_commands` shows them. Dispatch, `known_command` and `list_commands` all read the
//! same table, so they can never disagree.

use crate::color::Color;
use crate::gtp::games::GameKind;
use crate::gtp::response::Reply;
use crate::search::time::Clock;

/// What the administrative commands need of a game's state: the table of the commands it
/// answers, and a way to ask the engine for another game (`set_game`). Each game (Go,
/// Othello) has its own state type and its own table.
pub trait GtpState: Sized + 'static {
    fn commands(&self) -> &'static CommandTable<Self>;

    /// Asks the engine to play `game` once the running command has answered (the engine
    /// holds the states; a state cannot replace itself).
    fn request_game(&mut self, game: GameKind);

    /// The game asked for by the last command, if any (taken: asked once).
    fn take_game_request(&mut self) -> Option<GameKind>;
}

/// What the time family (`commands::time`) needs of a game's state: its clocks.
pub trait Clocked: 'static {
    /// New time settings: both clocks start afresh.
    fn set_clock(&mut self, clock: Clock);
    /// `time_left`: overrides `c`'s clock.
    fn set_time_left(&mut self, c: Color, time: f64, stones: u32);
}

/// A command handler over the state `S`: `args` are the tokens after the command name.
pub type Handler<S> = fn(&mut S, &[String]) -> Reply;

/// One command: its name and its handler.
pub struct Command<S: 'static> {
    pub name: &'static str,
    pub run: Handler<S>,
}

/// Shorthand for a table row.
pub const fn command<S>(name: &'static str, run: Handler<S>) -> Command<S> {
    Command { name, run }
}

/// The commands of one game, family by family.
pub struct CommandTable<S: 'static> {
    families: &'static [&'static [Command<S>]],
}

impl<S> CommandTable<S> {
    pub const fn new(families: &'static [&'static [Command<S>]]) -> CommandTable<S> {
        CommandTable { families }
    }

    /// The command called `name` (names are case sensitive).
    pub fn find(&self, name: &str) -> Option<&'static Command<S>> {
        self.families
            .iter()
            .flat_map(|f| f.iter())
            .find(|c| c.name == name)
    }

    /// Every command name, in table order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<S> {
        let families = self.families;
        families.iter().flat_map(|f| f.iter().map(|c| c.name))
    }
}
