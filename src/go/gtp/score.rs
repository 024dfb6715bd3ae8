//! Scoring commands: the final score and the status of every chain, with dead stones and
//! seki estimated by playouts (`search::dead_stones`).

use crate::go::gtp::args::format_points;
use crate::go::gtp::state::State;
use crate::go::point::Point;
use crate::go::search::dead_stones::{self, LifeAndDeath};
use crate::gtp::args::arity;
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("final_score", final_score),
    command("final_status_list", final_status_list),
];

/// The estimate for the game's position, the player to move moving first.
fn estimate(s: &State) -> LifeAndDeath {
    let game = s.game();
    dead_stones::estimate(
        game.board(),
        game.to_move(),
        game.rules().suicide_allowed(),
        &s.params().tunables,
    )
}

fn final_score(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let dead = estimate(s).dead_stones();
    let score = s.game().score(&dead);
    if !score.margin().is_finite() {
        return Err(GtpError::CannotScore);
    }
    Ok(score.to_string())
}

/// One chain per line, as GNU Go prints it.
fn final_status_list(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let status = estimate(s);
    let chains = match args[0].as_str() {
        "alive" => status.alive,
        "dead" => status.dead,
        "seki" => status.seki,
        _ => return Err(GtpError::Syntax),
    };
    let geo = s.geo();
    let mut lines: Vec<(Point, String)> = chains
        .into_iter()
        .map(|chain| {
            let mut sorted = chain.clone();
            geo.sort_reading_order(&mut sorted);
            (sorted[0], format_points(geo, chain))
        })
        .collect();
    lines.sort_by_key(|(p, _)| {
        let (x, y) = geo.xy(*p);
        (std::cmp::Reverse(y), x)
    });
    Ok(lines
        .into_iter()
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n"))
}
