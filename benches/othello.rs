//! Othello speed: perft from the 8x8 start, the exact solver on FFO endgame positions 40-44
//! (20-23 empties) and on random 20-empty positions, the searcher's nodes per second, and a
//! short sanity match of the searcher against greedy. Every timed run asserts what it
//! computed (perft counts, the published FFO scores and moves, the match won).
//!
//! Run with `cargo bench --bench othello -- [perft] [solve] [search] [match]` (no argument:
//! all four); `BENCH_SECONDS` sets the searcher's time (default 2). `ffo FIRST-LAST` solves
//! those FFO positions instead (`ffo` alone: 40-59, the standard benchmark), on
//! `BENCH_THREADS` threads (default 1), the solver's estimates (the root's guess, probcut)
//! by the learnt evaluation or, with `BENCH_EVAL=hand`, the hand-written one.

#[path = "../tests/othello_ffo_data/mod.rs"]
mod ffo;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shicho::Color;
use shicho::Rng;
use shicho::othello::{
    Board, Evaluation, Game, Limits, Move, Searcher, SolveOptions, greedy_move, random_move, solve,
};

fn seconds() -> Duration {
    let s: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(s.max(0.05))
}

fn bench_perft() {
    let g = Game::new(8).unwrap();
    for (depth, expected) in [(9, 3_005_288u64), (10, 24_571_284), (11, 212_258_800)] {
        let t = Instant::now();
        let n = g.perft(depth);
        let s = t.elapsed().as_secs_f64();
        assert_eq!(n, expected, "perft({depth})");
        println!(
            "perft 8x8 depth {depth}: {n} sequences in {s:.2} s ({:.1} M leaves/s, last ply counted not played)",
            n as f64 / s / 1e6
        );
    }
    for (size, depth) in [(6, 9), (10, 8), (26, 6)] {
        let g = Game::new(size).unwrap();
        let t = Instant::now();
        let n = g.perft(depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft {size}x{size} depth {depth}: {n} in {s:.2} s ({:.2} M leaves/s)",
            n as f64 / s / 1e6
        );
    }
}

/// A position after random play from the 8x8 start with `empties` empty squares.
fn random_endgame(empties: u32, rng: &mut Rng) -> (Board, Color) {
    loop {
        let mut g = Game::new(8).unwrap();
        while g.board().empties() > empties && !g.is_over() {
            let m = random_move(g.board(), g.to_move(), rng).map_or(Move::Pass, Move::Play);
            g.play(m).unwrap();
        }
        if !g.is_over() && g.legal_moves() != [Move::Pass] {
            return (g.board().clone(), g.to_move());
        }
    }
}

/// FFO positions `first..=last`: each solved, its score and move checked against the
/// published ones, and a table of time, nodes and nodes per second.
fn bench_ffo(first: u32, last: u32) {
    let threads: usize = std::env::var("BENCH_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    // The evaluation of the solver's estimates.
    let learnt = !std::env::var("BENCH_EVAL").is_ok_and(|e| e == "hand");
    let options = SolveOptions {
        threads,
        evaluation: if learnt {
            Evaluation::learnt()
        } else {
            Evaluation::Hand
        },
        ..SolveOptions::default()
    };
    let (mut total_nodes, mut total_time) = (0u64, 0.0);
    let eval = if learnt { "learnt" } else { "hand-written" };
    println!("{threads} thread(s), {eval} evaluation");
    println!("| # | empties | move | score | time (s) | nodes | M nodes/s |");
    println!("|---|---|---|---|---|---|---|");
    for p in ffo::range(first, last) {
        let s = p.solve(&options);
        let secs = s.elapsed.as_secs_f64();
        println!(
            "| {} | {} | {} | {:+} | {secs:.2} | {} | {:.1} |",
            p.number,
            p.board().empties(),
            s.best,
            s.score,
            s.nodes,
            s.nodes as f64 / secs / 1e6,
        );
        p.assert_solved(&s, &format!("{threads} thread(s), {eval} evaluation"));
        total_nodes += s.nodes;
        total_time += secs;
    }
    println!(
        "FFO #{first}-{last}: {total_time:.2} s, {total_nodes} nodes, {:.1} M nodes/s",
        total_nodes as f64 / total_time / 1e6
    );
}

/// Random 18- and 20-empty endgames, four each.
fn bench_random_endgames() {
    let mut rng = Rng::new(20);
    for empties in [18, 20] {
        let (mut nodes, mut time) = (0u64, 0.0);
        let positions = 4;
        for _ in 0..positions {
            let (b, c) = random_endgame(empties, &mut rng);
            let s = solve(&b, c, 64).unwrap();
            nodes += s.nodes;
            time += s.elapsed.as_secs_f64();
        }
        println!(
            "random 8x8 endgames, {empties} empties: {:.2} s per position, {:.1} M nodes/s ({positions} positions)",
            time / positions as f64,
            nodes as f64 / time / 1e6
        );
    }
}

fn bench_search() {
    let budget = seconds();
    let mut rng = Rng::new(7);
    for (size, plies) in [(8, 0), (8, 20), (10, 10), (26, 10)] {
        let mut g = Game::new(size).unwrap();
        for _ in 0..plies {
            let m = random_move(g.board(), g.to_move(), &mut rng).map_or(Move::Pass, Move::Play);
            g.play(m).unwrap();
        }
        let r = Searcher::new().choose(
            g.board(),
            g.to_move(),
            &Limits::time(budget),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(
            r.elapsed <= budget + Duration::from_millis(50),
            "overran: {r:?}"
        );
        println!(
            "searcher {size}x{size} after {plies} plies, {:.1} s: depth {}, {:.0} k nodes/s, score {:+.2}, best {}",
            r.elapsed.as_secs_f64(),
            r.depth,
            r.nodes_per_second() / 1e3,
            r.score as f64 / 100.0,
            r.best()
        );
    }
}

/// The searcher at 0.1 s a move against greedy: 10 openings of 4 random plies, each played
/// with both colours. Every game must be won.
fn bench_match() {
    let per_move = Limits::time(Duration::from_millis(100));
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new();
    let (mut wins, mut games, mut margin) = (0, 0, 0);
    let mut longest = Duration::ZERO;
    for seed in 0..10 {
        for searcher_colour in Color::ALL {
            let mut rng = Rng::new(seed);
            let mut g = Game::new(8).unwrap();
            for _ in 0..4 {
                let m =
                    random_move(g.board(), g.to_move(), &mut rng).map_or(Move::Pass, Move::Play);
                g.play(m).unwrap();
            }
            while !g.is_over() {
                let c = g.to_move();
                let m = if c == searcher_colour {
                    let t = Instant::now();
                    let m = searcher
                        .choose(g.board(), c, &per_move, &stop, &mut |_| {})
                        .best();
                    longest = longest.max(t.elapsed());
                    m
                } else {
                    greedy_move(g.board(), c).map_or(Move::Pass, Move::Play)
                };
                g.play(m).unwrap();
            }
            let d = g.score().difference();
            let mine = if searcher_colour == Color::Black {
                d
            } else {
                -d
            };
            games += 1;
            margin += mine;
            if mine > 0 {
                wins += 1;
            } else {
                println!(
                    "lost: opening seed {seed}, searcher {searcher_colour}: {}",
                    g.score()
                );
            }
        }
    }
    println!(
        "searcher (0.1 s/move) vs greedy: {wins}/{games} won, mean margin {:+.1} discs, longest move {:.3} s",
        margin as f64 / games as f64,
        longest.as_secs_f64()
    );
    assert_eq!(wins, games);
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument picks sections.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wants = |name: &str| args.is_empty() || args.iter().any(|a| a == name);
    if wants("perft") {
        bench_perft();
    }
    // `ffo 20-39` solves those positions (`ffo` alone: 40-59); `solve` is 40-44 and random
    // endgames, quick enough for every run.
    if let Some(k) = args.iter().position(|a| a == "ffo") {
        let (first, last) = args
            .get(k + 1)
            .and_then(|r| r.split_once('-'))
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            .unwrap_or((40, 59));
        bench_ffo(first, last);
    } else if wants("solve") {
        bench_ffo(40, 44);
        bench_random_endgames();
    }
    if wants("search") {
        bench_search();
    }
    if wants("match") {
        bench_match();
    }
}
