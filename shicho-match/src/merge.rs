//! `shicho-match merge -o OUT DIR...`: the output directories of shards (or of any runs of
//! one match) as one: `results.csv` with every row in game-number order, the records, the
//! judge's rows, and a summary with the test's verdict over the union.
//!
//! The rows are copied as they are, so the merge of the N shards of a run holds the same
//! rows as the run itself would have, save the measured columns (times). The test takes the
//! games in number order up to the first missing one: a shard still running leaves the
//! verdict where the union stops.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::judge::report::{
    JUDGE_FILE, JUDGE_HEADER, JUDGE_SUMMARY_FILE, JudgeRow, judge_summary, read_judge,
};
use crate::record::{CSV_HEADER, CSV_OTHELLO_COLUMNS};
use crate::results::{
    RESULTS_FILE, ResultRow, SUMMARY_FILE, alternated, black_engine, engine_names, read_results,
};
use crate::runner::{feed_sprt, sprt_model};
use crate::settings::RunSettings;
use crate::sprt::Sprt;
use crate::stats::Tally;

/// Merges the directories `inputs` into `out` (which must not hold results yet) and returns
/// the summary.
///
/// # Errors
/// No input, an input that is no match directory, inputs of different matches (other
/// columns, tests, colour rules, seeds, or shards of different counts or the same slice),
/// a game number in two inputs, a file that cannot be read or written.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<String, String> {
    if inputs.is_empty() {
        return Err("give the directories to merge".to_string());
    }
    if out.join(RESULTS_FILE).exists() {
        return Err(format!(
            "{} already holds a {RESULTS_FILE}; merge into a new directory",
            out.display()
        ));
    }
    let mut header = None;
    let mut settings: Option<RunSettings> = None;
    let mut slices = Vec::new();
    let mut rows: BTreeMap<usize, (ResultRow, PathBuf)> = BTreeMap::new();
    let mut judged: BTreeMap<usize, Vec<JudgeRow>> = BTreeMap::new();
    for dir in inputs {
        let path = dir.join(RESULTS_FILE);
        let text_header = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        let go = CSV_HEADER.to_string();
        let othello = format!("{CSV_HEADER},{CSV_OTHELLO_COLUMNS}");
        if text_header != go && text_header != othello {
            return Err(format!(
                "{} is no shicho-match results file",
                path.display()
            ));
        }
        match &header {
            None => header = Some(text_header.clone()),
            Some(h) if *h != text_header => {
                return Err(format!(
                    "{} has other columns than {}",
                    path.display(),
                    inputs[0].display()
                ));
            }
            Some(_) => {}
        }
        let s = RunSettings::load(dir)?;
        if let Some(shard) = s.shard {
            if let Some((first, _)) = slices.first() {
                let first: &crate::settings::Shard = first;
                if shard.n != first.n {
                    return Err(format!(
                        "{} is shard {shard}, not one of {}",
                        dir.display(),
                        first.n
                    ));
                }
            }
            if slices.iter().any(|(other, _)| *other == shard) {
                return Err(format!(
                    "shard {shard} is given twice (again in {})",
                    dir.display()
                ));
            }
            slices.push((shard, dir.clone()));
        }
        if let Some(first) = &settings {
            for (what, same) in [
                ("--sprt", first.sprt == s.sprt),
                ("--alternate", first.alternate == s.alternate),
                ("--seed", first.seed == s.seed),
            ] {
                if !same {
                    return Err(format!(
                        "{} and {} were run with different {what}",
                        inputs[0].display(),
                        dir.display()
                    ));
                }
            }
        }
        settings.get_or_insert(s);
        for row in read_results(&path, &text_header)? {
            if let Some((_, other)) = rows.get(&row.number) {
                return Err(format!(
                    "game {} is in both {} and {}",
                    row.number,
                    other.display(),
                    dir.display()
                ));
            }
            rows.insert(row.number, (row, dir.clone()));
        }
        for r in read_judge(dir)? {
            judged.entry(r.game).or_default().push(r);
        }
    }
    let settings = settings.unwrap_or_default();
    let header = header.unwrap_or_else(|| CSV_HEADER.to_string());
    fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;

    let mut text = format!("{header}\n");
    for (row, dir) in rows.values() {
        text.push_str(&row.line);
        text.push('\n');
        let from = dir.join(&row.sgf);
        if from.is_file() {
            fs::copy(&from, out.join(&row.sgf))
                .map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
        }
    }
    write(&out.join(RESULTS_FILE), &text)?;
    let all: Vec<ResultRow> = rows.into_values().map(|(r, _)| r).collect();
    if !judged.is_empty() {
        let mut text = format!("{JUDGE_HEADER}\n");
        for r in judged.values().flatten() {
            text.push_str(&r.line());
            text.push('\n');
        }
        write(&out.join(JUDGE_FILE), &text)?;
    }
    RunSettings {
        shard: None,
        planned: None,
        ..settings.clone()
    }
    .save(out)?;

    let alternate = settings.alternate.unwrap_or_else(|| alternated(&all));
    let names = engine_names(&all, settings.alternate).unwrap_or_default();
    let mut tally = Tally::new(names.clone());
    for r in &all {
        tally.add_outcome(&r.outcome(black_engine(r.number, alternate)));
    }
    let first = all.first().map_or(0, |r| r.number);
    let last = all.last().map_or(0, |r| r.number);
    let missing = (first..=last)
        .filter(|n| all.iter().all(|r| r.number != *n))
        .count();
    let sources: Vec<String> = inputs.iter().map(|d| d.display().to_string()).collect();
    let mut title = format!(
        "merge of {}: {} games, numbers {first} to {last}{}",
        sources.join(", "),
        all.len(),
        if missing > 0 {
            format!(" ({missing} missing)")
        } else {
            String::new()
        }
    );
    title.push_str(&format!("\nA: {}\nB: {}", names[0], names[1]));
    let mut summary = tally.summary(&title);
    if let Some(spec) = settings.sprt {
        let mut sprt = Sprt::new(spec, sprt_model(alternate));
        let next = feed_sprt(&mut sprt, &all, alternate);
        summary.push('\n');
        summary.push_str(&sprt.summary().join("\n"));
        if sprt.verdict.is_none() && next <= last {
            summary.push_str(&format!(
                "\nSPRT: the union stops at game {next}, which no directory holds yet"
            ));
        }
    }
    let judged_rows: Vec<JudgeRow> = judged.into_values().flatten().collect();
    if !judged_rows.is_empty() {
        let judge = judge_summary(&judged_rows, &all, &names).join("\n");
        write(&out.join(JUDGE_SUMMARY_FILE), &format!("{judge}\n"))?;
        summary.push('\n');
        summary.push_str(&judge);
    }
    if !all.is_empty() {
        // results.csv holds the thinking time but not the number of moves an engine chose.
        summary.push_str("\n(time per move: see the merged directories' summaries)");
    }
    write(&out.join(SUMMARY_FILE), &format!("{summary}\n"))?;
    Ok(summary)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
