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
//! With `--aux-targets` each record goes on with the auxiliary targets `train/train.py`'s
//! extra heads learn (the JSON lists them under `aux_targets`, in this order):
//!
//! | bytes | what |
//! |---|---|
//! | `2 * (n + 1)` | `reply_policy`: the teacher's policy at the next position (the opponent's reply), as the policy; all zero where the game has no next label |
//! | `4 * SHORT_TERM_AREA_FACTORS.len()` | `short_term_win`: the side to move's short-term win rates, f32 (below) |
//!
//! A short-term win rate is KataGo's "td value": the teacher's win rates at this position and
//! the game's later ones, weighted `f`, `f(1-f)`, `f(1-f)^2`, ... (what is left on the last
//! label), with `f = 1 / (1 + area * factor)`: on average `1 + area * factor` plies ahead, as many
//! more on a larger board. Without the flag the records are what they always were, byte for byte.
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
    /// Each record also carries the opponent's reply (the next position's policy label) and
    /// the short-term win rates (the teacher's later win rates, averaged over about 6 and 16
    /// plies on 9x9, more on larger boards), for train.py's auxiliary heads.
    #[arg(long)]
    aux_targets: bool,
}

/// The short-term win rates' horizons, as KataGo scales its td values by the board's area:
/// `1 + area * factor` plies, 5.5 and 15.3 on 9x9, 21 and 65 on 19x19 (KataGo's middle and
/// long ones; its shortest, 2.3 plies on 9x9, is left out as little more than the label itself).
const SHORT_TERM_AREA_FACTORS: [f64; 2] = [0.056, 0.176];

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

pub fn run(
    Args {
        prefix,
        aux_targets,
    }: Args,
) -> io::Result<()> {
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
        let mut label_lines = Vec::new();
        while let Some(Ok(next)) = lines.peek() {
            if !next.starts_with("P ") {
                break;
            }
            label_lines.push(lines.next().unwrap()?);
        }
        let out = outputs.entry(size).or_insert_with(|| Output {
            records: 0,
            bin: BufWriter::new(File::create(format!("{prefix}-{size}.bin")).expect("output")),
        });
        let n = geo.num_points();
        let labels: Vec<Label> = label_lines
            .iter()
            .map(|l| parse_label(l).expect("a P line"))
            .collect();
        let short_term = if aux_targets {
            short_term_wins(&labels, n)
        } else {
            Vec::new()
        };
        let mut board = Board::new(geo);
        let mut ply = 0;
        let mut history: Vec<Move> = Vec::new();
        for (k, label) in labels.iter().enumerate() {
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
            write_record(&mut out.bin, geo, n, &inputs, label, to_move)?;
            if aux_targets {
                // The reply is the label of the very next ply, or none (the game's end).
                let reply = labels
                    .get(k + 1)
                    .filter(|next| next.ply == label.ply + 1)
                    .map(|next| next.policy);
                write_policy(&mut out.bin, geo, n, reply)?;
                for &win in &short_term[k] {
                    let mine = if to_move == Color::Black {
                        win
                    } else {
                        1.0 - win
                    };
                    out.bin.write_all(&(mine as f32).to_le_bytes())?;
                }
            }
            out.records += 1;
        }
    }
    for (size, out) in &mut outputs {
        out.bin.flush()?;
        let aux = if aux_targets {
            let horizons: Vec<String> = SHORT_TERM_AREA_FACTORS
                .iter()
                .map(|f| format!("{:.2}", 1.0 + (size * size) as f64 * f))
                .collect();
            format!(
                ", \"aux_targets\": [\"reply_policy\", \"short_term_win\"], \"short_term_horizons\": [{}]",
                horizons.join(", ")
            )
        } else {
            String::new()
        };
        let meta = format!(
            "{{\"size\": {size}, \"records\": {}, \"binary_planes\": {BINARY_PLANES}, \"globals\": {GLOBALS}{aux}}}\n",
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
    write_policy(w, geo, n, Some(label.policy))?;
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

/// A policy label (`index:permyriad` pairs, the teacher's order) in the engine's point order,
/// normalised, as u16 in 1/65535; `None` writes zeros (no label).
fn write_policy(
    w: &mut impl Write,
    geo: &Geometry,
    n: usize,
    label: Option<&str>,
) -> io::Result<()> {
    let mut policy = vec![0f32; n + 1];
    for pair in label.unwrap_or("").split(',').filter(|s| !s.is_empty()) {
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
    Ok(())
}

/// Each label's short-term win rates for Black, one a horizon: `f` of its own win rate and
/// `1 - f` of the next label's, the last label keeping its own (KataGo's td value, written
/// backwards: the same weights `f (1-f)^k` with the rest on the last label).
fn short_term_wins(labels: &[Label], n: usize) -> Vec<[f64; SHORT_TERM_AREA_FACTORS.len()]> {
    let now: Vec<f64> = SHORT_TERM_AREA_FACTORS
        .iter()
        .map(|factor| 1.0 / (1.0 + n as f64 * factor))
        .collect();
    let mut out = vec![[0.0; SHORT_TERM_AREA_FACTORS.len()]; labels.len()];
    let mut later: Option<[f64; SHORT_TERM_AREA_FACTORS.len()]> = None;
    for (k, label) in labels.iter().enumerate().rev() {
        let win = f64::from(label.black_winrate);
        let mut here = [win; SHORT_TERM_AREA_FACTORS.len()];
        if let Some(later) = later {
            for (h, f) in now.iter().enumerate() {
                here[h] = f * win + (1.0 - f) * later[h];
            }
        }
        out[k] = here;
        later = Some(here);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(ply: usize, black_winrate: f32) -> Label<'static> {
        Label {
            ply,
            black_winrate,
            black_lead: 0.0,
            policy: "",
            ownership: b"",
        }
    }

    #[test]
    fn short_term_wins_weigh_the_next_labels_then_leave_the_rest_on_the_last() {
        let n = 81;
        let f: Vec<f64> = SHORT_TERM_AREA_FACTORS
            .iter()
            .map(|a| 1.0 / (1.0 + 81.0 * a))
            .collect();
        let labels = [label(0, 0.2), label(1, 0.6), label(2, 1.0)];
        let wins = short_term_wins(&labels, n);
        for (h, f) in f.iter().enumerate() {
            assert_eq!(wins[2][h], 1.0);
            let one = f * 0.6 + (1.0 - f) * 1.0;
            assert!((wins[1][h] - one).abs() < 1e-6);
            let zero = f * 0.2 + (1.0 - f) * f * 0.6 + (1.0 - f) * (1.0 - f) * 1.0;
            assert!((wins[0][h] - zero).abs() < 1e-6);
        }
        // The longer horizon leans further ahead: nearer the last label's 1.0.
        assert!(wins[0][1] > wins[0][0]);
    }
}
