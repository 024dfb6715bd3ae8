//! GTP command latency, in process (`Engine::handle`, no pipe): microseconds per command for
//! the commands front ends send most, on 9x9 and 19x19 positions from a replayed game, and
//! the tree search's simulations per second at the default setting.
//!
//! `cargo bench --bench gtp` (release).

use std::hint::black_box;
use std::time::{Duration, Instant};

use shicho::engine::{Config, Engine};

use shicho::go::search::playout::{Recent, random_move};
use shicho::{Board, Color, Geometry, Move, Rng, Topology};

/// A random game of `moves` moves on `size`, as GTP vertices.
fn game(size: usize, moves: usize) -> Vec<(Color, String)> {
    let geo = Geometry::get(size, Topology::Plane).expect("valid size");
    let mut b = Board::new(geo);
    let mut recent = Recent::new(&b);
    let mut rng = Rng::new(5);
    let mut c = Color::Black;
    let mut out = Vec::new();
    for _ in 0..moves {
        let m = random_move(&b, c, &mut rng, &recent);
        if m == Move::Pass {
            break;
        }
        b.play_unchecked(c, m);
        recent.push(b.hash());
        out.push((c, geo.format_move(m)));
        c = c.other();
    }
    out
}

fn time(label: &str, rounds: usize, mut f: impl FnMut()) {
    let start = Instant::now();
    for _ in 0..rounds {
        f();
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / rounds as f64;
    println!("  {label:<40} {us:>9.1} us");
}

fn main() {
    for size in [9, 19] {
        println!("{size}x{size}:");
        let mut e = Engine::new(Config {
            go: shicho::go::gtp::state::Config {
                size,
                ..Default::default()
            },
            ..Config::default()
        });
        let moves = game(size, size * size / 2);
        let replay: Vec<String> = moves
            .iter()
            .map(|(c, v)| format!("play {} {v}", c.letter()))
            .collect();
        time(&format!("clear_board + {} plays", replay.len()), 50, || {
            black_box(e.handle(b"clear_board"));
            for line in &replay {
                black_box(e.handle(line.as_bytes()));
            }
        });
        let (c, v) = moves.last().cloned().expect("the game has moves");
        let _ = e.handle(b"undo");
        let play = format!("play {} {v}", c.letter());
        time("play + undo", 2000, || {
            black_box(e.handle(play.as_bytes()));
            black_box(e.handle(b"undo"));
        });
        let _ = e.handle(play.as_bytes());
        for cmd in [
            "is_legal b A1",
            "countlib E5",
            "showboard",
            "list_stones black",
            "all_legal w",
            "printsgf",
        ] {
            time(cmd, 500, || {
                black_box(e.handle(cmd.as_bytes()));
            });
        }
        time("final_score (400 ownership playouts)", 5, || {
            black_box(e.handle(b"final_score"));
        });
        let start = Instant::now();
        let reply = e.handle(b"reg_genmove w");
        let elapsed = start.elapsed();
        println!(
            "  reg_genmove (20,000 simulations)         {:>9.1} ms  -> {:.0} simulations/s, {}",
            elapsed.as_secs_f64() * 1e3,
            20_000.0 / elapsed.max(Duration::from_micros(1)).as_secs_f64(),
            reply.map(|r| r.text.trim().to_string()).unwrap_or_default()
        );
    }
}
