//! Tree-search speed: simulations per second of a full search (tree, priors, playouts) on
//! 9x9 and 19x19 positions, on one and two threads, beside Pachi's on the same positions in
//! the same run when Pachi is at hand (`PACHI`, default `../shared/peers/pachi/pachi`).
//!
//! Each size has two rows: the empty board, and ten positions from real games (every tenth
//! or twentieth line of `benches/data/positions-*.txt`, from the opening to the yose), whose
//! rate is all their simulations over all their time. The games' row is the one to quote:
//! a game's positions cost more a simulation than the positions a quick heuristic game
//! reaches (which an earlier version of this bench used, and which flattered shicho:
//! doc/strength.md).
//!
//! `cargo bench --bench search` (release). `SEARCH_PLAYOUTS_9` and `SEARCH_PLAYOUTS_19` set
//! the simulations per search (defaults 20,000 and 5,000); `SEARCH_WEIGHTS` the network
//! (`--weights`: builtin, none or a file; default the engine's), `SEARCH_PRECISION` its
//! precision (`--net-precision`: f32, bf16 or int8; default f32). Run it on a quiet
//! machine: the two-thread figure needs both cores.

#[path = "../tests/position_file/mod.rs"]
mod position_file;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shicho::go::network::direct::Precision;
use shicho::go::search::{DEFAULT_WEIGHTS, Network, Params, search};
use shicho::{Color, Game, Rules};

/// Positions timed together as one row of the table.
struct Row {
    name: String,
    size: usize,
    positions: Vec<(Game, Color)>,
}

fn empty(size: usize) -> Row {
    Row {
        name: format!("{size}x{size} empty"),
        size,
        positions: vec![(
            Game::new(size, Rules::default(), 7.5).expect("size"),
            Color::Black,
        )],
    }
}

/// Every `step`th position of a file of real-game positions, ten at most.
fn from_games(size: usize, file: &str, step: usize) -> Row {
    let positions = position_file::bench_positions(file, step);
    Row {
        name: format!("{size}x{size} games ({})", positions.len()),
        size,
        positions,
    }
}

/// Pachi's simulations per second on the position, from its own report (`N games/s`).
fn pachi_rate(pachi: &str, game: &Game, to_move: Color, playouts: usize) -> Option<f64> {
    let mut child = Command::new(pachi)
        .args(["-t", &format!("={playouts}"), "threads=1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let geo = game.geometry();
    let letter = |c: Color| if c == Color::Black { 'b' } else { 'w' };
    let mut input = format!(
        "boardsize {}\nclear_board\nkomi {}\n",
        geo.size(),
        game.komi()
    );
    for (c, m) in game.moves() {
        input.push_str(&format!("play {} {}\n", letter(c), geo.format_move(m)));
    }
    input.push_str(&format!("genmove {}\nquit\n", letter(to_move)));
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    // "genmove in 5.18s, mcts 5.14s (3908 games/s, 3908 games/s/thread)"
    let line = text.lines().rev().find(|l| l.contains("games/s"))?;
    let start = line.find('(')? + 1;
    line[start..].split_whitespace().next()?.parse().ok()
}

fn main() {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let pachi = std::env::var("PACHI").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/peers/pachi/pachi").to_string()
    });
    let have_pachi = Path::new(&pachi).exists();
    let rows = [
        empty(9),
        from_games(9, "positions-9x9.txt", 20),
        empty(19),
        from_games(19, "positions-19x19.txt", 10),
    ];
    println!(
        "{:<24} {:>14} {:>14} {:>14}",
        "position", "1 thread", "2 threads", "Pachi 1 thread"
    );
    let weights = std::env::var("SEARCH_WEIGHTS").unwrap_or(DEFAULT_WEIGHTS.into());
    let precision = std::env::var("SEARCH_PRECISION").unwrap_or("f32".into());
    let precision = Precision::parse(&precision).expect("SEARCH_PRECISION: f32, bf16 or int8");
    let network = Network::from_option(&weights)
        .expect("SEARCH_WEIGHTS")
        .map(|n| n.with_precision(precision));
    println!("network: {weights}, {precision:?}");
    for row in &rows {
        let playouts = if row.size == 9 {
            env("SEARCH_PLAYOUTS_9", 20_000)
        } else {
            env("SEARCH_PLAYOUTS_19", 5_000)
        };
        let mut rates = Vec::new();
        for threads in [1, 2] {
            let params = Params {
                playouts: Some(playouts),
                time: None,
                resign_below: 0.0,
                threads,
                network: network.clone(),
                ..Params::default()
            };
            let start = Instant::now();
            let mut simulations = 0;
            for (game, c) in &row.positions {
                let r = search(game, *c, &params, 1, &AtomicBool::new(false));
                assert_eq!(r.playouts, playouts, "the search runs every simulation");
                simulations += r.playouts;
            }
            rates.push(simulations as f64 / start.elapsed().as_secs_f64());
        }
        // Pachi's time over the row: each position's simulations at its reported rate.
        let pachi_text = if have_pachi {
            row.positions
                .iter()
                .map(|(game, c)| {
                    pachi_rate(&pachi, game, *c, playouts).map(|r| playouts as f64 / r)
                })
                .sum::<Option<f64>>()
                .map_or("?".to_string(), |seconds| {
                    let simulations = (playouts * row.positions.len()) as f64;
                    format!("{:.0}/s", simulations / seconds)
                })
        } else {
            "-".to_string()
        };
        println!(
            "{:<24} {:>12.0}/s {:>12.0}/s {:>14}",
            row.name, rates[0], rates[1], pachi_text
        );
    }
}
