//! Learns the move weights of the tree's priors (`search/data/gammas.txt`) from game records
//! by minorization-maximization (Coulom, "Computing Elo Ratings of Move Patterns in the Game
//! of Go", 2007).
//!
//! ```text
//! cargo run --release --example train_priors -- [--player NAME] [--out FILE] SGF...
//! ```
//! Every move of the records (or only the moves of players whose name contains NAME, or one
//! of the `|`-separated NAMEs) is a
//! "competition" that the played move won against every other legal move; the gammas are
//! the strengths that make the observed choices most likely. Each gamma also gets Coulom's
//! prior: one virtual win and one virtual loss against a gamma of 1. One record in ten is
//! held out to report how often the strongest move is the one played.

use std::collections::HashMap;

use shicho::search::features::{Features, GROUPS, features};
use shicho::search::gammas::Gammas;
use shicho::sgf::{SgfGame, Stop, parse_collection};
use shicho::{Color, Game, Move, Rules};

/// One position: its candidates `cands[start..start + len]`, the played one first.
struct Position {
    start: usize,
    len: usize,
}

/// A candidate with its shape replaced by a dense index.
#[derive(Clone, Copy)]
struct Candidate {
    shape: u32,
    levels: [u8; GROUPS.len()],
}

struct Data {
    positions: Vec<Position>,
    cands: Vec<Candidate>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut player: Option<String> = None;
    let mut out = "src/search/data/gammas.txt".to_string();
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--player" => player = args.next(),
            "--out" => out = args.next().expect("--out FILE"),
            _ => files.push(a),
        }
    }
    let mut shape_ids: HashMap<u32, u32> = HashMap::new();
    let mut train = Data {
        positions: Vec::new(),
        cands: Vec::new(),
    };
    let mut test = Data {
        positions: Vec::new(),
        cands: Vec::new(),
    };
    for (i, file) in files.iter().enumerate() {
        let data = if i % 10 == 9 { &mut test } else { &mut train };
        if let Err(e) = read_game(file, player.as_deref(), &mut shape_ids, data) {
            eprintln!("{file}: {e}");
        }
    }
    eprintln!(
        "{} training positions ({} candidates), {} held out; {} shapes",
        train.positions.len(),
        train.cands.len(),
        test.positions.len(),
        shape_ids.len()
    );
    let mut shape_gamma = vec![1.0f64; shape_ids.len()];
    let mut group_gamma: Vec<Vec<f64>> = GROUPS.iter().map(|&(_, n)| vec![1.0; n]).collect();
    for iteration in 0..40 {
        // The shapes, then each group, updated in turn.
        for group in 0..=GROUPS.len() {
            let levels = if group == 0 {
                shape_gamma.len()
            } else {
                GROUPS[group - 1].1
            };
            let level_of = |c: &Candidate| {
                if group == 0 {
                    c.shape as usize
                } else {
                    c.levels[group - 1] as usize
                }
            };
            let mut wins = vec![0.0f64; levels];
            let mut c_sum = vec![0.0f64; levels];
            for p in &train.positions {
                let cands = &train.cands[p.start..p.start + p.len];
                let strengths: Vec<f64> = cands
                    .iter()
                    .map(|c| strength(c, &shape_gamma, &group_gamma))
                    .collect();
                let total: f64 = strengths.iter().sum();
                wins[level_of(&cands[0])] += 1.0;
                for (c, s) in cands.iter().zip(&strengths) {
                    let l = level_of(c);
                    let gamma = if group == 0 {
                        shape_gamma[l]
                    } else {
                        group_gamma[group - 1][l]
                    };
                    c_sum[l] += s / gamma / total;
                }
            }
            let gammas = if group == 0 {
                &mut shape_gamma
            } else {
                &mut group_gamma[group - 1]
            };
            for l in 0..levels {
                // Coulom's prior: a virtual win and loss against a gamma of 1.
                let g = gammas[l];
                gammas[l] = (wins[l] + 1.0) / (c_sum[l] + 2.0 / (g + 1.0));
            }
        }
        if iteration % 5 == 4 || iteration == 0 {
            eprintln!(
                "iteration {}: training log-likelihood per move {:.4}, held out {:.4}, held-out top-1 {:.1}%",
                iteration + 1,
                log_likelihood(&train, &shape_gamma, &group_gamma),
                log_likelihood(&test, &shape_gamma, &group_gamma),
                100.0 * top1(&test, &shape_gamma, &group_gamma),
            );
        }
    }
    let mut gammas = Gammas::neutral();
    for (g, levels) in group_gamma.iter().enumerate() {
        for (l, &v) in levels.iter().enumerate() {
            gammas.groups[g][l] = v as f32;
        }
    }
    for (&code, &id) in &shape_ids {
        gammas.shapes.insert(code, shape_gamma[id as usize] as f32);
    }
    let header = format!(
        "# shicho's move weights (gammas) for the tree's priors, learnt by examples/train_priors.rs\n\
         # from {} positions of {} records{}; see src/search/gammas.rs for the format.\n",
        train.positions.len() + test.positions.len(),
        files.len(),
        player
            .as_deref()
            .map(|p| format!(" (moves of players named '{p}')"))
            .unwrap_or_default()
    );
    std::fs::write(&out, header + &gammas.to_text()).expect("write the gammas");
    eprintln!("wrote {out}");
}

fn strength(c: &Candidate, shapes: &[f64], groups: &[Vec<f64>]) -> f64 {
    let mut s = shapes[c.shape as usize];
    for (g, &l) in c.levels.iter().enumerate() {
        s *= groups[g][l as usize];
    }
    s
}

fn log_likelihood(d: &Data, shapes: &[f64], groups: &[Vec<f64>]) -> f64 {
    let mut total = 0.0;
    for p in &d.positions {
        let cands = &d.cands[p.start..p.start + p.len];
        let sum: f64 = cands.iter().map(|c| strength(c, shapes, groups)).sum();
        total += (strength(&cands[0], shapes, groups) / sum).ln();
    }
    total / d.positions.len().max(1) as f64
}

/// How often the played move is the strongest candidate.
fn top1(d: &Data, shapes: &[f64], groups: &[Vec<f64>]) -> f64 {
    let mut hits = 0;
    for p in &d.positions {
        let cands = &d.cands[p.start..p.start + p.len];
        let played = strength(&cands[0], shapes, groups);
        if cands[1..]
            .iter()
            .all(|c| strength(c, shapes, groups) < played)
        {
            hits += 1;
        }
    }
    hits as f64 / d.positions.len().max(1) as f64
}

fn read_game(
    file: &str,
    player: Option<&str>,
    shape_ids: &mut HashMap<u32, u32>,
    data: &mut Data,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let collection = parse_collection(&text).map_err(|e| e.to_string())?;
    let record = SgfGame::from_collection(&collection).map_err(|e| e.to_string())?;
    if !record.setup.is_empty() {
        return Err("setup stones".into());
    }
    let komi = record.komi.unwrap_or(7.5);
    let played = record
        .replay(Rules::default(), komi, Stop::End)
        .map_err(|e| e.to_string())?;
    let selected = |c: Color| {
        let name = match c {
            Color::Black => record.black_name.as_deref(),
            Color::White => record.white_name.as_deref(),
        };
        player.is_none_or(|p| name.is_some_and(|n| p.split('|').any(|alt| n.contains(alt))))
    };
    let mut game = Game::new(record.size, Rules::default(), komi).map_err(|e| e.to_string())?;
    let moves: Vec<(Color, Move)> = played.moves().collect();
    for (i, &(c, m)) in moves.iter().enumerate() {
        if let Move::Play(p) = m
            && selected(c)
        {
            let last = i.checked_sub(1).and_then(|j| moves[j].1.point());
            let before = i.checked_sub(2).and_then(|j| moves[j].1.point());
            let board = game.board();
            let mut cands: Vec<Features> = vec![features(board, c, p, last, before)];
            for &q in board.empties() {
                if q != p && !board.is_true_eye(c, q) && game.is_legal(c, Move::Play(q)) {
                    cands.push(features(board, c, q, last, before));
                }
            }
            if cands.len() > 1 {
                data.positions.push(Position {
                    start: data.cands.len(),
                    len: cands.len(),
                });
                for f in cands {
                    let next = shape_ids.len() as u32;
                    let shape = *shape_ids.entry(f.shape).or_insert(next);
                    data.cands.push(Candidate {
                        shape,
                        levels: f.levels,
                    });
                }
            }
        }
        game.play(c, m)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(())
}
