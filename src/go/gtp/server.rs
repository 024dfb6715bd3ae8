//! What a server's bridge sends beside play, rules and the clock: KGS's end of a game and
//! its chat, as kgsGtp's documentation describes them. (kgsGtp's rules and time commands
//! are in the `rules` and `time` families, its cleanup genmove in `play`; GTP2OGS, OGS's
//! bridge, sends nothing beyond those.)

use crate::go::gtp::state::State;
use crate::gtp::args::arity;
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("kgs-game_over", kgs_game_over),
    command("kgs-chat", kgs_chat),
];

/// kgsGtp sends `kgs-game_over` when a game ends, by the count or by the opponent leaving:
/// a pondering search would only burn the machine until the next game.
fn kgs_game_over(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    s.stop_pondering();
    log::info!("the server says the game is over");
    Ok(String::new())
}

/// The answer to every chat: kgsGtp sends it back to whoever wrote. One line, since an
/// answer's line breaks would end the GTP response.
pub const CHAT_ANSWER: &str =
    "Hello! I am shicho, a Go program. I cannot chat, but I wish you a good game.";

/// `kgs-chat game|private NAME MESSAGE`: a message from the opponent in a game or from a
/// private chat. kgsGtp sends an error's sender its configured default answer instead, so a
/// malformed line costs nothing.
fn kgs_chat(_: &mut State, args: &[String]) -> Reply {
    match args {
        [place, name, message @ ..] if place == "game" || place == "private" => {
            log::info!("chat ({place}) from {name}: {}", message.join(" "));
            Ok(CHAT_ANSWER.to_string())
        }
        _ => Err(GtpError::Syntax),
    }
}
