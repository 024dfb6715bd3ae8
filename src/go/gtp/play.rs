//! Play commands: moves, genmove and its variants, undo, how the engine chooses.

use crate::color::Color;
use crate::go::geometry::VertexError;
use crate::go::gtp::state::State;
use crate::go::search::{DEFAULT_PLAYOUTS, Decision, Player};
use crate::gtp::args::{arity, color, int};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("play", play),
    command("genmove", |s, a| genmove(s, a, false)),
    command("undo", undo),
    command("gg-undo", gg_undo),
    command("reg_genmove", reg_genmove),
    // KGS's cleanup phase: like genmove, but no pass while dead opponent stones are left.
    command("kgs-genmove_cleanup", |s, a| genmove(s, a, true)),
    command("shicho-player", shicho_player),
    command("black", |s, a| play_v1(s, a, Color::Black)),
    command("white", |s, a| play_v1(s, a, Color::White)),
];

/// Plays for `c`, with GTP's error texts: an off-board vertex cannot be played, so it is an
/// illegal move; text that is no vertex at all is a syntax error.
fn play_move(s: &mut State, c: Color, vertex: &str) -> Reply {
    let m = match s.geo().parse_move(vertex) {
        Ok(m) => m,
        Err(VertexError::OffBoard) => return Err(GtpError::IllegalMove),
        Err(VertexError::Syntax) => return Err(GtpError::Syntax),
    };
    s.play(c, m)?;
    Ok(String::new())
}

fn play(s: &mut State, args: &[String]) -> Reply {
    arity(args, 2)?;
    let c = color(&args[0])?;
    play_move(s, c, &args[1])
}

/// GTP version 1's `black V` / `white V`, which GNU Go's older test suites still send.
fn play_v1(s: &mut State, args: &[String], c: Color) -> Reply {
    arity(args, 1)?;
    play_move(s, c, &args[0])
}

fn format_decision(s: &State, decision: Decision) -> String {
    match decision {
        Decision::Resign => "resign".into(),
        Decision::Play(m) => s.geo().format_move(m),
    }
}

fn genmove(s: &mut State, args: &[String], cleanup: bool) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    let decision = s.genmove(c, cleanup);
    Ok(format_decision(s, decision))
}

fn reg_genmove(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    let decision = s.decide(c, true);
    Ok(format_decision(s, decision))
}

/// `shicho-player mcts|heuristic|random [PLAYOUTS]`: how genmove chooses from now on (and,
/// for the tree search, its simulations per move). Without arguments: the current setting.
fn shicho_player(s: &mut State, args: &[String]) -> Reply {
    let (player, playouts) = match args {
        [] => {
            let playouts = s.params().playouts.unwrap_or(DEFAULT_PLAYOUTS);
            return Ok(format!("{} {playouts}", s.player().name()));
        }
        [p] => (p, None),
        [p, n] => (p, Some(int(n)?.max(1) as usize)),
        _ => return Err(GtpError::Syntax),
    };
    s.set_player(player.parse::<Player>().map_err(|_| GtpError::Syntax)?);
    if let Some(n) = playouts {
        s.set_playouts(n);
    }
    Ok(String::new())
}

fn undo(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    s.undo(1)?;
    Ok(String::new())
}

/// GNU Go's `gg-undo [n]`: takes back `n` moves (default 1), all or none.
fn gg_undo(s: &mut State, args: &[String]) -> Reply {
    let n = match args {
        [] => 1,
        [n] => int(n)? as usize,
        _ => return Err(GtpError::Syntax),
    };
    s.undo(n)?;
    Ok(String::new())
}
