//! Board speed: light random playouts per second, nanoseconds per play and per play+undo,
//! and the size of a board copy, for 9x9 and 19x19. Run with `scripts/bench` (or
//! `cargo bench --bench board`); `BENCH_SECONDS` sets the time per measurement (default 2).
//!
//! "play+undo" is what search does between simulations: save a copy, play, restore the
//! copy (`clone_from`). "undoable play+undo" is what the readers do: `play_undoable` and
//! `undo` in place, for the plays that capture nothing (the others are skipped and not
//! counted).

use std::hint::black_box;
use std::time::{Duration, Instant};

use shicho::go::search::playout::{Recent, move_cap, random_move, random_playout};
use shicho::{Board, Color, Geometry, Move, Rng, Topology};

fn seconds() -> Duration {
    let s: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(s.max(0.05))
}

/// Runs `f` repeatedly for about `budget`, returning (calls, elapsed).
fn run_for(budget: Duration, mut f: impl FnMut()) -> (u64, Duration) {
    let start = Instant::now();
    let mut calls = 0;
    while start.elapsed() < budget {
        for _ in 0..16 {
            f();
        }
        calls += 16;
    }
    (calls, start.elapsed())
}

/// Move sequences of finished random games, to replay with and without undo.
fn record_games(geo: &'static Geometry, count: usize, rng: &mut Rng) -> Vec<Vec<(Color, Move)>> {
    (0..count)
        .map(|_| {
            let mut b = Board::new(geo);
            let mut c = Color::Black;
            let mut moves = Vec::new();
            let mut recent = Recent::new(&b);
            let mut passes = 0;
            while passes < 2 && moves.len() < move_cap(&b) {
                let m = random_move(&b, c, rng, &recent);
                b.play_unchecked(c, m);
                recent.push(b.hash());
                moves.push((c, m));
                passes = if m == Move::Pass { passes + 1 } else { 0 };
                c = c.other();
            }
            moves
        })
        .collect()
}

fn bench_size(size: usize, budget: Duration) {
    let geo = Geometry::get(size, Topology::Plane).expect("9 and 19 are valid sizes");
    let empty = Board::new(geo);
    let mut rng = Rng::new(2026);

    // Light playouts from the empty board.
    let mut board = empty.clone();
    let mut recent = Recent::new(&empty);
    let mut total_moves = 0u64;
    let (playouts, elapsed) = run_for(budget, || {
        board.clone_from(&empty);
        total_moves += random_playout(&mut board, Color::Black, &mut rng, &mut recent).moves as u64;
    });
    let pps = playouts as f64 / elapsed.as_secs_f64();
    println!(
        "{size}x{size}: {pps:>9.0} playouts/s  ({:.1} moves/playout, {:.0} ns/move incl. move choice)",
        total_moves as f64 / playouts as f64,
        elapsed.as_nanos() as f64 / total_moves as f64
    );

    // Replays of recorded games: play only, checked play, and save+play+restore.
    let games = record_games(geo, 64, &mut rng);
    let plays_per_round: usize = games.iter().map(Vec::len).sum();
    let mut b = empty.clone();
    let (rounds, elapsed_play) = run_for(budget, || {
        for g in &games {
            b.clone_from(&empty);
            for &(c, m) in g {
                black_box(b.play_unchecked(c, m));
            }
        }
    });
    let ns_play = elapsed_play.as_nanos() as f64 / (rounds as f64 * plays_per_round as f64);
    let (rounds_checked, elapsed_checked) = run_for(budget, || {
        for g in &games {
            b.clone_from(&empty);
            for &(c, m) in g {
                let _ = black_box(b.play(c, m, false));
            }
        }
    });
    let ns_checked =
        elapsed_checked.as_nanos() as f64 / (rounds_checked as f64 * plays_per_round as f64);
    let mut saved = empty.clone();
    let (rounds_undo, elapsed_undo) = run_for(budget, || {
        for g in &games {
            b.clone_from(&empty);
            for &(c, m) in g {
                saved.clone_from(&b);
                black_box(b.play_unchecked(c, m));
                b.clone_from(&saved);
                b.play_unchecked(c, m);
            }
        }
    });
    let ns_loop = elapsed_undo.as_nanos() as f64 / (rounds_undo as f64 * plays_per_round as f64);
    // The loop also advances with a second play; take that play's cost back out.
    let ns_play_undo = ns_loop - ns_play;
    let mut undone = 0usize;
    let (rounds_in_place, elapsed_in_place) = run_for(budget, || {
        for g in &games {
            b.clone_from(&empty);
            for &(c, m) in g {
                if let Move::Play(p) = m
                    && let Some(u) = b.play_undoable(c, p)
                {
                    b.undo(black_box(&u));
                    undone += 1;
                }
                b.play_unchecked(c, m);
            }
        }
    });
    // The loop also advances with a plain play for every move; take those out.
    let ns_in_place = (elapsed_in_place.as_nanos() as f64
        - ns_play * (rounds_in_place * plays_per_round as u64) as f64)
        / undone.max(1) as f64;
    let (copies, elapsed_copy) = run_for(budget / 4, || {
        saved.clone_from(black_box(&b));
    });
    println!(
        "{size}x{size}: {ns_play:>6.1} ns/play  {ns_checked:>6.1} ns/checked play  {ns_play_undo:>6.1} ns/play+undo  {ns_in_place:>6.1} ns/undoable play+undo  {:>6.1} ns/copy",
        elapsed_copy.as_nanos() as f64 / copies as f64
    );
    println!(
        "{size}x{size}: board copy = {} bytes (struct {} + buffers)",
        empty.memory_bytes(),
        std::mem::size_of::<Board>()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters sizes ("9", "19").
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let budget = seconds();
    for size in [9, 19] {
        if args.is_empty() || args.iter().any(|a| a == &size.to_string()) {
            bench_size(size, budget);
        }
    }
}
