//! GoGui's commands in Othello mode: the analyze menu, the interrupt, setup. (GoGui shows
//! Othello through a ruler's `gogui-rules_*` commands; the state exposes what a ruler
//! needs: `rows`, `legal_moves`, `to_move`, `is_over`, `result`.)

use crate::gtp::args::{arity, color};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::othello::Move;
use crate::othello::gtp::args::move_on;
use crate::othello::gtp::state::OthelloState;

pub const COMMANDS: &[Command<OthelloState>] = &[
    command("gogui-analyze_commands", gogui_analyze_commands),
    // GoGui sends `# interrupt` only to engines that know this command.
    command("gogui-interrupt", |_, _| Ok(String::new())),
    command("gogui-setup", gogui_setup),
    command("gogui-setup_player", gogui_setup_player),
];

const ANALYZE_COMMANDS: &[&str] = &[
    "plist/Legal Moves/all_legal %c",
    "string/Final Score/final_score",
    "string/Solve Endgame/shicho-solve",
    "string/Player/shicho-player",
];

fn gogui_analyze_commands(_: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(ANALYZE_COMMANDS.join("\n"))
}

/// `gogui-setup C V C V ...`: discs for the start position, before any move; all or none.
fn gogui_setup(s: &mut OthelloState, args: &[String]) -> Reply {
    if !args.len().is_multiple_of(2) {
        return Err(GtpError::Syntax);
    }
    let mut changes = Vec::with_capacity(args.len() / 2);
    for pair in args.chunks(2) {
        let c = color(&pair[0])?;
        let Move::Play(q) = move_on(s, &pair[1])? else {
            return Err(GtpError::Syntax);
        };
        changes.push((q, Some(c)));
    }
    s.setup(&changes, None)?;
    Ok(String::new())
}

fn gogui_setup_player(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    s.set_to_move(c)?;
    Ok(String::new())
}
