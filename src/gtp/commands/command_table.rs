//! A game's command table: every command it answers, by family, in the order
//! `list_commands` shows them. Dispatch, `known_command` and `list_commands` all read the
//! same table, so they can never disagree.

use crate::gtp::response::Reply;

/// What the administrative commands need of a game's state: the table of the commands it
/// answers. Each game (Go now; Othello next) has its own state type and its own table.
pub trait GtpState: Sized + 'static {
    fn commands(&self) -> &'static CommandTable<Self>;
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
