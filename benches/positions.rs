//! Fixed positions with reference win rates (`benches/data/positions-*.txt`, made by
//! `scripts/positions` from real games and Pachi's evaluations): the search's mean win-rate
//! error and the positions it gets badly wrong. A fast guide between matches, not a
//! substitute for them.
//!
//! `cargo bench --bench positions [-- FILE...]`; `POSITIONS_PLAYOUTS` (default 20000) sets
//! the simulations per position, `POSITIONS_THREADS` the threads; `POSITIONS_VERBOSE=1`
//! prints every position. `POSITIONS_MODE=playouts` scores the playout policy alone: each
//! position's win rate is the share of `POSITIONS_PLAYOUTS` policy playouts won, no tree.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shicho::search::playout::Recent;
use shicho::search::policy::{Policy, policy_playout};
use shicho::search::{Params, search};
use shicho::{Color, Game, Rng, Rules, score};

/// A win-rate error above this counts as a position gotten badly wrong.
const BAD: f64 = 0.4;

struct Position {
    id: String,
    game: Game,
    to_move: Color,
    reference: f64,
}

fn load(path: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let size: usize = f[1].parse().expect("size");
        let komi: f64 = f[2].parse().expect("komi");
        let to_move = if f[3] == "b" {
            Color::Black
        } else {
            Color::White
        };
        let Ok(reference) = f[4].parse::<f64>() else {
            continue;
        };
        let mut game = Game::new(size, Rules::default(), komi).expect("size");
        let mut c = Color::Black;
        for v in &f[6..] {
            let m = game.geometry().parse_move(v).expect("vertex");
            game.play(c, m)
                .unwrap_or_else(|e| panic!("{}: {v}: {e}", f[0]));
            c = c.other();
        }
        out.push(Position {
            id: f[0].to_string(),
            game,
            to_move,
            reference: reference / 100.0,
        });
    }
    out
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
    let playouts_only = std::env::var("POSITIONS_MODE").is_ok_and(|m| m == "playouts");
    for file in files {
        let positions = load(&file);
        let params = Params {
            playouts: Some(playouts),
            time: None,
            resign_below: 0.0,
            threads,
            tunables: shicho::search::Tunables::from_env(),
            ..Params::default()
        };
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let mut total = 0.0;
        let mut bad = 0;
        let mut sims = 0;
        for (i, p) in positions.iter().enumerate() {
            let (winrate, simulations) = if playouts_only {
                (
                    playout_winrate(p, &params, playouts, i as u64 + 1),
                    playouts,
                )
            } else {
                let r = search(&p.game, p.to_move, &params, i as u64 + 1, &stop);
                (r.winrate, r.playouts)
            };
            let error = (winrate - p.reference).abs();
            total += error;
            sims += simulations;
            if error > BAD {
                bad += 1;
            }
            if verbose || error > BAD {
                println!(
                    "  {:<6} reference {:5.1}%  shicho {:5.1}%  {}",
                    p.id,
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
        let n = positions.len();
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{file}: {n} positions, {playouts} {} each, {threads} thread(s): mean win-rate error {:.3}, {bad} off by more than {BAD} ({:.0} simulations/s)",
            if playouts_only {
                "playouts (no tree)"
            } else {
                "simulations"
            },
            total / n.max(1) as f64,
            sims as f64 / secs
        );
    }
}

/// The share of `playouts` policy playouts from `p` that its side to move wins.
fn playout_winrate(p: &Position, params: &Params, playouts: usize, seed: u64) -> f64 {
    let start = p.game.board();
    let mut board = start.clone();
    let mut rng = Rng::new(seed);
    let mut recent = Recent::new(start);
    let mut policy = Policy::new(params.tunables.policy);
    let mut won = 0;
    for _ in 0..playouts {
        board.clone_from(start);
        policy_playout(&mut board, p.to_move, &mut rng, &mut recent, &mut policy);
        let black_ahead = score::area_margin(&board, p.game.komi()) > 0.0;
        won += usize::from(black_ahead == (p.to_move == Color::Black));
    }
    won as f64 / playouts.max(1) as f64
}
