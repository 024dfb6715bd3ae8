//! Othello's play commands: the board, moves, genmove and its variants, undo, the player.

use crate::gtp::args::{arity, color, float, int};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::othello::PlayerKind;
use crate::othello::gtp::args::move_on;
use crate::othello::gtp::state::{OthelloState, format_move};

pub const COMMANDS: &[Command<OthelloState>] = &[
    command("boardsize", boardsize),
    command("clear_board", clear_board),
    // Othello has no komi; Edax-style controllers send it anyway.
    command("komi", |_, a| {
        arity(a, 1)?;
        float(&a[0]).map(|_| String::new())
    }),
    command("play", play),
    command("genmove", genmove),
    command("reg_genmove", reg_genmove),
    command("undo", undo),
    command("shicho-player", shicho_player),
];

/// `boardsize N`: a new game on N x N, N even from 4 to 26.
fn boardsize(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let size = int(&args[0])?;
    s.resize(size as usize)?;
    Ok(String::new())
}

fn clear_board(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 0)?;
    s.clear();
    Ok(String::new())
}

/// `play C V`: C's move, whoever is to move when the other side must pass.
fn play(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 2)?;
    let c = color(&args[0])?;
    let mv = move_on(s, &args[1])?;
    s.play(c, mv)?;
    Ok(String::new())
}

fn genmove(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    s.genmove(c).map(format_move)
}

fn reg_genmove(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    s.reg_genmove(c).map(format_move)
}

fn undo(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 0)?;
    s.undo().map_err(|_| GtpError::CannotUndo)?;
    Ok(String::new())
}

/// `shicho-player [searcher|greedy|random]`: how genmove chooses from now on; without an
/// argument, the current player.
fn shicho_player(s: &mut OthelloState, args: &[String]) -> Reply {
    match args {
        [] => Ok(s.player().name().to_string()),
        [p] => {
            let player: PlayerKind = p.parse().map_err(|_| GtpError::Syntax)?;
            s.set_player(player);
            Ok(String::new())
        }
        _ => Err(GtpError::Syntax),
    }
}
