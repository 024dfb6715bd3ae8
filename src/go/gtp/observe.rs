//! Observation commands, in GNU Go's names and formats. They look at the top of the
//! reading stack when `trymove` has played on it (see `gnugo`).

use crate::color::Color;
use crate::go::geometry::Topology;
use crate::go::gtp::args::{format_points, gg_move, point, stone};
use crate::go::gtp::state::State;
use crate::go::point::{Move, Point};
use crate::go::score::format_points as format_score;
use crate::go::search::dead_stones;
use crate::gtp::args::{arity, gg_color};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::gtp::time::cputime;

pub const COMMANDS: &[Command<State>] = &[
    command("showboard", showboard),
    command("shicho-shift", shicho_shift),
    command("list_stones", list_stones),
    command("color", color),
    command("is_legal", is_legal),
    command("all_legal", all_legal),
    command("captures", captures),
    command("countlib", countlib),
    command("findlib", findlib),
    command("cputime", cputime),
    command("shicho-chain_stones", chain_stones),
    command("shicho-hash", hash),
    command("shicho-ownership", ownership),
];

fn showboard(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let board = s.board();
    let (dx, dy) = s.view_shift();
    let mut out = String::from("\n");
    out.push_str(&board.diagram_shifted(dx, dy));
    let g = s.game();
    out.push_str(&format!(
        "\nrules {} komi {}, {} to move, captures: black {} white {}",
        g.rules(),
        format_score(g.komi()),
        g.to_move(),
        board.captures(Color::Black),
        board.captures(Color::White)
    ));
    if let Some(ko) = board.ko() {
        out.push_str(&format!(
            ", ko at {} (banned for {})",
            s.geo().format_point(ko.point),
            ko.banned
        ));
    }
    if s.geo().topology() == Topology::Torus && (dx, dy) != (0, 0) {
        out.push_str(&format!(", view shifted by {dx} {dy}"));
    }
    Ok(out)
}

/// `shicho-shift DX DY`: draw the torus so that the point (DX, DY) columns/rows to the right
/// and up sits in the lower left corner. It changes only what showboard draws.
fn shicho_shift(s: &mut State, args: &[String]) -> Reply {
    if s.geo().topology() != Topology::Torus {
        return Err(GtpError::NotATorus);
    }
    let n = s.geo().size() as i64;
    let shift = |text: &str| -> Result<usize, GtpError> {
        let v: i64 = text.parse().map_err(|_| GtpError::Syntax)?;
        Ok(v.rem_euclid(n) as usize)
    };
    let view = match args {
        [dx, dy] => (shift(dx)?, shift(dy)?),
        // GoGui's `%s` sends the two numbers as one argument only if quoted; accept "DX,DY".
        [both] => match both.split_once(',') {
            Some((dx, dy)) => (shift(dx)?, shift(dy)?),
            None => return Err(GtpError::Syntax),
        },
        _ => return Err(GtpError::Syntax),
    };
    s.set_view_shift(view);
    Ok(String::new())
}

fn list_stones(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color(&args[0])?;
    let board = s.board();
    Ok(format_points(
        s.geo(),
        s.geo().points().filter(|&p| board.get(p) == Some(c)),
    ))
}

fn color(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = point(s, &args[0])?;
    Ok(s.board().get(p).map_or("empty", Color::name).to_string())
}

fn is_legal(s: &mut State, args: &[String]) -> Reply {
    let (c, m) = gg_move(s, args)?;
    Ok(if s.is_legal(c, m) { "1" } else { "0" }.into())
}

fn all_legal(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color(&args[0])?;
    let legal: Vec<Point> = s
        .geo()
        .points()
        .filter(|&p| s.is_legal(c, Move::Play(p)))
        .collect();
    Ok(format_points(s.geo(), legal))
}

fn captures(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color(&args[0])?;
    Ok(s.board().captures(c).to_string())
}

fn countlib(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = stone(s, &args[0])?;
    Ok(s.board().liberty_count(p).to_string())
}

fn findlib(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = stone(s, &args[0])?;
    Ok(format_points(s.geo(), s.board().liberties(p)))
}

fn chain_stones(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = stone(s, &args[0])?;
    Ok(format_points(s.geo(), s.board().chain_stones(p)))
}

fn hash(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(format!(
        "stones {:016x} situation {:016x}",
        s.board().hash(),
        s.game().state_hash()
    ))
}

/// Monte-Carlo ownership as a GoGui `dboard`: +1 Black's, -1 White's, top row first.
fn ownership(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let own = dead_stones::ownership(
        s.game().board(),
        s.game().to_move(),
        dead_stones::OWNERSHIP_PLAYOUTS,
        dead_stones::OWNERSHIP_SEED,
        &s.params().tunables,
    );
    let n = s.geo().size();
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|y| {
            (0..n)
                .map(|x| format!("{:.2}", own[y * n + x]))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Ok(rows.join("\n"))
}
