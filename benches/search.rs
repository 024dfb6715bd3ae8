//! Tree-search speed: simulations per second of a full search (tree, priors, playouts) on
//! 9x9 and 19x19 positions, on one and two threads, beside Pachi's on the same positions in
//! the same run when Pachi is at hand (`PACHI`, default `../shared/peers/pachi/pachi`).
//!
//! `cargo bench --bench search` (release). `SEARCH_PLAYOUTS_9` and `SEARCH_PLAYOUTS_19` set
//! the simulations per search (defaults 20,000 and 5,000). Run it on a quiet machine: the
//! two-thread figure needs both cores.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shicho::search::{Params, heuristic, search};
use shicho::{Color, Game, Move, Rng, Rules};

/// A position: its size and moves (alternating from Black), as GTP vertices.
struct Position {
    name: String,
    size: usize,
    moves: Vec<String>,
}

/// `n` moves of the heuristic player from the empty board: a middle-game position that is
/// the same in every run.
fn heuristic_game(size: usize, n: usize) -> Vec<String> {
    let mut g = Game::new(size, Rules::default(), 7.5).expect("size");
    let mut c = Color::Black;
    let mut rng = Rng::new(3);
    let mut out = Vec::new();
    for _ in 0..n {
        let m = heuristic::genmove(&g, c, &mut rng);
        if m == Move::Pass || g.play(c, m).is_err() {
            break;
        }
        out.push(g.geometry().format_move(m));
        c = c.other();
    }
    out
}

fn game_of(p: &Position) -> (Game, Color) {
    let mut g = Game::new(p.size, Rules::default(), 7.5).expect("size");
    let mut c = Color::Black;
    for v in &p.moves {
        let m = g.geometry().parse_move(v).expect("vertex");
        g.play(c, m).expect("legal");
        c = c.other();
    }
    (g, c)
}

/// Pachi's simulations per second on the position, from its own report (`N games/s`).
fn pachi_rate(pachi: &str, p: &Position, playouts: usize) -> Option<f64> {
    let mut child = Command::new(pachi)
        .args(["-t", &format!("={playouts}"), "threads=1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let mut input = format!("boardsize {}\nclear_board\nkomi 7.5\n", p.size);
    let mut c = 'b';
    for v in &p.moves {
        input.push_str(&format!("play {c} {v}\n"));
        c = if c == 'b' { 'w' } else { 'b' };
    }
    input.push_str(&format!("genmove {c}\nquit\n"));
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
    let have_pachi = std::path::Path::new(&pachi).exists();
    let positions = [
        Position {
            name: "9x9 empty".into(),
            size: 9,
            moves: Vec::new(),
        },
        Position {
            name: "9x9 after 20 moves".into(),
            size: 9,
            moves: heuristic_game(9, 20),
        },
        Position {
            name: "19x19 empty".into(),
            size: 19,
            moves: Vec::new(),
        },
        Position {
            name: "19x19 after 80 moves".into(),
            size: 19,
            moves: heuristic_game(19, 80),
        },
    ];
    println!(
        "{:<24} {:>14} {:>14} {:>14}",
        "position", "1 thread", "2 threads", "Pachi 1 thread"
    );
    for p in &positions {
        let playouts = if p.size == 9 {
            env("SEARCH_PLAYOUTS_9", 20_000)
        } else {
            env("SEARCH_PLAYOUTS_19", 5_000)
        };
        let (game, c) = game_of(p);
        let mut rates = Vec::new();
        for threads in [1, 2] {
            let params = Params {
                playouts: Some(playouts),
                time: None,
                resign_below: 0.0,
                threads,
                ..Params::default()
            };
            let start = Instant::now();
            let r = search(&game, c, &params, 1, &AtomicBool::new(false));
            assert_eq!(r.playouts, playouts, "the search runs every simulation");
            rates.push(r.playouts as f64 / start.elapsed().as_secs_f64());
        }
        let pachi_text = if have_pachi {
            pachi_rate(&pachi, p, playouts).map_or("?".to_string(), |r| format!("{r:.0}/s"))
        } else {
            "-".to_string()
        };
        println!(
            "{:<24} {:>12.0}/s {:>12.0}/s {:>14}",
            p.name, rates[0], rates[1], pachi_text
        );
    }
}
