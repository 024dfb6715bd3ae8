//! A game's command table: every command it answers, by family, in the order
//! `list_commands` shows them. Dispatch, `known_command` and `list_commands` all read the
//! same table, so they can never disagree.

use crate::gtp::response::Reply;

/// A command handler over the state `S`: `args` are the tokens after the command name.
pub type Handler<S> = fn(&mut S, &[String]) -> Reply;

/// One command: its name, its handler, and when the state offers it.
pub struct Command<S: 'static> {
    pub name: &'static str,
    pub run: Handler<S>,
    /// Whether the state offers the command now; `None`: always. A command not offered is
    /// unknown in that state: not listed, not known, not run (GoGui's ruler commands are
    /// offered on the torus only, so that GoGui keeps its own rules for plane Go).
    pub offered: Option<fn(&S) -> bool>,
}

/// Shorthand for a table row.
pub const fn command<S>(name: &'static str, run: Handler<S>) -> Command<S> {
    Command {
        name,
        run,
        offered: None,
    }
}

/// A row offered only while `offered` says so.
pub const fn command_if<S>(
    name: &'static str,
    run: Handler<S>,
    offered: fn(&S) -> bool,
) -> Command<S> {
    Command {
        name,
        run,
        offered: Some(offered),
    }
}

impl<S> Command<S> {
    /// Whether `s` offers this command now.
    pub fn is_offered(&self, s: &S) -> bool {
        self.offered.is_none_or(|offered| offered(s))
    }
}

/// The commands of one game, family by family.
pub struct CommandTable<S: 'static> {
    families: &'static [&'static [Command<S>]],
}

impl<S> CommandTable<S> {
    pub const fn new(families: &'static [&'static [Command<S>]]) -> CommandTable<S> {
        CommandTable { families }
    }

    /// The command called `name` (names are case sensitive), if `s` offers it now.
    pub fn find(&self, s: &S, name: &str) -> Option<&'static Command<S>> {
        self.rows().find(|c| c.name == name && c.is_offered(s))
    }

    /// The names of the commands `s` offers now, in table order.
    pub fn offered<'a>(&self, s: &'a S) -> impl Iterator<Item = &'static str> + use<'a, S> {
        self.rows().filter(|c| c.is_offered(s)).map(|c| c.name)
    }

    /// Every command name, offered now or not, in table order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<S> {
        self.rows().map(|c| c.name)
    }

    fn rows(&self) -> impl Iterator<Item = &'static Command<S>> + use<S> {
        let families = self.families;
        families.iter().flat_map(|f| f.iter())
    }
}
