//! Fixed positions with reference win rates (`benches/data/positions-*.txt`, made by
//! `scripts/positions` from real games and Pachi's evaluations): the search's mean win-rate
//! error and the positions it gets badly wrong. A fast guide between matches, not a
//! substitute for them.
//!
//! `cargo bench --bench positions [-- FILE...]`; `POSITIONS_PLAYOUTS` (default 20000) sets
//! the simulations per position, `POSITIONS_THREADS` the threads; `POSITIONS_VERBOSE=1`
//! prints every position; `POSITIONS_SEEDS=K` searches each position K times with different
//! seeds (a search's choice can turn on its seed). `POSITIONS_MODE=playouts` scores the
//! playout policy alone: each position's win rate is the share of `POSITIONS_PLAYOUTS`
//! policy playouts won, no tree.
//!
//! A position may name moves before its move list: `best=V`, the reference engine's choice,
//! and `lost=V`, the move shicho played there in a game that the reference judged a clear
//! loss (`scripts/positions blunders`). The search's own choice is then scored too: how often
//! it finds the reference's move and how often it repeats the game's mistake.

#[path = "../tests/position_file/mod.rs"]
mod position_file;

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use position_file::PositionLine;
use shicho::go::search::playout::Recent;
use shicho::go::search::playout::policy::{Policy, policy_playout};
use shicho::go::search::{Decision, Params, search};
use shicho::{Color, Rng, go::score};

/// A win-rate error above this counts as a position gotten badly wrong.
const BAD: f64 = 0.4;

/// A position with a reference win rate (lines with `-` for it are not scored here).
struct Position {
    line: PositionLine,
    reference: f64,
}

fn load(path: &str) -> Vec<Position> {
    position_file::read(Path::new(path))
        .unwrap_or_else(|problem| panic!("{problem}"))
        .into_iter()
        .filter_map(|line| line.reference.map(|reference| Position { line, reference }))
        .collect()
}

fn main() {
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let files = if files.is_empty() {
        vec![
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/benches/data/positions-9x9.txt"
            )
            .to_string(),
        ]
    } else {
        files
    };
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let playouts = env("POSITIONS_PLAYOUTS", 20_000);
    let threads = env("POSITIONS_THREADS", 1);
    let verbose = env("POSITIONS_VERBOSE", 0) > 0;
    let seeds = env("POSITIONS_SEEDS", 1).max(1);
    let playouts_only = std::env::var("POSITIONS_MODE").is_ok_and(|m| m == "playouts");
    for file in files {
        let positions = load(&file);
        let params = Params {
            playouts: Some(playouts),
            time: None,
            resign_below: 0.0,
            threads,
            tunables: shicho::go::search::Tunables::from_env(),
            ..Params::default()
        };
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let mut total = 0.0;
        let mut bad = 0;
        let mut sims = 0;
        let (mut named, mut found, mut repeated) = (0, 0, 0);
        // The first round keeps the seeds a single round has always used.
        let count = positions.len();
        let runs = (0..seeds).flat_map(|round| {
            positions
                .iter()
                .enumerate()
                .map(move |(i, p)| ((round * count + i) as u64 + 1, p))
        });
        for (seed, p) in runs {
            let (winrate, simulations, choice) = if playouts_only {
                (playout_winrate(p, &params, playouts, seed), playouts, None)
            } else {
                let r = search(&p.line.game, p.line.to_move, &params, seed, &stop);
                let choice = match r.decision {
                    Decision::Play(m) => Some(m),
                    Decision::Resign => None,
                };
                (r.winrate, r.playouts, choice)
            };
            if p.line.best.is_some() && choice.is_some() {
                named += 1;
                found += usize::from(choice == p.line.best);
                repeated += usize::from(choice == p.line.lost);
            }
            let error = (winrate - p.reference).abs();
            total += error;
            sims += simulations;
            if error > BAD {
                bad += 1;
            }
            if verbose || error > BAD {
                let geo = p.line.game.geometry();
                let choice = match (choice, p.line.best) {
                    (Some(m), Some(best)) => format!(
                        "  plays {} (reference {}, game {})",
                        geo.format_move(m),
                        geo.format_move(best),
                        p.line.lost.map_or("-".to_string(), |l| geo.format_move(l))
                    ),
                    _ => String::new(),
                };
                println!(
                    "  {:<6} reference {:5.1}%  shicho {:5.1}%{choice}  {}",
                    p.line.id,
                    p.reference * 100.0,
                    winrate * 100.0,
                    if error > BAD {
                        "off by more than 40"
                    } else {
                        ""
                    }
                );
            }
        }
        let n = count * seeds;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{file}: {} positions{}, {playouts} {} each, {threads} thread(s): mean win-rate error {:.3}, {bad} off by more than {BAD} ({:.0} simulations/s)",
            count,
            if seeds > 1 {
                format!(" x {seeds} seeds")
            } else {
                String::new()
            },
            if playouts_only {
                "playouts (no tree)"
            } else {
                "simulations"
            },
            total / n.max(1) as f64,
            sims as f64 / secs
        );
        if named > 0 {
            println!(
                "  of the {named} with the reference's move: found it in {found}, repeated the game's move in {repeated}"
            );
        }
    }
}

/// The share of `playouts` policy playouts from `p` that its side to move wins.
fn playout_winrate(p: &Position, params: &Params, playouts: usize, seed: u64) -> f64 {
    let start = p.line.game.board();
    let mut board = start.clone();
    let mut rng = Rng::new(seed);
    let mut recent = Recent::new(start);
    let mut policy = Policy::new(params.tunables.policy);
    let mut won = 0;
    for _ in 0..playouts {
        board.clone_from(start);
        policy_playout(
            &mut board,
            p.line.to_move,
            &mut rng,
            &mut recent,
            &mut policy,
        );
        let black_ahead = score::area_margin(&board, p.line.game.komi()) > 0.0;
        won += usize::from(black_ahead == (p.line.to_move == Color::Black));
    }
    won as f64 / playouts.max(1) as f64
}
