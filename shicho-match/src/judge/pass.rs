//! Judging the games of an output directory: one game as it finishes (`--judge`), or every
//! game not judged yet (`shicho-match judge DIR`).

use std::fs;
use std::path::Path;
use std::time::Duration;

use shicho::go::sgf::SgfGame;
use shicho::sgf::parse_collection;
use shicho::{Color, Geometry, Rules};

use crate::engine_process::file_log;
use crate::engine_process::null_log;
use crate::judge::annotate::annotate;
use crate::judge::config::JudgeConfig;
use crate::judge::evaluate::{Judge, JudgedGame};
use crate::judge::report::{
    JUDGE_FILE, JUDGE_SUMMARY_FILE, JudgeRow, append_judge, judge_summary, read_judge,
};
use crate::record::CSV_HEADER;
use crate::results::{RESULTS_FILE, engine_names, read_results};
use crate::settings::RunSettings;

/// The judge's log inside the output directory's `logs`.
pub const JUDGE_LOG: &str = "judge.log";

/// The kind of a move by the referee's comment on it (`opening`, `play-out, 1.20 s`, or
/// the seconds an engine took).
fn move_kind(comment: Option<&str>) -> &'static str {
    match comment {
        Some("opening") => "opening",
        Some(c) if c.starts_with("play-out") => "play-out",
        _ => "engine",
    }
}

/// Judges the game recorded in `dir/sgf` (game `number`): asks `judge` about every
/// position, writes its win rates into the record, and returns the game's rows for
/// `judge.csv`. `rules` and `komi` are the match's (the record's `KM` wins for komi).
///
/// # Errors
/// The record cannot be read or written, or the judge failed on it.
pub fn judge_record(
    judge: &mut Judge,
    dir: &Path,
    number: usize,
    sgf: &str,
    rules: Rules,
    komi: f64,
) -> Result<Vec<JudgeRow>, String> {
    let path = dir.join(sgf);
    let text =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let collection = parse_collection(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let record =
        SgfGame::from_collection(&collection).map_err(|e| format!("{}: {e}", path.display()))?;
    let geo = Geometry::get(record.size, rules.topology).map_err(|e| e.to_string())?;
    let game = JudgedGame {
        size: record.size,
        rules,
        komi: record.komi.unwrap_or(komi),
        handicap: record
            .setup
            .iter()
            .filter(|s| s.color == Some(Color::Black))
            .map(|s| s.point)
            .collect(),
        moves: record.moves.iter().map(|m| (m.color, m.point)).collect(),
    };
    if record.moves.iter().any(|m| !m.setup.is_empty()) {
        return Err(format!("{}: setup stones between moves", path.display()));
    }
    let evaluations = judge.evaluate(&game)?;
    let annotated =
        annotate(&text, &evaluations).map_err(|e| format!("{}: {e}", path.display()))?;
    // Written aside and renamed, so a crash never leaves half a record.
    let tmp = path.with_extension("sgf.tmp");
    fs::write(&tmp, annotated)
        .and_then(|()| fs::rename(&tmp, &path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let player = |c: Color| {
        match c {
            Color::Black => record.info.black_name.clone(),
            Color::White => record.info.white_name.clone(),
        }
        .unwrap_or_default()
    };
    Ok(record
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let (before, after) = (evaluations[i], evaluations[i + 1]);
            let own = |black: f64| {
                if m.color == Color::Black {
                    black
                } else {
                    1.0 - black
                }
            };
            JudgeRow {
                game: number,
                number: i + 1,
                color: m.color,
                player: player(m.color),
                vertex: m
                    .point
                    .and_then(|(x, y)| geo.point(x, y))
                    .map_or_else(|| "pass".to_string(), |p| geo.format_point(p)),
                kind: move_kind(m.comment.as_deref()).to_string(),
                black_before: before.black,
                black_after: after.black,
                loss: own(before.black) - own(after.black),
                visits: after.visits,
            }
        })
        .collect())
}

/// `shicho-match judge DIR`: judges every game of `dir` that `judge.csv` does not hold yet
/// (every game with `again`), then writes `judge.txt` and returns its text.
///
/// # Errors
/// `dir` holds no Go match, or a file cannot be read or written. A game the judge fails
/// on is reported and skipped, not an error.
pub fn judge_directory(
    dir: &Path,
    cfg: &JudgeConfig,
    answer_timeout: Duration,
    again: bool,
    progress: bool,
) -> Result<String, String> {
    let results = read_results(&dir.join(RESULTS_FILE), CSV_HEADER).map_err(|e| {
        format!("{e} (the judge reads Go matches: a results.csv written by shicho-match)")
    })?;
    if results.is_empty() {
        return Err(format!("no games in {}", dir.join("results.csv").display()));
    }
    let settings = RunSettings::load(dir)?;
    if again {
        let path = dir.join(JUDGE_FILE);
        if path.exists() {
            fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
    }
    let done: std::collections::BTreeSet<usize> = read_judge(dir)?.iter().map(|r| r.game).collect();
    let logs = dir.join("logs");
    fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let log = file_log(&logs.join(JUDGE_LOG)).unwrap_or_else(|_| null_log());
    let mut judge = Judge::new(cfg.clone(), log, answer_timeout);
    let mut todo: Vec<_> = results
        .iter()
        .filter(|r| !done.contains(&r.number))
        .collect();
    todo.sort_by_key(|r| r.number);
    let mut failed = Vec::new();
    for (i, row) in todo.iter().enumerate() {
        if progress {
            eprintln!("judge: game {} ({} of {})", row.number, i + 1, todo.len());
        }
        let rules = match row.rules.parse::<Rules>() {
            Ok(r) => r,
            Err(e) => {
                eprintln!(
                    "judge: game {} skipped: rules '{}': {e}",
                    row.number, row.rules
                );
                failed.push(row.number);
                continue;
            }
        };
        let komi = row.komi.parse().unwrap_or(rules.default_komi());
        match judge_record(&mut judge, dir, row.number, &row.sgf, rules, komi) {
            Ok(rows) => append_judge(dir, &rows)?,
            Err(e) => {
                eprintln!("judge: game {} not judged: the judge {e}", row.number);
                failed.push(row.number);
            }
        }
    }
    let names = engine_names(&results, settings.alternate).unwrap_or_default();
    let mut lines = vec![format!(
        "judge: {} (up to {} visits or {} s a position)",
        shell_words::join(&cfg.argv),
        cfg.visits,
        cfg.time.as_secs_f64()
    )];
    lines.extend(judge_summary(&read_judge(dir)?, &results, &names));
    if !failed.is_empty() {
        let list: Vec<String> = failed.iter().map(usize::to_string).collect();
        lines.push(format!("judge: games not judged: {}", list.join(", ")));
    }
    let text = lines.join("\n");
    let path = dir.join(JUDGE_SUMMARY_FILE);
    fs::write(&path, format!("{text}\n"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(text)
}
