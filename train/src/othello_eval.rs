//! Learns Othello's pattern evaluation (`src/othello/search/patterns.rs`, weights in
//! `src/othello/search/data/patterns.bin`) from self-play, and measures it on held-out games.
//!
//! ```text
//! shicho-train othello-eval [--games N] [--held-out M] [--rounds R]
//!     [--nodes K] [--exact E] [--deep D] [--threads T] [--dir DIR] [--out FILE]
//!     [--compare FILE]
//! ```
//! Defaults: 4000 games, 400 held out, 2 rounds, 20000 nodes a move, exact from 18 empties,
//! 100 deep held-out positions, 2 threads, `target/othello-eval`, the shipped file.
//!
//! Round r plays N games of self-play (round 1 with the hand-written evaluation, later rounds
//! with the tables of the round before), and fits tables on the samples of every round so
//! far. A game: a few random moves from the start (2 to 12, drawn
//! per game), then the searcher at K nodes a move without its solver; from E empties on,
//! the exact solver plays. Every position after the random moves is a sample: labelled by
//! the exact solver's score where it played, by the search score of its move before (a
//! deep search, whose leaves lie a phase or two nearer the end). Each phase's weights are
//! then fitted by least squares on the samples of that phase and, at half weight, its two
//! neighbours: gradient descent where each weight steps by the mean error of the samples
//! that use it (as Buro fitted Logistello's tables), shrunk towards zero when few do.
//!
//! The held-out games (seeds apart, played once as in round 1) give positions with exact
//! scores: every one with at most E empties, and D more with 21 to 24 empties solved for
//! this. Each round reports the mean absolute error of its tables on them, by empties,
//! beside the hand-written evaluation's (as it is, in hundredths of a disc, and rescaled by
//! the least-squares line that fits it best on the training samples), and with `--compare`
//! beside the tables of FILE too (earlier tables, such as the shipped ones). Games are cached in
//! DIR by round and settings, so a rerun fits again without playing. Everything is
//! deterministic: seeded openings, node-limited searches, one seed per game whatever the
//! threads.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use shicho::othello::search::patterns::{self, PHASES, Weights, feature_count, features, phase};
use shicho::othello::{
    Board, EndTable, Evaluation, Game, Limits, Move, Searcher, Square, random_move, solve_in,
    static_evaluation,
};
use shicho::{Color, Rng};

/// One labelled position: the side to move's discs and the other's.
#[derive(Clone, Copy, Debug)]
struct Sample {
    own: u64,
    opp: u64,
    own_moves: u8,
    opp_moves: u8,
    /// Discs, for the side to move.
    label: f32,
    exact: bool,
}

impl Sample {
    fn empties(&self) -> u32 {
        (!(self.own | self.opp)).count_ones()
    }

    const BYTES: usize = 8 + 8 + 1 + 1 + 4 + 1;

    fn write(&self, out: &mut Vec<u8>) {
        out.extend(self.own.to_le_bytes());
        out.extend(self.opp.to_le_bytes());
        out.push(self.own_moves);
        out.push(self.opp_moves);
        out.extend(self.label.to_le_bytes());
        out.push(self.exact as u8);
    }

    fn read(b: &[u8]) -> Sample {
        let u = |r: std::ops::Range<usize>| u64::from_le_bytes(b[r].try_into().unwrap());
        Sample {
            own: u(0..8),
            opp: u(8..16),
            own_moves: b[16],
            opp_moves: b[17],
            label: f32::from_le_bytes(b[18..22].try_into().unwrap()),
            exact: b[22] != 0,
        }
    }
}

/// Othello's pattern tables from self-play, measured on held-out games with exact scores.
///
/// Round r plays N games of self-play (round 1 with the hand-written evaluation, later
/// rounds with the tables of the round before) and fits tables on the samples of every round
/// so far; each round reports their mean absolute error on the held-out positions. Games are
/// cached in DIR by round and settings, so a rerun fits again without playing; everything is
/// deterministic. The shipped tables are src/othello/search/data/patterns.bin (the default --out);
/// doc/othello.md records the command line that made them.
#[derive(clap::Args)]
pub struct Settings {
    /// Self-play games a round.
    #[arg(long, value_name = "N", default_value_t = 4000)]
    games: usize,
    /// Held-out games.
    #[arg(long, value_name = "M", default_value_t = 400)]
    held_out: usize,
    /// Rounds of self-play and fitting.
    #[arg(long, value_name = "R", default_value_t = 2)]
    rounds: usize,
    /// The searcher's nodes a move.
    #[arg(long, value_name = "K", default_value_t = 20_000)]
    nodes: u64,
    /// The exact solver plays from E empties on.
    #[arg(long, value_name = "E", default_value_t = 18)]
    exact: u32,
    /// Held-out positions at 21 to 24 empties solved for the report.
    #[arg(long, value_name = "D", default_value_t = 100)]
    deep: usize,
    /// Threads playing and solving.
    #[arg(long, value_name = "T", default_value_t = 2)]
    threads: usize,
    /// Where the games are cached and each round's tables written.
    #[arg(long, value_name = "DIR", default_value = "target/othello-eval")]
    dir: PathBuf,
    /// Where the last round's tables go (relative to the current folder: run from the
    /// repository root).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "src/othello/search/data/patterns.bin"
    )]
    out: PathBuf,
    /// Tables whose error is reported beside the new ones' (earlier tables, such as the
    /// shipped ones).
    #[arg(long, value_name = "FILE")]
    compare: Option<PathBuf>,
}

/// Training games have seeds from 1, held-out games from here.
const HELD_OUT_SEED: u64 = 1 << 40;

pub fn run(s: Settings) {
    fs::create_dir_all(&s.dir).expect("create the data folder");
    let held_out = held_out_samples(&s);
    let exact_held = held_out.iter().filter(|x| x.exact).count();
    println!("held out: {exact_held} positions with exact scores");
    let compared = s.compare.as_ref().map(|path| {
        let bytes = fs::read(path).expect("read --compare");
        Arc::new(Weights::read(&bytes).expect("--compare: not a tables file"))
    });
    let mut evaluation = Evaluation::Hand;
    let mut weights = None;
    let mut samples = Vec::new();
    for round in 1..=s.rounds {
        let name = format!(
            "round{round}-g{}-n{}-e{}.samples",
            s.games, s.nodes, s.exact
        );
        // Later rounds' games have seeds of their own.
        let first = 1 + (round as u64 - 1) * s.games as u64;
        let played = cached(&s.dir.join(name), || {
            play_games(first, s.games, &evaluation, &s)
        });
        println!(
            "round {round}: {} samples from {} games",
            played.len(),
            s.games
        );
        samples.extend(played);
        let fitted = fit_all(&samples);
        let w = Weights::from_features(&fitted);
        let bytes = w.to_bytes();
        fs::write(s.dir.join(format!("round{round}.bin")), &bytes).expect("write the tables");
        let w = Arc::new(w);
        report(&held_out, &samples, &w, compared.as_ref());
        evaluation = Evaluation::Patterns(w.clone());
        weights = Some(bytes);
    }
    if let Some(bytes) = weights {
        fs::write(&s.out, &bytes).expect("write --out");
        println!("wrote {} ({} bytes)", s.out.display(), bytes.len());
    }
}

/// The samples of `path`, or those `make` gives, then written there.
fn cached(path: &Path, make: impl FnOnce() -> Vec<Sample>) -> Vec<Sample> {
    if let Ok(bytes) = fs::read(path) {
        return bytes
            .chunks_exact(Sample::BYTES)
            .map(Sample::read)
            .collect();
    }
    let samples = make();
    let mut out = Vec::with_capacity(samples.len() * Sample::BYTES);
    for x in &samples {
        x.write(&mut out);
    }
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, out).expect("write the samples");
    fs::rename(&tmp, path).expect("write the samples");
    samples
}

/// The held-out games' exact positions, and `deep` more at 21-24 empties solved for this.
fn held_out_samples(s: &Settings) -> Vec<Sample> {
    let name = format!(
        "held-out-g{}-n{}-e{}-d{}.samples",
        s.held_out, s.nodes, s.exact, s.deep
    );
    cached(&s.dir.join(name), || {
        let mut samples = play_games(HELD_OUT_SEED, s.held_out, &Evaluation::Hand, s);
        let mut deep: Vec<Sample> = samples
            .iter()
            .filter(|x| (21..=24).contains(&x.empties()))
            .copied()
            .collect();
        // Every k-th, so that they come from many games.
        let step = (deep.len() / s.deep.max(1)).max(1);
        deep = deep.into_iter().step_by(step).take(s.deep).collect();
        let solved = parallel(deep.len(), s.threads, |k| {
            let table = EndTable::new(22);
            let x = deep[k];
            let (board, c) = to_board(x.own, x.opp);
            let score = solve_in(&table, &board, c, &Evaluation::Hand).score;
            Sample {
                label: score as f32,
                exact: true,
                ..x
            }
        });
        samples.retain(|x| x.exact);
        samples.extend(solved);
        samples
    })
}

/// Runs `job(0..n)` on `threads` threads; the results in order.
fn parallel<T: Send>(n: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let mut results: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let slots: Vec<std::sync::Mutex<&mut Option<T>>> =
        results.iter_mut().map(std::sync::Mutex::new).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= n {
                        break;
                    }
                    let r = job(k);
                    if let Ok(mut slot) = slots[k].lock() {
                        **slot = Some(r);
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d.is_multiple_of(100) || d == n {
                        eprint!("\r{d}/{n}");
                        let _ = std::io::stderr().flush();
                    }
                }
            });
        }
    });
    eprintln!();
    drop(slots);
    results.into_iter().flatten().collect()
}

/// Plays `n` games with seeds from `first`; their samples in seed order.
fn play_games(first: u64, n: usize, evaluation: &Evaluation, s: &Settings) -> Vec<Sample> {
    let games = parallel(n, s.threads, |k| {
        play_game(first + k as u64, evaluation, s.nodes, s.exact)
    });
    games.into_iter().flatten().collect()
}

/// The discs of `c` on an 8x8 board.
fn bits(board: &Board, c: Color) -> u64 {
    board
        .squares()
        .filter(|&q| board.get(q) == Some(c))
        .fold(0, |b, q| b | 1 << (q.y() * 8 + q.x()))
}

/// The board with `own` to move (as Black, which the evaluation cannot tell).
fn to_board(own: u64, opp: u64) -> (Board, Color) {
    let mut b = Board::empty(8).unwrap();
    for i in 0..64 {
        let disc = if own >> i & 1 != 0 {
            Some(Color::Black)
        } else if opp >> i & 1 != 0 {
            Some(Color::White)
        } else {
            None
        };
        b.set(Square::from_index(i, 8), disc);
    }
    (b, Color::Black)
}

fn play_game(seed: u64, evaluation: &Evaluation, nodes: u64, exact: u32) -> Vec<Sample> {
    thread_local! {
        static SEARCHER: std::cell::RefCell<Option<Searcher>> =
            const { std::cell::RefCell::new(None) };
    }
    SEARCHER.with(|searcher| {
        let mut searcher = searcher.borrow_mut();
        let searcher = searcher.get_or_insert_with(Searcher::new);
        searcher.evaluation = evaluation.clone();
        searcher.solve_empties = Some(0);
        // A fresh table per game: the game's solves share it.
        let table = EndTable::new(20);
        let mut rng = Rng::new(seed);
        let random_plies = 2 + rng.below(11);
        let mut g = Game::new(8).unwrap();
        let mut samples = Vec::new();
        let stop = AtomicBool::new(false);
        let mut ply = 0;
        while !g.is_over() {
            let c = g.to_move();
            let board = g.board().clone();
            let moves = board.legal_moves(c);
            if moves.is_empty() {
                g.play(Move::Pass).unwrap();
                continue;
            }
            let mv = if ply < random_plies {
                random_move(&board, c, &mut rng).map_or(Move::Pass, Move::Play)
            } else {
                let (label, mv, is_exact) = if board.empties() <= exact {
                    let s = solve_in(&table, &board, c, evaluation);
                    (s.score as f32, s.best, true)
                } else {
                    let r = searcher.choose(&board, c, &Limits::nodes(nodes), &stop, &mut |_| {});
                    (r.score as f32 / 100.0, r.best(), r.exact)
                };
                samples.push(Sample {
                    own: bits(&board, c),
                    opp: bits(&board, c.other()),
                    own_moves: moves.len() as u8,
                    opp_moves: board.legal_moves(c.other()).len() as u8,
                    label,
                    exact: is_exact,
                });
                mv
            };
            g.play(mv).unwrap();
            ply += 1;
        }
        samples
    })
}

/// Each phase's weights, in discs.
fn fit_all(samples: &[Sample]) -> Vec<Vec<f32>> {
    let feats: Vec<Vec<u32>> = samples
        .iter()
        .map(|x| features(x.own, x.opp, x.own_moves as u32, x.opp_moves as u32))
        .collect();
    (0..PHASES)
        .map(|p| {
            let chosen: Vec<(usize, f32)> = samples
                .iter()
                .enumerate()
                .filter_map(|(k, x)| {
                    let q = phase(x.empties());
                    if q == p {
                        Some((k, 1.0))
                    } else if q.abs_diff(p) == 1 {
                        Some((k, 0.5))
                    } else {
                        None
                    }
                })
                .collect();
            fit(&chosen, samples, &feats)
        })
        .collect()
}

/// Sweeps of gradient descent.
const EPOCHS: usize = 300;
/// Each weight's step is the mean error of its samples times this (about one over the
/// features a sample has, so that a sample's prediction moves by about its error) ...
const RATE: f32 = 1.0 / (patterns::PLACES as f32 + 3.0);
/// ... with this many virtual samples of error zero (pulls rare weights to zero).
const PRIOR: f32 = 4.0;

/// The least-squares weights of the samples `chosen` (index, weight).
fn fit(chosen: &[(usize, f32)], samples: &[Sample], feats: &[Vec<u32>]) -> Vec<f32> {
    let n = feature_count();
    let mut w = vec![0f32; n];
    if chosen.is_empty() {
        return w;
    }
    let mut count = vec![0f32; n];
    for &(k, wt) in chosen {
        for &f in &feats[k] {
            count[f as usize] += wt;
        }
    }
    let mut grad = vec![0f32; n];
    for _ in 0..EPOCHS {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for &(k, wt) in chosen {
            let f = &feats[k];
            let pred: f32 = f.iter().map(|&i| w[i as usize]).sum();
            let err = (samples[k].label - pred) * wt;
            for &i in f {
                grad[i as usize] += err;
            }
        }
        for i in 0..n {
            if count[i] > 0.0 {
                w[i] += RATE * grad[i] / (count[i] + PRIOR);
            }
        }
    }
    w
}

/// Mean absolute errors on the held-out positions, by empties, of the tables, of the
/// hand-written evaluation, of it rescaled, and of the `compared` tables.
fn report(
    held_out: &[Sample],
    training: &[Sample],
    weights: &Arc<Weights>,
    compared: Option<&Arc<Weights>>,
) {
    let learnt = Evaluation::Patterns(weights.clone());
    let other = compared.map(|w| Evaluation::Patterns(w.clone()));
    let eval = |ev: &Evaluation, x: &Sample| {
        let (board, c) = to_board(x.own, x.opp);
        static_evaluation(ev, &board, c) as f64 / 100.0
    };
    // The line a * hand + b closest to the labels of the training samples, per phase.
    let mut line = vec![(1.0, 0.0); PHASES];
    for (p, l) in line.iter_mut().enumerate() {
        let pts: Vec<(f64, f64)> = training
            .iter()
            .filter(|x| phase(x.empties()) == p)
            .map(|x| (eval(&Evaluation::Hand, x), x.label as f64))
            .collect();
        if pts.len() > 10 {
            let m = pts.len() as f64;
            let (sx, sy) = pts
                .iter()
                .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
            let (mx, my) = (sx / m, sy / m);
            let sxy: f64 = pts.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
            let sxx: f64 = pts.iter().map(|&(x, _)| (x - mx) * (x - mx)).sum();
            let a = if sxx > 0.0 { sxy / sxx } else { 1.0 };
            *l = (a, my - a * mx);
        }
    }
    let (head, rule) = if other.is_some() {
        (" compared |", "---|")
    } else {
        ("", "")
    };
    println!("| empties | positions | learnt | hand-written | hand-written, rescaled |{head}");
    println!("|---|---|---|---|---|{rule}");
    let buckets = [(1, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 24)];
    let mut total = Errors::default();
    for (lo, hi) in buckets {
        let mut errors = Errors::default();
        for x in held_out.iter().filter(|x| (lo..=hi).contains(&x.empties())) {
            let y = x.label as f64;
            let h = eval(&Evaluation::Hand, x);
            let (sa, sb) = line[phase(x.empties())];
            errors.positions += 1;
            errors.learnt += (eval(&learnt, x) - y).abs();
            errors.hand += (h - y).abs();
            errors.rescaled += (sa * h + sb - y).abs();
            if let Some(o) = &other {
                errors.compared += (eval(o, x) - y).abs();
            }
        }
        if errors.positions > 0 {
            errors.print(&format!("{lo}-{hi}"), other.is_some());
            total.add(&errors);
        }
    }
    total.print("all", other.is_some());
}

/// Sums of absolute errors over some held-out positions, one per evaluation of the report.
#[derive(Default)]
struct Errors {
    positions: usize,
    learnt: f64,
    hand: f64,
    rescaled: f64,
    compared: f64,
}

impl Errors {
    fn add(&mut self, other: &Errors) {
        self.positions += other.positions;
        self.learnt += other.learnt;
        self.hand += other.hand;
        self.rescaled += other.rescaled;
        self.compared += other.compared;
    }

    /// The report's row of mean errors (with the `--compare` column when asked).
    fn print(&self, label: &str, with_compared: bool) {
        let m = self.positions.max(1) as f64;
        let compared = if with_compared {
            format!(" {:.2} |", self.compared / m)
        } else {
            String::new()
        };
        println!(
            "| {label} | {} | {:.2} | {:.2} | {:.2} |{compared}",
            self.positions,
            self.learnt / m,
            self.hand / m,
            self.rescaled / m,
        );
    }
}
