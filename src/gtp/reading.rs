//! GNU Go's tactical commands (`attack`, `defend`, `ladder_attack`, `does_attack`,
//! `does_defend`, the reading stack) in its exact formats, and the analyze commands built on
//! the reading and on the move generator.

use crate::color::Color;
use crate::gtp::commands::current_board;
use crate::gtp::engine::{Engine, Handler, Reply, arity, color_arg, errors::*, format_points};
use crate::point::{Move, Point};
use crate::rng::Rng;
use crate::search::heuristic::{self as movegen, Reason};
use crate::tactics::{self, Outcome, ReadingStack, ladder_captures};

pub const COMMANDS: &[(&str, Handler)] = &[
    ("attack", attack),
    ("defend", defend),
    ("ladder_attack", ladder_attack),
    ("does_attack", |e, a| does(e, a, true)),
    ("does_defend", |e, a| does(e, a, false)),
    ("trymove", |e, a| trymove(e, a, false)),
    ("tryko", |e, a| trymove(e, a, true)),
    ("popgo", popgo),
    ("increase_depths", |e, a| adjust_depths(e, a, true)),
    ("decrease_depths", |e, a| adjust_depths(e, a, false)),
    ("shicho-ladder_captures", ladder_captures_cmd),
    ("shicho-explain", explain),
    ("shicho-search", search),
];

/// Analyze entries for GoGui: GoGui's built-in types for GNU Go's reading commands.
pub const ANALYZE_COMMANDS: &[&str] = &[
    "varpo/Attack/attack %p",
    "varp/Defend/defend %p",
    "varpo/Ladder Attack/ladder_attack %p",
    "plist/Ladder Captures/shicho-ladder_captures",
    "gfx/Move Choice/shicho-explain %m",
    "gfx/Search/shicho-search %m",
];

/// GNU Go's result: `0`, or the code and the move (`PASS` when no move is needed).
fn format_result(e: &Engine, (outcome, mv): (Outcome, Option<Point>)) -> String {
    match outcome {
        Outcome::Fail => "0".into(),
        _ => format!(
            "{} {}",
            outcome.code(),
            mv.map_or("PASS".into(), |p| e.geo().format_point(p))
        ),
    }
}

fn attack(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.stone_arg(&args[0])?;
    Ok(format_result(
        e,
        tactics::attack(current_board(e), p, e.budget),
    ))
}

fn defend(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.stone_arg(&args[0])?;
    Ok(format_result(
        e,
        tactics::defend(current_board(e), p, e.budget),
    ))
}

fn ladder_attack(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.stone_arg(&args[0])?;
    if current_board(e).liberty_count(p) != 2 {
        return Err("string must have exactly 2 liberties".into());
    }
    Ok(format_result(
        e,
        tactics::ladder_attack(current_board(e), p),
    ))
}

/// `does_attack MOVE V` / `does_defend MOVE V`: the code of that move for that chain.
fn does(e: &mut Engine, args: &[String], attacking: bool) -> Reply {
    arity(args, 2)?;
    let mv = e.point_arg(&args[0])?;
    let target = e.point_arg(&args[1])?;
    let board = current_board(e);
    if board.get(mv).is_some() {
        return Err("move vertex must be empty".into());
    }
    if board.get(target).is_none() {
        return Err("string vertex must not be empty".into());
    }
    let outcome = if attacking {
        tactics::does_attack(board, mv, target, e.budget)
    } else {
        tactics::does_defend(board, mv, target, e.budget)
    };
    Ok(outcome.code().to_string())
}

/// GNU Go's `trymove C V` (`tryko`: may retake a ko at once): plays on the reading stack,
/// which the observation and reading commands then look at, until `popgo`. The game itself
/// is untouched.
fn trymove(e: &mut Engine, args: &[String], ignore_ko: bool) -> Reply {
    let (c, m) = e.gg_move_args(args)?;
    let suicide_allowed = e.game.rules().suicide_allowed();
    let game_board = e.game.board();
    let stack = e
        .reading
        .get_or_insert_with(|| ReadingStack::new(game_board.clone(), suicide_allowed));
    let tried = if ignore_ko {
        stack.tryko(c, m)
    } else {
        stack.trymove(c, m)
    };
    if stack.depth() == 0 {
        e.reading = None;
    }
    tried
        .map(|()| String::new())
        .map_err(|_| ILLEGAL_MOVE.to_string())
}

fn popgo(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let stack = e
        .reading
        .as_mut()
        .ok_or_else(|| tactics::StackEmpty.to_string())?;
    stack.popgo().map_err(|err| err.to_string())?;
    if stack.depth() == 0 {
        e.reading = None;
    }
    Ok(String::new())
}

fn adjust_depths(e: &mut Engine, args: &[String], deeper: bool) -> Reply {
    arity(args, 0)?;
    if deeper {
        e.budget.increase_depths();
    } else {
        e.budget.decrease_depths();
    }
    Ok(String::new())
}

/// Every stone of every chain a ladder captures (the attacker moving first).
fn ladder_captures_cmd(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let board = current_board(e);
    let stones = ladder_captures(board)
        .into_iter()
        .flat_map(|c| board.chain_stones(c.chain).collect::<Vec<_>>());
    Ok(format_points(e.geo(), stones))
}

/// The engine's move for `c` (the genmove choice) and the reason, as GoGui graphics.
fn explain(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color_arg(&args[0])?;
    let choice = movegen::choose(&e.game, c, &mut Rng::new(movegen::REG_GENMOVE_SEED));
    let reason = match choice.reason {
        Reason::Capture => "capture a chain in atari",
        Reason::Save => "save a chain in atari",
        Reason::Attack => "attack: the atari works (ladder or net)",
        Reason::Defend => "defend a chain that could be captured",
        Reason::Shape => "shape and territory",
        Reason::Pass => "nothing useful left: pass",
    };
    let mv = e.geo().format_move(choice.mv);
    Ok(match choice.mv {
        Move::Play(_) => format!("TRIANGLE {mv}\nTEXT {} {mv}: {reason}", color_name(c)),
        Move::Pass => format!("TEXT {} passes: {reason}", color_name(c)),
    })
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `shicho-search C`: a tree search for `c` (deterministic seed, the engine's playouts) shown
/// as GoGui graphics: win rates (percent) on the most visited moves, the principal
/// variation, and a summary line.
fn search(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color_arg(&args[0])?;
    let r = crate::search::search(
        &e.game,
        c,
        &e.search,
        movegen::REG_GENMOVE_SEED,
        &e.interrupt,
    );
    let geo = e.geo();
    let labels: Vec<String> = r
        .candidates
        .iter()
        .filter(|k| k.visits > 0 && k.mv != Move::Pass)
        .take(10)
        .map(|k| format!("{} {:.0}", geo.format_move(k.mv), k.winrate * 100.0))
        .collect();
    let mut colour = c;
    let mut var = Vec::new();
    for &m in &r.pv {
        var.push(format!(
            "{} {}",
            colour.letter().to_ascii_lowercase(),
            geo.format_move(m)
        ));
        colour = colour.other();
    }
    let mut out = Vec::new();
    if !labels.is_empty() {
        out.push(format!("LABEL {}", labels.join(" ")));
    }
    if !var.is_empty() {
        out.push(format!("VAR {}", var.join(" ")));
    }
    let best = match r.decision {
        crate::search::Decision::Resign => "resign".to_string(),
        crate::search::Decision::Play(m) => geo.format_move(m),
    };
    out.push(format!(
        "TEXT {} playouts in {:.2}s: {} {best} wins {:.1}%",
        r.playouts,
        r.elapsed.as_secs_f64(),
        color_name(c),
        r.winrate * 100.0
    ));
    Ok(out.join("\n"))
}
