//! GNU Go's tactical commands in its exact formats: `attack`, `defend`, `ladder_attack`,
//! `does_attack`, `does_defend`, the reading stack (`trymove`, `tryko`, `popgo`) and the
//! reading depths; and every chain a ladder captures, for GoGui.

use crate::go::gtp::args::{format_points, gg_move, point, stone};
use crate::go::gtp::state::State;
use crate::go::point::Point;
use crate::go::tactics::{self, Outcome, ladder_captures};
use crate::gtp::args::arity;
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("attack", attack),
    command("defend", defend),
    command("ladder_attack", ladder_attack),
    command("does_attack", |s, a| does(s, a, true)),
    command("does_defend", |s, a| does(s, a, false)),
    command("trymove", |s, a| trymove(s, a, false)),
    command("tryko", |s, a| trymove(s, a, true)),
    command("popgo", popgo),
    command("increase_depths", |s, a| adjust_depths(s, a, true)),
    command("decrease_depths", |s, a| adjust_depths(s, a, false)),
    command("shicho-ladder_captures", ladder_captures_cmd),
];

/// GNU Go's result: `0`, or the code and the move (`PASS` when no move is needed).
fn format_result(s: &State, (outcome, mv): (Outcome, Option<Point>)) -> String {
    match outcome {
        Outcome::Fail => "0".into(),
        _ => format!(
            "{} {}",
            outcome.code(),
            mv.map_or("PASS".into(), |p| s.geo().format_point(p))
        ),
    }
}

fn attack(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = stone(s, &args[0])?;
    Ok(format_result(s, tactics::attack(s.board(), p, s.budget())))
}

fn defend(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = stone(s, &args[0])?;
    Ok(format_result(s, tactics::defend(s.board(), p, s.budget())))
}

fn ladder_attack(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = stone(s, &args[0])?;
    if s.board().liberty_count(p) != 2 {
        return Err(GtpError::NeedsTwoLiberties);
    }
    Ok(format_result(s, tactics::ladder_attack(s.board(), p)))
}

/// `does_attack MOVE V` / `does_defend MOVE V`: the code of that move for that chain.
fn does(s: &mut State, args: &[String], attacking: bool) -> Reply {
    arity(args, 2)?;
    let mv = point(s, &args[0])?;
    let target = point(s, &args[1])?;
    let board = s.board();
    if board.get(mv).is_some() {
        return Err(GtpError::MoveVertexMustBeEmpty);
    }
    if board.get(target).is_none() {
        return Err(GtpError::StringVertexMustNotBeEmpty);
    }
    let outcome = if attacking {
        tactics::does_attack(board, mv, target, s.budget())
    } else {
        tactics::does_defend(board, mv, target, s.budget())
    };
    Ok(outcome.code().to_string())
}

/// GNU Go's `trymove C V` (`tryko`: may retake a ko at once): plays on the reading stack,
/// which the observation and reading commands then look at, until `popgo`. The game itself
/// is untouched.
fn trymove(s: &mut State, args: &[String], ignore_ko: bool) -> Reply {
    let (c, m) = gg_move(s, args)?;
    s.trymove(c, m, ignore_ko)?;
    Ok(String::new())
}

fn popgo(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    s.popgo()?;
    Ok(String::new())
}

fn adjust_depths(s: &mut State, args: &[String], deeper: bool) -> Reply {
    arity(args, 0)?;
    if deeper {
        s.budget_mut().increase_depths();
    } else {
        s.budget_mut().decrease_depths();
    }
    Ok(String::new())
}

/// Every stone of every chain a ladder captures (the attacker moving first).
fn ladder_captures_cmd(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let board = s.board();
    let stones = ladder_captures(board)
        .into_iter()
        .flat_map(|c| board.chain_stones(c.chain).collect::<Vec<_>>());
    Ok(format_points(s.geo(), stones))
}
