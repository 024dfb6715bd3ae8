//! Runs N light playouts on a size: one steady load for a profiler (`benches/board.rs`
//! measures them). `cargo build --profile profiling --example playouts` keeps the symbols,
//! then `perf record target/profiling/examples/playouts 9 20000`.

use shicho::go::search::playout::{Recent, random_playout};
use shicho::{Board, Color, Geometry, Rng, Topology};
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let size = args.first().copied().unwrap_or(9);
    let n = args.get(1).copied().unwrap_or(10000);
    let geo = Geometry::get(size, Topology::Plane).unwrap();
    let empty = Board::new(geo);
    let mut b = empty.clone();
    let mut rng = Rng::new(1);
    let mut recent = Recent::new(&empty);
    let mut moves = 0;
    let t = std::time::Instant::now();
    for _ in 0..n {
        b.clone_from(&empty);
        moves += random_playout(&mut b, Color::Black, &mut rng, &mut recent).moves;
    }
    let s = t.elapsed().as_secs_f64();
    println!("{n} playouts {moves} moves {:.0} playouts/s", n as f64 / s);
}
