//! Othello's observation commands: the board, the score, legality, discs; the exact
//! endgame solver and perft.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::color::Color;
use crate::gtp::args::{arity, gg_color, int};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::gtp::time::cputime;
use crate::othello::gtp::args::{format_squares, gg_move, square};
use crate::othello::gtp::state::{DEFAULT_SOLVE_EMPTIES, OthelloState, format_move};
use crate::othello::{Limits, Progress, SolveError, SolveOptions, solve_with};

pub const COMMANDS: &[Command<OthelloState>] = &[
    command("showboard", showboard),
    command("final_score", final_score),
    command("list_stones", list_stones),
    command("color", color),
    command("is_legal", is_legal),
    command("all_legal", all_legal),
    command("cputime", cputime),
    command("shicho-solve", shicho_solve),
    command("shicho-perft", shicho_perft),
];

/// `shicho-perft` goes no deeper: 8x8 at depth 12 counts two billion sequences (minutes),
/// and the count cannot be interrupted.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// `shicho-solve` takes no limit above this: the solver would run for ever.
pub const MAX_SOLVE_EMPTIES: u32 = 40;

fn showboard(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(format!("\n{}", s.game()))
}

/// The discs on the board now: `B+N`, `W+N` or `0` (the result, once the game is over).
fn final_score(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.result())
}

fn list_stones(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color(&args[0])?;
    let board = s.board();
    Ok(format_squares(
        board.squares().filter(|&q| board.get(q) == Some(c)),
    ))
}

fn color(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let q = square(s, &args[0])?;
    Ok(s.board().get(q).map_or("empty", Color::name).to_string())
}

/// Whether C could play V were it C's turn: a disc that flips, or a pass when C has no
/// disc move and the game is not over.
fn is_legal(s: &mut OthelloState, args: &[String]) -> Reply {
    let (c, mv) = gg_move(s, args)?;
    Ok(if s.game().is_legal(c, mv) { "1" } else { "0" }.into())
}

/// Every square C could play on were it C's turn, in reading order.
fn all_legal(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color(&args[0])?;
    if s.is_over() {
        return Ok(String::new());
    }
    Ok(format_squares(s.board().legal_moves(c)))
}

/// `shicho-solve [MAX_EMPTIES]`: the best move for the side to move and the final disc
/// difference with perfect play, empty squares to the winner (`C7 +36`), when at most
/// MAX_EMPTIES squares are empty (default `DEFAULT_SOLVE_EMPTIES`). GoGui's interrupt
/// stops it without an answer.
fn shicho_solve(s: &mut OthelloState, args: &[String]) -> Reply {
    let limit = match args {
        [] => DEFAULT_SOLVE_EMPTIES,
        [n] => int(n)?,
        _ => return Err(GtpError::Syntax),
    };
    if limit > MAX_SOLVE_EMPTIES {
        return Err(GtpError::TooLarge {
            limit: MAX_SOLVE_EMPTIES,
        });
    }
    // A finished game has nothing left to search, however many squares are empty.
    let limit = if s.is_over() {
        limit.max(s.board().empties())
    } else {
        limit
    };
    let interrupt = s.interrupt_flag();
    let stop: &AtomicBool = &interrupt;
    let options = SolveOptions {
        threads: s.solve_threads(),
        ..SolveOptions::default()
    };
    let solution = solve_with(
        s.board(),
        s.to_move(),
        limit,
        &Limits::default(),
        stop,
        &options,
        &mut progress_on_stderr,
    )
    .map_err(|e| match e {
        SolveError::TooManyEmpties { empties, limit } => {
            GtpError::TooManyEmpties { empties, limit }
        }
        SolveError::Interrupted => GtpError::Interrupted,
    })?;
    log::info!(
        "solved in {} nodes, {:.2}s",
        solution.nodes,
        solution.elapsed.as_secs_f64()
    );
    let sign = if solution.score > 0 { "+" } else { "" };
    Ok(format!(
        "{} {sign}{}",
        format_move(solution.best),
        solution.score
    ))
}

/// A long solve says on stderr, after each move at the root, where it stands (GoGui shows
/// it in its shell window): from `PROGRESS_AFTER` on. Written directly rather than through
/// `log`, whose default filter shows warnings only: this is output the user asked for.
fn progress_on_stderr(p: &Progress) {
    if p.elapsed < PROGRESS_AFTER {
        return;
    }
    let value = if p.at_most {
        format!("<= {:+}", p.value)
    } else if p.at_least {
        format!(">= {:+}", p.value)
    } else {
        format!("{:+}", p.value)
    };
    eprintln!(
        "shicho-solve: {} empties, move {}/{} {} {value}, best {} {:+}, {} nodes, {:.1} s",
        p.empties,
        p.done,
        p.moves,
        format_move(p.searched),
        format_move(p.best),
        p.best_score,
        p.nodes,
        p.elapsed.as_secs_f64()
    );
}

/// A solve reports its progress once it has run this long.
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// `shicho-perft N`: the number of move sequences of N plies from here, a forced pass
/// counting as a ply and nothing after two passes in a row.
fn shicho_perft(s: &mut OthelloState, args: &[String]) -> Reply {
    arity(args, 1)?;
    let depth = int(&args[0])?;
    if depth > MAX_PERFT_DEPTH {
        return Err(GtpError::TooLarge {
            limit: MAX_PERFT_DEPTH,
        });
    }
    Ok(s.game().perft(depth).to_string())
}
