//! Fixed positions with reference win rates (`benches/data/positions-*.txt`, made by
//! `scripts/positions` from real games and Pachi's evaluations): the search's mean win-rate
//! error and the positions it gets badly wrong. A fast guide between matches, not a
//! substitute for them.
//!
//! `cargo bench --bench positions [-- FILE...]`; `POSITIONS_PLAYOUTS` (default 20000) sets
//! the simulations per position, `POSITIONS_THREADS` the threads; `POSITIONS_VERBOSE=1`
//! prints every position.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shicho::search::{Params, search};
use shicho::{Color, Game, Rules};

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
    for file in files {
        let positions = load(&file);
        let params = Params {
            playouts: Some(playouts),
            time: None,
            resign_below: 0.0,
            threads,
            tunables: shicho::search::Tunables::from_env(),
        };
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let mut total = 0.0;
        let mut bad = 0;
        let mut sims = 0;
        for (i, p) in positions.iter().enumerate() {
            let r = search(&p.game, p.to_move, &params, i as u64 + 1, &stop);
            let error = (r.winrate - p.reference).abs();
            total += error;
            sims += r.playouts;
            if error > BAD {
                bad += 1;
            }
            if verbose || error > BAD {
                println!(
                    "  {:<6} reference {:5.1}%  shicho {:5.1}%  {}",
                    p.id,
                    p.reference * 100.0,
                    r.winrate * 100.0,
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
            "{file}: {n} positions, {playouts} simulations each, {threads} thread(s): mean win-rate error {:.3}, {bad} off by more than {BAD} ({:.0} simulations/s)",
            total / n.max(1) as f64,
            sims as f64 / secs
        );
    }
}
