//! Administrative commands: the protocol, the engine's name and version, the command list,
//! the games. They work for any game's state ([`GtpState`]): `list_commands` and
//! `known_command` read the table of the game being played; `set_game` asks the engine to
//! switch (it holds the states).

use std::marker::PhantomData;

use crate::game::GameKind;
use crate::gtp::args::arity;
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::state::GtpState;
use crate::gtp::table::{Command, command};

/// The administrative family for the state type `S`.
pub struct Admin<S>(PhantomData<S>);

impl<S: GtpState> Admin<S> {
    pub const COMMANDS: &'static [Command<S>] = &[
        command("protocol_version", |_, a| arity(a, 0).map(|()| "2".into())),
        command("name", |_, a| arity(a, 0).map(|()| "shicho".into())),
        command("version", |s, a| {
            arity(a, 0).map(|()| s.common().version.clone())
        }),
        command("known_command", known_command::<S>),
        command("list_commands", list_commands::<S>),
        // The session ends after answering; see `Engine::handle`.
        command("quit", |_, _| Ok(String::new())),
        command("list_games", list_games::<S>),
        command("set_game", set_game::<S>),
    ];
}

fn known_command<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 1)?;
    Ok(s.common().commands.find(s, &args[0]).is_some().to_string())
}

fn list_commands<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.common()
        .commands
        .offered(s)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The games, one per line (Quarry and Edax read the list this way).
fn list_games<S: GtpState>(_: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(GameKind::ALL.map(GameKind::name).join("\n"))
}

/// `set_game Othello|Go`, any case: the game to play from the next command on. Switching
/// to the other game starts it afresh on its board size; naming the game being played
/// changes nothing.
fn set_game<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 1)?;
    let game: GameKind = args[0].parse().map_err(|_| GtpError::UnsupportedGame)?;
    s.common_mut().request_game(game);
    Ok(String::new())
}
