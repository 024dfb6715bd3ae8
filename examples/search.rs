//! Runs one search on the empty board: one steady load for a profiler (`benches/search.rs`
//! measures searches). `cargo build --profile profiling --example search` keeps the
//! symbols, then `perf record target/profiling/examples/search 9 20000`.
use shicho::go::search::{Params, search};
use shicho::{Color, Game, Rules};
use std::sync::atomic::AtomicBool;
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let size = args.first().copied().unwrap_or(9);
    let playouts = args.get(1).copied().unwrap_or(20000);
    let g = Game::new(size, Rules::default(), 7.5).unwrap();
    let p = Params {
        playouts: Some(playouts),
        time: None,
        resign_below: 0.0,
        threads: 1,
        ..Params::default()
    };
    let t = std::time::Instant::now();
    let r = search(&g, Color::Black, &p, 1, &AtomicBool::new(false));
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} playouts in {s:.2}s = {:.0}/s, best {:?}",
        r.playouts,
        r.playouts as f64 / s,
        r.decision
    );
}
