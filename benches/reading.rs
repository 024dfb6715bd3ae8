//! Reading speed: ladder and attack/defend queries per second over a fixed set of positions
//! (GNU Go self-play positions from the agreement data, plus the long 19x19 ladder).
//!
//! `cargo bench --bench reading` (release). Prints queries/s and checks the answer counts it
//! timed, so that a faster reader that answers differently shows.

use std::time::Instant;

use shicho::go::tactics::chains::chain_heads;
use shicho::go::tactics::{Budget, attack, defend, ladder_attack};
use shicho::{Board, Color, Geometry, Topology};

const DATA: &str = include_str!("../tests/data/gnugo-reading.txt");
/// Positions of the data file used (the first ones).
const POSITIONS: usize = 60;
/// Times the whole set is read, for a stable timing.
const ROUNDS: usize = 3;

fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    for line in DATA
        .lines()
        .filter(|l| l.starts_with("position"))
        .take(POSITIONS)
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let geo = Geometry::get(words[1].parse().unwrap(), Topology::Plane).unwrap();
        let mut b = Board::new(geo);
        for m in &words[2..] {
            let (c, v) = m.split_once(':').unwrap();
            b.play(
                c.parse::<Color>().unwrap(),
                geo.parse_move(v).unwrap(),
                false,
            )
            .unwrap();
        }
        out.push(b);
    }
    // The long ladder: White Q16 Q15 against Black Q17 P16 R16 R15 on an empty 19x19.
    let geo = Geometry::get(19, Topology::Plane).unwrap();
    let mut b = Board::new(geo);
    for (c, v) in [
        (Color::White, "Q16"),
        (Color::White, "Q15"),
        (Color::Black, "Q17"),
        (Color::Black, "P16"),
        (Color::Black, "R16"),
        (Color::Black, "R15"),
    ] {
        b.play(c, geo.parse_move(v).unwrap(), false).unwrap();
    }
    out.push(b);
    out
}

fn main() {
    let boards = positions();
    let (mut ladders, mut ladder_wins, mut reads, mut read_wins) = (0usize, 0usize, 0usize, 0usize);
    let mut ladder_time = 0.0;
    let mut read_time = 0.0;
    for _ in 0..ROUNDS {
        for b in &boards {
            let heads = chain_heads(b);
            let start = Instant::now();
            for &h in heads.iter().filter(|&&h| b.liberty_count(h) == 2) {
                ladders += 1;
                ladder_wins += ladder_attack(b, h).0.succeeds() as usize;
            }
            ladder_time += start.elapsed().as_secs_f64();
            let start = Instant::now();
            for &h in heads.iter().filter(|&&h| b.liberty_count(h) <= 4) {
                reads += 2;
                read_wins += attack(b, h, Budget::default()).0.succeeds() as usize;
                read_wins += defend(b, h, Budget::default()).0.succeeds() as usize;
            }
            read_time += start.elapsed().as_secs_f64();
        }
    }
    println!(
        "ladder_attack: {ladders} queries, {:.0}/s; attack+defend: {reads} queries, {:.0}/s",
        ladders as f64 / ladder_time,
        reads as f64 / read_time
    );
    println!("successes: ladder {ladder_wins}, attack/defend {read_wins}");
    // Per round, pinned when the bench was written: a change of answers must be deliberate.
    assert_eq!((ladders / ROUNDS, ladder_wins / ROUNDS), (113, 33));
    assert_eq!((reads / ROUNDS, read_wins / ROUNDS), (2396, 1255));
}
