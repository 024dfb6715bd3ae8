//! Administrative commands: the protocol, the engine's name and version, the command list.

use crate::gtp::commands::args::arity;
use crate::gtp::commands::command_table::{Command, command};
use crate::gtp::response::Reply;
use crate::gtp::state::State;

pub const COMMANDS: &[Command<State>] = &[
    command("protocol_version", |_, a| arity(a, 0).map(|()| "2".into())),
    command("name", |_, a| arity(a, 0).map(|()| "shicho".into())),
    command("version", |_, a| {
        arity(a, 0).map(|()| env!("CARGO_PKG_VERSION").into())
    }),
    command("known_command", known_command),
    command("list_commands", list_commands),
    // The session ends after answering; see `Engine::handle`.
    command("quit", |_, _| Ok(String::new())),
];

fn known_command(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    Ok(s.commands().find(&args[0]).is_some().to_string())
}

fn list_commands(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.commands().names().collect::<Vec<_>>().join("\n"))
}
