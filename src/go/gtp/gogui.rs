//! GoGui's commands: the analyze menu, the window title, move sequences and setup.

use crate::go::board::Board;
use crate::go::game::Game;
use crate::go::gtp::args::move_pairs;
use crate::go::gtp::state::State;
use crate::go::point::Move;
use crate::go::score::format_points;
use crate::gtp::args::{arity, color};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("gogui-analyze_commands", gogui_analyze_commands),
    // GoGui sends `# interrupt` only to engines that know this command; the session
    // listens for it (see `session`).
    command("gogui-interrupt", |_, _| Ok(String::new())),
    command("gogui-title", gogui_title),
    command("gogui-play_sequence", gogui_play_sequence),
    command("gogui-setup", gogui_setup),
    command("gogui-setup_player", gogui_setup_player),
];

/// GoGui's analyze menu: `type/label/command`, one per line; GoGui's built-in types for
/// GNU Go's reading commands.
const ANALYZE_COMMANDS: &[&str] = &[
    "plist/Liberties/findlib %p",
    "string/Liberty Count/countlib %p",
    "plist/Chain Stones/shicho-chain_stones %p",
    "plist/Legal Moves/all_legal %c",
    "string/Zobrist Hash/shicho-hash",
    "dboard/Ownership/shicho-ownership",
    "plist/Dead Stones/final_status_list dead",
    "plist/Seki Stones/final_status_list seki",
    "string/Final Score/final_score",
    "string/Rules/shicho-rules",
    "none/Shift Torus View/shicho-shift %s",
    "varpo/Attack/attack %p",
    "varp/Defend/defend %p",
    "varpo/Ladder Attack/ladder_attack %p",
    "plist/Ladder Captures/shicho-ladder_captures",
    "gfx/Move Choice/shicho-explain %m",
    "gfx/Search/shicho-search %m",
];

fn gogui_analyze_commands(_: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(ANALYZE_COMMANDS.join("\n"))
}

fn gogui_title(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let g = s.game();
    Ok(format!(
        "shicho {}x{} {} komi {}",
        g.size(),
        g.size(),
        g.rules(),
        format_points(g.komi())
    ))
}

/// `gogui-play_sequence C V C V ...`: all the moves, or none of them.
fn gogui_play_sequence(s: &mut State, args: &[String]) -> Reply {
    let moves = move_pairs(s, args)?;
    s.play_all(&moves)?;
    Ok(String::new())
}

/// `gogui-setup C V C V ...`: setup stones for the start position, before any move; all
/// or none.
fn gogui_setup(s: &mut State, args: &[String]) -> Reply {
    let stones = move_pairs(s, args)?;
    if s.game().history_len() != 0 {
        return Err(GtpError::BoardNotEmpty);
    }
    let mut cells = s.game().board().cells().to_vec();
    for (c, m) in stones {
        let Move::Play(p) = m else {
            return Err(GtpError::Syntax);
        };
        cells[p.index()] = Some(c);
    }
    let board = Board::from_stones(s.geo(), &cells).map_err(|_| GtpError::IllegalMove)?;
    let g = s.game();
    let game = Game::with_position(board, g.to_move(), g.rules(), g.komi());
    s.replace_game(game);
    Ok(String::new())
}

fn gogui_setup_player(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    if s.set_start_player(c) {
        Ok(String::new())
    } else {
        Err(GtpError::MovesPlayed)
    }
}
