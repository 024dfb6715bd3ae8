//! Turns the teacher's labelled games (`train/teacher.py`'s text, on stdin) into the
//! network's training records, encoded by the engine's own `search::network::inputs`.
//!
//! ```text
//! xz -dc t9.txt.xz | target/release/shicho-train net-data OUT_PREFIX
//! ```
//! writes `OUT_PREFIX-<size>.bin` for each board size met and `OUT_PREFIX-<size>.json`
//! describing its records. A record, for a board of `n` points (the engine's point order,
//! row by row from the bottom; pass last), little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | `ceil(n * BINARY_PLANES / 8)` | the binary planes, point-major, bit `i` of the stream in byte `i / 8` at bit `i % 8` |
//! | `4 * GLOBALS` | the global inputs, f32 |
//! | `2 * (n + 1)` | the teacher's policy, u16 in 1/65535 |
//! | 4 | the side to move's chance of winning, f32 |
//! | 4 | its score lead, f32 |
//! | `n` | each point's owner for the side to move, i8 from -100 to 100 |
//!
//! A game whose moves the board refuses (the teacher's rules differ in a corner case) keeps
//! its positions up to there.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};

use shicho::go::network::inputs::{BINARY_PLANES, GLOBALS, HISTORY, Inputs, Position};
use shicho::{Board, Color, Geometry, Move, Point, Topology};

/// The network's training records, from the teacher's labelled games on stdin.
///
/// Reads train/teacher.py's text and encodes every labelled position with the engine's own
/// inputs, the code the search calls. For each board size met, writes OUT_PREFIX-SIZE.bin (the records; the layout is in
/// train/src/net_data.rs) and OUT_PREFIX-SIZE.json (how many, and the inputs' shape).
/// train/train.py reads both. A game whose moves the board refuses keeps its positions up to
/// there.
#[derive(clap::Args)]
pub struct Args {
    /// Where the records go: OUT_PREFIX-SIZE.bin and OUT_PREFIX-SIZE.json.
    #[arg(value_name = "OUT_PREFIX")]
    prefix: String,
}

struct Output {
    records: usize,
    bin: BufWriter<File>,
}

struct Label<'a> {
    ply: usize,
    black_winrate: f32,
    black_lead: f32,
    policy: &'a str,
    ownership: &'a [u8],
}

fn parse_label(line: &str) -> Option<Label<'_>> {
    let mut f = line.split(' ');
    f.next()?;
    Some(Label {
        ply: f.next()?.parse().ok()?,
        black_winrate: f.next()?.parse().ok()?,
        black_lead: f.next()?.parse().ok()?,
        policy: f.next()?,
        ownership: f.next()?.as_bytes(),
    })
}

/// The engine's point of the teacher's index (row-major from the top-left).
fn point_of(geo: &Geometry, index: usize) -> Point {
    let size = geo.size();
    geo.point(index % size, size - 1 - index / size)
        .expect("index on the board")
}

pub fn run(Args { prefix }: Args) -> io::Result<()> {
    let mut outputs: BTreeMap<usize, Output> = BTreeMap::new();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().peekable();
    let mut inputs = Inputs::default();
    let mut skipped = 0;
    while let Some(line) = lines.next() {
        let line = line?;
        let Some(rest) = line.strip_prefix("G ") else {
            continue;
        };
        let mut f = rest.split(' ');
        let _number = f.next();
        let size: usize = f.next().and_then(|s| s.parse().ok()).expect("size");
        let komi: f32 = f.next().and_then(|s| s.parse().ok()).expect("komi");
        let geo = Geometry::get(size, Topology::Plane).expect("board size");
        let moves: Vec<Move> = f
            .filter(|s| !s.is_empty())
            .map(|s| geo.parse_move(s).expect("move"))
            .collect();
        let mut labels = Vec::new();
        while let Some(Ok(next)) = lines.peek() {
            if !next.starts_with("P ") {
                break;
            }
            labels.push(lines.next().unwrap()?);
        }
        let out = outputs.entry(size).or_insert_with(|| Output {
            records: 0,
            bin: BufWriter::new(File::create(format!("{prefix}-{size}.bin")).expect("output")),
        });
        let n = geo.num_points();
        let mut board = Board::new(geo);
        let mut ply = 0;
        let mut history: Vec<Move> = Vec::new();
        for label in &labels {
            let label = parse_label(label).expect("a P line");
            // Play up to the labelled position.
            let mut legal = true;
            while ply < label.ply {
                let c = if ply % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if board.play(c, moves[ply], false).is_err() {
                    legal = false;
                    break;
                }
                history.push(moves[ply]);
                ply += 1;
            }
            if !legal {
                skipped += 1;
                break;
            }
            let to_move = if ply % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut recent = [None; HISTORY];
            for (slot, m) in recent.iter_mut().zip(history.iter().rev()) {
                *slot = m.point();
            }
            inputs.encode(&Position {
                board: &board,
                to_move,
                history: recent,
                last_was_pass: history.last().is_some_and(|m| m.is_pass()),
                komi,
            });
            write_record(&mut out.bin, geo, n, &inputs, &label, to_move)?;
            out.records += 1;
        }
    }
    for (size, out) in &mut outputs {
        out.bin.flush()?;
        let meta = format!(
            "{{\"size\": {size}, \"records\": {}, \"binary_planes\": {BINARY_PLANES}, \"globals\": {GLOBALS}}}\n",
            out.records
        );
        std::fs::write(format!("{prefix}-{size}.json"), meta)?;
        eprintln!("net-data: {size}x{size}: {} records", out.records);
    }
    if skipped > 0 {
        eprintln!("net-data: {skipped} games cut short at a move the board refused");
    }
    Ok(())
}

fn write_record(
    w: &mut impl Write,
    geo: &Geometry,
    n: usize,
    inputs: &Inputs,
    label: &Label,
    to_move: Color,
) -> io::Result<()> {
    let mut bits = vec![0u8; (n * BINARY_PLANES).div_ceil(8)];
    for (i, &b) in inputs.planes.iter().enumerate() {
        if b != 0 {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    w.write_all(&bits)?;
    for g in inputs.globals {
        w.write_all(&g.to_le_bytes())?;
    }
    let mut policy = vec![0f32; n + 1];
    for pair in label.policy.split(',').filter(|s| !s.is_empty()) {
        let (i, p) = pair.split_once(':').expect("index:permyriad");
        let i: usize = i.parse().expect("index");
        let p: f32 = p.parse().expect("permyriad");
        let slot = if i == n { n } else { point_of(geo, i).index() };
        policy[slot] += p;
    }
    let sum: f32 = policy.iter().sum::<f32>().max(1e-9);
    for p in policy {
        w.write_all(&((p / sum * 65535.0).round() as u16).to_le_bytes())?;
    }
    let black = to_move == Color::Black;
    let winrate = if black {
        label.black_winrate
    } else {
        1.0 - label.black_winrate
    };
    let lead = if black {
        label.black_lead
    } else {
        -label.black_lead
    };
    w.write_all(&winrate.to_le_bytes())?;
    w.write_all(&lead.to_le_bytes())?;
    let mut owner = vec![0i8; n];
    for (i, &ch) in label.ownership.iter().enumerate().take(n) {
        let black_owns = (ch as f32 - 65.0) / 10.0 - 1.0;
        let mine = if black { black_owns } else { -black_owns };
        owner[point_of(geo, i).index()] = (mine * 100.0).round() as i8;
    }
    w.write_all(&owner.iter().map(|&o| o as u8).collect::<Vec<_>>())?;
    Ok(())
}
