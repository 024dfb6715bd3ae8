//! Learns the move weights of the tree's priors from game records by
//! minorization-maximization (Coulom, "Computing Elo Ratings of Move Patterns in the Game
//! of Go", 2007). The engine has two tables, learnt on records of their own board size:
//! `src/go/search/pattern/data/gammas-9x9.txt` (the default `--out`) and `gammas-19x19.txt`.
//!
//! ```text
//! shicho-train priors [--player NAME] [--skip N] [--min-spatial K] [--owner-playouts N] [--out FILE] SGF...
//! shicho-train priors --evaluate TABLE [--player NAME] [--skip N] SGF...
//! ```
//! `--evaluate` learns nothing: it reports how well a table (the text form of
//! `search::gammas`) predicts the moves of all the records.
//! Every move of the records after the first N (random openings; default 0), or only the
//! moves of players whose name contains NAME, or one of the `|`-separated NAMEs, is a
//! "competition" that the played move won against every other legal move; the gammas are
//! the strengths that make the observed choices most likely. Each gamma also gets Coulom's
//! prior: one virtual win and one virtual loss against a gamma of 1. One record in ten is
//! held out to report how often the strongest move is the one played. A larger shape
//! (`search::spatial`) gets a gamma when the moves played in the training records show it
//! at least K times (default 3); a move counts by the largest of its shapes that has one.
//! With `--owner-playouts N`, each position's ownership is estimated by N playouts and a
//! move's point gets its owner level (`features::OWNER`); the engine then estimates it at
//! the root of every search.

use std::collections::HashMap;

use shicho::go::search::pattern::features::{Features, GROUPS, features, with_owner, with_spatial};
use shicho::go::search::pattern::gammas::Gammas;
use shicho::go::search::pattern::spatial::SIZES;
use shicho::go::search::{Tunables, ownership};
use shicho::go::sgf::{SgfGame, Stop};
use shicho::sgf::parse_collection;
use shicho::{Color, Game, Move, Point, Rules};

/// The priors' move weights (gammas) from game records, by minorization-maximization.
///
/// Every move of the records (after --skip, and of the players --player names) is a
/// competition the played move won against every other legal move; the gammas are the
/// strengths that make those choices most likely. One record in ten is held out to report
/// how often the strongest move is the one played. The engine has two tables, each learnt on
/// records of its board size: src/go/search/pattern/data/gammas-9x9.txt (the default --out) and
/// gammas-19x19.txt. doc/strength.md records the command lines that made them.
#[derive(clap::Args)]
pub struct Args {
    /// Learn only from the moves of players whose name contains NAME, or one of the
    /// `|`-separated NAMEs.
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// Skip the first N moves of every record (random openings).
    #[arg(long, value_name = "N", default_value_t = 0)]
    skip: usize,
    /// A larger shape gets a gamma when the training moves show it at least K times.
    #[arg(long, value_name = "K", default_value_t = 3)]
    min_spatial: usize,
    /// Estimate each position's ownership by N playouts and give a move's point its owner
    /// level (the engine then estimates it at the root of every search); 0: no owner feature.
    #[arg(long, value_name = "N", default_value_t = 0)]
    owner_playouts: usize,
    /// Where the table goes (relative to the current folder: run from the repository root).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "src/go/search/pattern/data/gammas-9x9.txt"
    )]
    out: String,
    /// Learn nothing: report how well TABLE (the text form of `search::gammas`) predicts
    /// the moves of all the records.
    #[arg(long, value_name = "TABLE")]
    evaluate: Option<String>,
    /// The game records.
    #[arg(value_name = "SGF")]
    files: Vec<String>,
}

/// One position: its candidates `cands[start..start + len]`, the played one first.
struct Position {
    start: usize,
    len: usize,
}

/// A candidate with its shape replaced by a dense index, and its larger shapes' hashes
/// until `spatial` (a dense index, or `NO_SPATIAL`) is known.
#[derive(Clone, Copy)]
struct Candidate {
    shape: u32,
    spatial: u32,
    hashes: [u64; SIZES],
    levels: [u8; GROUPS.len()],
}

const NO_SPATIAL: u32 = u32::MAX;

struct Data {
    positions: Vec<Position>,
    cands: Vec<Candidate>,
}

/// What to read from the records.
struct Selection<'a> {
    player: Option<&'a str>,
    skip: usize,
    /// Playouts for each position's ownership estimate (the owner feature; 0: none).
    owner_playouts: usize,
}

pub fn run(args: Args) {
    let Args {
        player,
        skip,
        min_spatial,
        owner_playouts,
        out,
        evaluate,
        files,
    } = args;
    // Read before the records, so that a bad table fails at once.
    let table = evaluate.map(|file| {
        let text = std::fs::read_to_string(&file).expect("read the table");
        let gammas = Gammas::parse(&text).expect("a table of gammas");
        (file, gammas)
    });
    let mut shape_ids: HashMap<u32, u32> = HashMap::new();
    let mut train = Data {
        positions: Vec::new(),
        cands: Vec::new(),
    };
    let mut test = Data {
        positions: Vec::new(),
        cands: Vec::new(),
    };
    let selection = Selection {
        player: player.as_deref(),
        skip,
        owner_playouts,
    };
    for (i, file) in files.iter().enumerate() {
        let data = if i % 10 == 9 || table.is_some() {
            &mut test
        } else {
            &mut train
        };
        if let Err(e) = read_game(file, &selection, &mut shape_ids, data) {
            eprintln!("{file}: {e}");
        }
    }
    // The larger shapes that the training moves show often enough to get a weight.
    let mut played: HashMap<u64, usize> = HashMap::new();
    for p in &train.positions {
        for h in train.cands[p.start].hashes {
            *played.entry(h).or_default() += 1;
        }
    }
    let mut spatial_ids: HashMap<u64, u32> = HashMap::new();
    let known: Vec<u64> = match &table {
        Some((_, t)) => t.spatial.keys().copied().collect(),
        None => played
            .iter()
            .filter(|&(_, &n)| n >= min_spatial)
            .map(|(&h, _)| h)
            .collect(),
    };
    for h in known {
        let next = spatial_ids.len() as u32;
        spatial_ids.insert(h, next);
    }
    for c in train.cands.iter_mut().chain(test.cands.iter_mut()) {
        c.spatial = c
            .hashes
            .iter()
            .rev()
            .find_map(|h| spatial_ids.get(h).copied())
            .unwrap_or(NO_SPATIAL);
    }
    eprintln!(
        "{} training positions ({} candidates), {} held out; {} shapes, {} larger shapes",
        train.positions.len(),
        train.cands.len(),
        test.positions.len(),
        shape_ids.len(),
        spatial_ids.len()
    );
    if let Some((file, t)) = &table {
        let mut shapes = vec![1.0; shape_ids.len()];
        for (code, &id) in &shape_ids {
            shapes[id as usize] = t.shapes.get(code).copied().unwrap_or(1.0) as f64;
        }
        let mut spatial = vec![1.0; spatial_ids.len()];
        for (hash, &id) in &spatial_ids {
            spatial[id as usize] = t.spatial[hash] as f64;
        }
        let weights = Weights {
            shapes,
            spatial,
            groups: t
                .groups
                .iter()
                .map(|levels| levels.iter().map(|&g| g as f64).collect())
                .collect(),
        };
        eprintln!(
            "{file} on {} positions: log-likelihood per move {:.4}, top-1 {:.1}%",
            test.positions.len(),
            log_likelihood(&test, &weights),
            100.0 * top1(&test, &weights)
        );
        return;
    }
    let mut weights = Weights {
        shapes: vec![1.0; shape_ids.len()],
        spatial: vec![1.0; spatial_ids.len()],
        groups: GROUPS.iter().map(|&(_, n)| vec![1.0; n]).collect(),
    };
    for iteration in 0..40 {
        // The shapes, the larger shapes, then each group, updated in turn.
        for group in 0..GROUPS.len() + 2 {
            let levels = match group {
                0 => weights.shapes.len(),
                1 => weights.spatial.len(),
                g => GROUPS[g - 2].1,
            };
            // `None` for a move without a larger shape, whose weight stays 1.
            let level_of = |c: &Candidate| match group {
                0 => Some(c.shape as usize),
                1 => (c.spatial != NO_SPATIAL).then_some(c.spatial as usize),
                g => Some(c.levels[g - 2] as usize),
            };
            let mut wins = vec![0.0f64; levels];
            let mut c_sum = vec![0.0f64; levels];
            for p in &train.positions {
                let cands = &train.cands[p.start..p.start + p.len];
                let strengths: Vec<f64> = cands.iter().map(|c| strength(c, &weights)).collect();
                let total: f64 = strengths.iter().sum();
                if let Some(l) = level_of(&cands[0]) {
                    wins[l] += 1.0;
                }
                for (c, s) in cands.iter().zip(&strengths) {
                    if let Some(l) = level_of(c) {
                        let gamma = match group {
                            0 => weights.shapes[l],
                            1 => weights.spatial[l],
                            g => weights.groups[g - 2][l],
                        };
                        c_sum[l] += s / gamma / total;
                    }
                }
            }
            let gammas = match group {
                0 => &mut weights.shapes,
                1 => &mut weights.spatial,
                g => &mut weights.groups[g - 2],
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
                log_likelihood(&train, &weights),
                log_likelihood(&test, &weights),
                100.0 * top1(&test, &weights),
            );
        }
    }
    let mut gammas = Gammas::neutral();
    for (g, levels) in weights.groups.iter().enumerate() {
        for (l, &v) in levels.iter().enumerate() {
            gammas.groups[g][l] = v as f32;
        }
    }
    for (&code, &id) in &shape_ids {
        gammas
            .shapes
            .insert(code, weights.shapes[id as usize] as f32);
    }
    for (&hash, &id) in &spatial_ids {
        gammas
            .spatial
            .insert(hash, weights.spatial[id as usize] as f32);
    }
    let header = format!(
        "# shicho's move weights (gammas) for the tree's priors, learnt by shicho-train priors (train/src/priors.rs)\n\
         # from {} positions of {} records{}; see src/go/search/pattern/gammas.rs for the format.\n",
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

/// The gammas being learnt: per 3x3 shape, per larger shape, per level of each group.
struct Weights {
    shapes: Vec<f64>,
    spatial: Vec<f64>,
    groups: Vec<Vec<f64>>,
}

fn strength(c: &Candidate, w: &Weights) -> f64 {
    let mut s = w.shapes[c.shape as usize];
    if c.spatial != NO_SPATIAL {
        s *= w.spatial[c.spatial as usize];
    }
    for (g, &l) in c.levels.iter().enumerate() {
        s *= w.groups[g][l as usize];
    }
    s
}

fn log_likelihood(d: &Data, w: &Weights) -> f64 {
    let mut total = 0.0;
    for p in &d.positions {
        let cands = &d.cands[p.start..p.start + p.len];
        let sum: f64 = cands.iter().map(|c| strength(c, w)).sum();
        total += (strength(&cands[0], w) / sum).ln();
    }
    total / d.positions.len().max(1) as f64
}

/// How often the played move is the strongest candidate.
fn top1(d: &Data, w: &Weights) -> f64 {
    let mut hits = 0;
    for p in &d.positions {
        let cands = &d.cands[p.start..p.start + p.len];
        let played = strength(&cands[0], w);
        if cands[1..].iter().all(|c| strength(c, w) < played) {
            hits += 1;
        }
    }
    hits as f64 / d.positions.len().max(1) as f64
}

fn read_game(
    file: &str,
    selection: &Selection,
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
            Color::Black => record.info.black_name.as_deref(),
            Color::White => record.info.white_name.as_deref(),
        };
        selection
            .player
            .is_none_or(|p| name.is_some_and(|n| p.split('|').any(|alt| n.contains(alt))))
    };
    let mut game = Game::new(record.size, Rules::default(), komi).map_err(|e| e.to_string())?;
    let moves: Vec<(Color, Move)> = played.moves().collect();
    for (i, &(c, m)) in moves.iter().enumerate() {
        if let Move::Play(p) = m
            && i >= selection.skip
            && selected(c)
        {
            let last = i.checked_sub(1).and_then(|j| moves[j].1.point());
            let before = i.checked_sub(2).and_then(|j| moves[j].1.point());
            let board = game.board();
            let owner = (selection.owner_playouts > 0).then(|| {
                ownership(
                    board,
                    c,
                    selection.owner_playouts,
                    board.hash(),
                    &Tunables::default(),
                )
            });
            let seen = |q: Point| {
                let f = with_spatial(features(board, c, q, last, before), board, c, q);
                match &owner {
                    Some(owner) => with_owner(f, c, owner[q.index()] as f32),
                    None => f,
                }
            };
            let mut cands: Vec<Features> = vec![seen(p)];
            for &q in board.empties() {
                if q != p && !board.is_true_eye(c, q) && game.is_legal(c, Move::Play(q)) {
                    cands.push(seen(q));
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
                        spatial: NO_SPATIAL,
                        hashes: f.spatial,
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
