//! The referee that decides, against scripted fake engines: the SPRT stops with the right
//! verdict where an independent computation of the LLR says it must, a resumed test goes on
//! from where it stopped, N shards merge into the run they slice, and the judge's win rates
//! land in the records and in judge.csv.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use shicho::go::sgf::SgfGame;
use shicho::sgf::parse_collection;
use shicho_match::{
    Hypothesis, MatchConfig, Openings, RESULTS_FILE, SprtSpec, merge, read_judge, read_results,
    run_match, split_csv_line,
};

mod common;
use common::{BIN, fake, fake_line, out_dir};

/// Engine A resigns at its first move of a game with probability `1 - p` (drawn from the
/// game's opening and colours), else plays A1 and B1; engine B plays J9 and resigns. So A
/// wins each game with probability `p`, whichever colour it has. The random openings stay
/// off the first two lines, where the fakes play.
fn config(name: &str, p: f64, alternate: bool) -> MatchConfig {
    let a = fake(&format!(
        "--name a --moves 'A1 B1' --resign-chance {} --seed 5",
        1.0 - p
    ));
    let b = fake("--name b --moves 'J9 resign'");
    let mut cfg = MatchConfig::new([a, b], out_dir(name));
    cfg.size = 9;
    cfg.parallel = 1;
    cfg.alternate = alternate;
    cfg.openings = Openings::Random(4);
    cfg.seed = 17;
    cfg.answer_timeout = Duration::from_secs(20);
    cfg
}

// ----- an independent SPRT ------------------------------------------------------------------

/// The GSPRT's log-likelihood ratio written out independently of the referee's: the
/// categories' frequencies (each unseen one weighted 0.001), and under each hypothesis
/// the distribution of that expected score that makes them most likely, whose Lagrange
/// multiplier is found here by a safeguarded Newton iteration.
fn independent_llr(elo0: f64, elo1: f64, unit_scores: &[f64], categories: usize) -> f64 {
    if unit_scores.is_empty() {
        return 0.0;
    }
    let mut weights = vec![0.0f64; categories];
    for s in unit_scores {
        weights[(s * (categories - 1) as f64).round() as usize] += 1.0;
    }
    for w in &mut weights {
        if *w == 0.0 {
            *w = 0.001;
        }
    }
    let n: f64 = weights.iter().sum();
    let p: Vec<f64> = weights.iter().map(|w| w / n).collect();
    let a: Vec<f64> = (0..categories)
        .map(|i| i as f64 / (categories - 1) as f64)
        .collect();
    let log_likelihood = |s: f64| {
        let d: Vec<f64> = a.iter().map(|a| a - s).collect();
        let (lo, hi) = (-1.0 / d[categories - 1], -1.0 / d[0]);
        let g = |x: f64| {
            (0..categories)
                .map(|i| p[i] * d[i] / (1.0 + x * d[i]))
                .sum::<f64>()
        };
        let dg = |x: f64| {
            -(0..categories)
                .map(|i| p[i] * d[i] * d[i] / (1.0 + x * d[i]).powi(2))
                .sum::<f64>()
        };
        let mut x = 0.0f64;
        for _ in 0..500 {
            let step = g(x) / dg(x);
            let mut next = x - step;
            // Stay inside the interval where every weight is positive.
            if next <= lo {
                next = (x + lo) / 2.0;
            } else if next >= hi {
                next = (x + hi) / 2.0;
            }
            if (next - x).abs() < 1e-15 {
                break;
            }
            x = next;
        }
        (0..categories)
            .map(|i| p[i] * (p[i] / (1.0 + x * d[i])).ln())
            .sum::<f64>()
    };
    let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    n * (log_likelihood(score(elo1)) - log_likelihood(score(elo0)))
}

/// Where the independent test stops on these game scores (A's, in game order): the
/// verdict, the number of games, the LLR.
fn independent_stop(
    spec: &SprtSpec,
    scores: &[f64],
    pairs: bool,
) -> Option<(Hypothesis, usize, f64)> {
    let lower = (spec.beta / (1.0 - spec.alpha)).ln();
    let upper = ((1.0 - spec.beta) / spec.alpha).ln();
    let mut units = Vec::new();
    for (i, &s) in scores.iter().enumerate() {
        if pairs {
            if i % 2 == 0 {
                continue;
            }
            units.push((scores[i - 1] + s) / 2.0);
        } else {
            units.push(s);
        }
        let llr = independent_llr(spec.elo0, spec.elo1, &units, if pairs { 5 } else { 3 });
        if llr >= upper {
            return Some((Hypothesis::H1, i + 1, llr));
        }
        if llr <= lower {
            return Some((Hypothesis::H0, i + 1, llr));
        }
    }
    None
}

/// Monte Carlo over the test with win probability `p` per game: the share of runs that
/// accept H1, and the 99.5th percentile of their lengths in games.
fn simulate(spec: &SprtSpec, p: f64, pairs: bool) -> (f64, usize) {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    };
    let runs = 1000;
    let mut lengths = Vec::new();
    let mut h1 = 0;
    for _ in 0..runs {
        let mut scores = Vec::new();
        loop {
            scores.push(if uniform() < p { 1.0 } else { 0.0 });
            if scores.len() % 2 == 1 && pairs {
                continue;
            }
            if let Some((h, n, _)) = independent_stop_last(spec, &scores, pairs) {
                h1 += usize::from(h == Hypothesis::H1);
                lengths.push(n);
                break;
            }
            assert!(scores.len() < 5000, "the simulated test never stops");
        }
    }
    lengths.sort_unstable();
    (h1 as f64 / runs as f64, lengths[runs * 995 / 1000])
}

/// The verdict after the last game only (the simulation checks as it goes).
fn independent_stop_last(
    spec: &SprtSpec,
    scores: &[f64],
    pairs: bool,
) -> Option<(Hypothesis, usize, f64)> {
    let units: Vec<f64> = if pairs {
        scores.chunks(2).map(|c| (c[0] + c[1]) / 2.0).collect()
    } else {
        scores.to_vec()
    };
    let llr = independent_llr(spec.elo0, spec.elo1, &units, if pairs { 5 } else { 3 });
    let lower = (spec.beta / (1.0 - spec.alpha)).ln();
    let upper = ((1.0 - spec.beta) / spec.alpha).ln();
    if llr >= upper {
        Some((Hypothesis::H1, scores.len(), llr))
    } else if llr <= lower {
        Some((Hypothesis::H0, scores.len(), llr))
    } else {
        None
    }
}

/// A's score in each game of the results file, in game order.
fn scores_of_a(dir: &Path) -> Vec<f64> {
    let mut rows = read_results(&dir.join(RESULTS_FILE), shicho_match::CSV_HEADER).unwrap();
    rows.sort_by_key(|r| r.number);
    rows.iter()
        .map(|r| {
            let a_is_black = r.black.starts_with('a');
            match r.winner() {
                None => 0.5,
                Some(c) => f64::from(u8::from((c == shicho::Color::Black) == a_is_black)),
            }
        })
        .collect()
}

fn check_sprt(name: &str, p: f64, alternate: bool, spec: &str, want: Hypothesis) {
    let spec: SprtSpec = spec.parse().unwrap();
    let mut cfg = config(name, p, alternate);
    cfg.sprt = Some(spec);
    cfg.games = 400;
    let report = run_match(&cfg).unwrap();
    let sprt = report.sprt.expect("the test ran");
    let (verdict, at) = sprt.verdict.expect("the test decided");
    assert_eq!(verdict, want, "{name}: {}", report.summary);
    let scores = scores_of_a(&cfg.out_dir);
    // One game at a time: the match stopped at the deciding game.
    assert_eq!(scores.len(), at, "{name}");
    let (h, n, llr) = independent_stop(&spec, &scores, alternate).expect("independent verdict");
    assert_eq!((h, n), (verdict, at), "{name}");
    assert!(
        (llr - sprt.llr).abs() < 1e-6,
        "{name}: {llr} vs {}",
        sprt.llr
    );
    let (share, long) = simulate(&spec, p, alternate);
    assert!(
        at <= long,
        "{name}: {at} games, more than 99.5% of simulated tests take ({long})"
    );
    let right = if want == Hypothesis::H1 {
        share
    } else {
        1.0 - share
    };
    assert!(
        right > 0.9,
        "{name}: the simulation accepts {want:?} only {right}"
    );
    assert!(
        report
            .summary
            .contains(&format!("SPRT verdict: {want:?} accepted after {at} games")),
        "{}",
        report.summary
    );
    let title = format!("{at} of up to 400 games (numbers 1 to {at})");
    assert!(report.summary.starts_with(&title), "{}", report.summary);
}

#[test]
fn sprt_accepts_h1_for_the_stronger_engine() {
    // p = 0.75 is +191 Elo, well above H1's 100.
    check_sprt("h1", 0.75, false, "0,100", Hypothesis::H1);
}

#[test]
fn sprt_accepts_h0_for_the_weaker_engine_over_pairs() {
    // p = 0.35 is -108 Elo: H0 (0) is much closer than H1 (100).
    check_sprt("h0-pairs", 0.35, true, "0,100", Hypothesis::H0);
}

#[test]
fn a_resumed_test_continues_where_it_stopped() {
    let spec: SprtSpec = "0,100".parse().unwrap();
    // Uninterrupted.
    let mut whole = config("resume-whole", 0.75, true);
    whole.sprt = Some(spec);
    whole.games = 400;
    let full = run_match(&whole).unwrap().sprt.unwrap();
    // The same match in three runs of at most 5 games; the later runs are not even told
    // the test (the directory holds it).
    let mut part = config("resume-parts", 0.75, true);
    part.sprt = Some(spec);
    part.games = 5;
    let first = run_match(&part).unwrap().sprt.unwrap();
    assert!(
        first.verdict.is_none(),
        "decided in 5 games: pick slower settings"
    );
    part.sprt = None;
    part.games = 1;
    let second = run_match(&part).unwrap().sprt.unwrap();
    // Game 6 completes the third pair: the LLR is the independent one over 6 games.
    let scores = scores_of_a(&part.out_dir);
    let units: Vec<f64> = scores.chunks(2).map(|c| (c[0] + c[1]) / 2.0).collect();
    let llr = independent_llr(0.0, 100.0, &units, 5);
    assert_eq!(second.games, 6);
    assert!((second.llr - llr).abs() < 1e-6, "{} vs {llr}", second.llr);
    assert_eq!(
        second.counts.iter().sum::<usize>(),
        first.counts.iter().sum::<usize>() + 1
    );
    part.games = 400;
    let last = run_match(&part).unwrap().sprt.unwrap();
    assert_eq!(last.verdict, full.verdict);
    assert!((last.llr - full.llr).abs() < 1e-12);
    // Once decided, a resumed run plays nothing.
    let again = run_match(&part).unwrap();
    assert!(again.records.is_empty());
    assert_eq!(again.sprt.unwrap().verdict, full.verdict);
    // Another test in the same directory is refused.
    part.sprt = Some("0,50".parse().unwrap());
    let err = run_match(&part).unwrap_err();
    assert!(err.0.contains("--sprt 0,100,0.05,0.05"), "{err}");
}

/// The results file with the measured columns (start, duration, thinking time) blanked.
fn without_times(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join(RESULTS_FILE)).unwrap();
    text.lines()
        .map(|line| {
            let mut f = split_csv_line(line);
            if f[0] != "game" {
                for i in [1, 2, 14, 15] {
                    f[i] = "-".to_string();
                }
            }
            f.join("|")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shards_merge_into_the_single_run() {
    let mut single = config("single", 0.7, true);
    single.games = 14;
    run_match(&single).unwrap();
    let mut dirs = Vec::new();
    for k in 1..=3 {
        let mut shard = config(&format!("shard-{k}"), 0.7, true);
        shard.games = 14;
        shard.shard = Some(format!("{k}/3").parse().unwrap());
        // Two shards play in two parts: the slice continues where it stopped.
        if k != 2 {
            shard.games = 8;
            run_match(&shard).unwrap();
            shard.games = 6;
        }
        run_match(&shard).unwrap();
        dirs.push(shard.out_dir.clone());
    }
    let merged = out_dir("merged");
    // Given in any order.
    dirs.reverse();
    let summary = merge(&dirs, &merged).unwrap();
    assert_eq!(without_times(&merged), without_times(&single.out_dir));
    // Every game's record came along.
    for n in 1..=14 {
        assert!(
            merged.join(format!("game-{n:04}.sgf")).is_file(),
            "game {n}"
        );
    }
    let single_summary = std::fs::read_to_string(single.out_dir.join("summary.txt")).unwrap();
    let line = |text: &str, start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .map(str::to_string)
    };
    assert_eq!(line(&summary, "A = "), line(&single_summary, "A = "));
    assert!(line(&summary, "A = ").is_some());
    // A shard twice, or into a directory with results, is refused.
    let twice = [dirs[0].clone(), dirs[0].clone()];
    assert!(
        merge(&twice, &out_dir("twice"))
            .unwrap_err()
            .contains("given twice")
    );
    assert!(merge(&dirs, &merged).unwrap_err().contains("already holds"));
}

/// Shards started without --seed draw their seeds from the clock. From listed openings the
/// seed decides nothing, so they merge; from random openings their games would not be the
/// single run's, so the merge refuses them.
#[test]
fn shards_with_their_own_seeds_merge_only_from_listed_openings() {
    for (name, random) in [("listed", false), ("random", true)] {
        let mut dirs = Vec::new();
        for k in 1..=2 {
            let mut shard = config(&format!("seeds-{name}-{k}"), 0.7, true);
            shard.games = 4;
            shard.seed = 100 + k as u64;
            if !random {
                shard.openings = Openings::List(vec![vec!["D4".into(), "F6".into()]]);
            }
            shard.shard = Some(format!("{k}/2").parse().unwrap());
            run_match(&shard).unwrap();
            dirs.push(shard.out_dir.clone());
        }
        let merged = merge(&dirs, &out_dir(&format!("seeds-{name}-merged")));
        if random {
            assert!(merged.unwrap_err().contains("different --seed"));
        } else {
            assert!(merged.unwrap().contains("4 games"));
        }
    }
}

#[test]
fn the_merge_gives_the_verdict_of_the_union() {
    let spec: SprtSpec = "0,100".parse().unwrap();
    let mut single = config("verdict-single", 0.75, false);
    single.games = 400;
    single.sprt = Some(spec);
    let (h, at) = run_match(&single).unwrap().sprt.unwrap().verdict.unwrap();
    let mut dirs = Vec::new();
    for k in 1..=2 {
        let mut shard = config(&format!("verdict-shard-{k}"), 0.75, false);
        shard.sprt = Some(spec);
        shard.games = at + 4;
        shard.shard = Some(format!("{k}/2").parse().unwrap());
        let report = run_match(&shard).unwrap();
        // A shard does not stop on its own slice.
        assert!(report.sprt.is_none());
        assert!(
            report.summary.contains("merge` gives the verdict"),
            "{}",
            report.summary
        );
        dirs.push(shard.out_dir.clone());
    }
    let merged = out_dir("verdict-merged");
    let summary = merge(&dirs, &merged).unwrap();
    assert!(
        summary.contains(&format!("SPRT verdict: {h:?} accepted after {at} games")),
        "{summary}"
    );
}

#[test]
fn the_judge_annotates_records_and_rates_moves() {
    // Black's win rate by the fake judge after 0, 1, 2, ... moves. The opening is two
    // moves (D4 F6), then A plays A1, B plays J9, A plays B1, B resigns.
    let winrates = "0.5 0.6 0.55 0.3 0.35 0.9";
    let mut cfg = config("judge", 1.0, false);
    cfg.openings = Openings::List(vec![vec!["D4".into(), "F6".into()]]);
    cfg.games = 1;
    cfg.judge = Some(shicho_match::JudgeConfig {
        argv: fake(&format!(
            "--name judge --analyze kata --winrates '{winrates}'"
        )),
        visits: 30,
        time: Duration::from_secs(10),
    });
    let report = run_match(&cfg).unwrap();
    let text = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    let collection = parse_collection(&text).unwrap();
    let game = SgfGame::from_collection(&collection).unwrap();
    assert_eq!(game.moves.len(), 5);
    // The record still reads as the game, with its comments.
    assert_eq!(game.moves[0].comment.as_deref(), Some("opening"));
    let tree = &collection.0[0];
    let sbkv: Vec<&str> = tree.nodes.iter().filter_map(|n| n.value("SBKV")).collect();
    assert_eq!(sbkv, ["50.00", "60.00", "55.00", "30.00", "35.00", "90.00"]);
    let lz: Vec<&str> = tree.nodes.iter().filter_map(|n| n.value("LZ")).collect();
    // Lizzie's value is the mover's: White's J9 (move 4) leaves Black 35%, White 65%.
    assert_eq!(lz[3], "shicho-match 65.0 30");
    let rows = read_judge(&cfg.out_dir).unwrap();
    let losses: Vec<(String, String, f64)> = rows
        .iter()
        .map(|r| {
            (
                r.kind.clone(),
                r.player.clone(),
                (r.loss * 1000.0).round() / 1000.0,
            )
        })
        .collect();
    assert_eq!(
        losses,
        [
            ("opening".into(), "a 0".into(), -0.1),
            ("opening".into(), "b 0".into(), -0.05),
            ("engine".into(), "a 0".into(), 0.25),
            ("engine".into(), "b 0".into(), 0.05),
            ("engine".into(), "a 0".into(), -0.55),
        ]
    );
    // A: losses 0.25 and 0 (negative counts as 0): mean 0.125, one blunder of two.
    assert!(
        report
            .summary
            .contains("judge A = a 0: all 0.125 (50.0% blunders, 2 moves)"),
        "{}",
        report.summary
    );
    assert!(
        report.summary.contains("won 0 of 1 decided games"),
        "{}",
        report.summary
    );

    // The separate pass with a Leela Zero-style judge reporting Black's win rates finds the
    // same values.
    let out = Command::new(BIN)
        .args(["judge", "--again", "-q", "--judge-visits", "20", "--judge"])
        .arg(fake_line(&format!(
            "--analyze lz --report black --winrates '{winrates}'"
        )))
        .arg(&cfg.out_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = read_judge(&cfg.out_dir).unwrap();
    assert_eq!(again.len(), rows.len());
    for (a, b) in again.iter().zip(&rows) {
        assert!((a.loss - b.loss).abs() < 1e-9 && a.black_after == b.black_after);
    }
    assert!(String::from_utf8_lossy(&out.stdout).contains("judge A = a 0: all 0.125"));
    let text = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    assert_eq!(text.matches("SBKV").count(), 6, "{text}");
}

#[test]
fn a_failing_judge_leaves_the_match_standing() {
    let mut cfg = config("judge-fails", 1.0, false);
    cfg.games = 2;
    // Lists no analysis command.
    cfg.judge = Some(shicho_match::JudgeConfig {
        argv: fake("--name judge"),
        visits: 10,
        time: Duration::from_secs(5),
    });
    let report = run_match(&cfg).unwrap();
    assert_eq!(report.records.len(), 2);
    assert!(
        report.summary.contains("2 games of this run not judged"),
        "{}",
        report.summary
    );
}

#[test]
fn bad_options_are_explained() {
    for (args, words) in [
        (vec!["--sprt", "10,0"], "ELO0 must be below ELO1"),
        (vec!["--sprt", "0,10,0.6,0.05"], "ALPHA must be"),
        (vec!["--shard", "3/2"], "K/N"),
        (
            vec!["--shard", "1/2", "--random-opening", "4"],
            "needs --seed",
        ),
        (vec!["--judge", "x", "--judge-visits", "0"], "at least 1"),
    ] {
        let out = Command::new(BIN)
            .args(["--black", "a", "--white", "b"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
    let dir = out_dir("cli-empty");
    let out = Command::new(BIN)
        .args(["judge", "--judge", "x"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games"));
    let out = Command::new(BIN)
        .args(["merge", "-o"])
        .arg(dir.join("m"))
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}
