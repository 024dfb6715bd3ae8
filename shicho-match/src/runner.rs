//! The match: engines probed once, games spread over worker threads, records written as
//! games finish, progress, the test and the summary.
//!
//! Each worker thread owns one pair of engine processes (and a referee engine if asked)
//! and plays one game after another with them, taking the next game of the plan from a
//! shared counter; engines persist between games (`clear_board` resets them) and are
//! restarted only after a failure. Finished records go over a channel to the calling
//! thread, which alone appends to `results.csv`, in game-number order (a game that finishes
//! early waits for those before it), feeds the test and prints progress. Once the test has
//! decided no new game starts; those under way finish and are recorded. A judge, if asked,
//! runs in a thread of its own on the games as they are written.

use std::fmt;
use std::fs;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use shicho::ByColor;
use shicho::game::GameKind;
use shicho::go::score::format_points;

use crate::config::{MatchConfig, Openings};
use crate::engine_process::{EngineProcess, Slot, file_log, log_line, null_log};
use crate::game::{GameRecord, GameSpec, play_game};
use crate::judge::evaluate::Judge;
use crate::judge::pass::{JUDGE_LOG, judge_record};
use crate::judge::report::{JUDGE_SUMMARY_FILE, append_judge, judge_summary, read_judge};
use crate::record::{csv_header, csv_row, sgf_file_name, sgf_text};
use crate::results::{RESULTS_FILE, ResultRow, SUMMARY_FILE, black_engine, read_results};
use crate::settings::RunSettings;
use crate::sprt::{Model, Sprt};
use crate::stats::Tally;

/// The match could not be run at all (bad settings, an engine that cannot start, an
/// output directory that cannot be written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError(pub String);

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MatchError {}

/// What a finished match hands back.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// This run's games, in game-number order.
    pub records: Vec<GameRecord>,
    pub tally: Tally,
    /// The test over the whole directory, when one is run.
    pub sprt: Option<Sprt>,
    /// The summary text (also written to `summary.txt`).
    pub summary: String,
}

/// The games a run plays.
struct Plan {
    /// Game numbers, ascending.
    numbers: Vec<usize>,
    /// The range of numbers the run covers (a shard plays only its slice of it).
    first: usize,
    last: usize,
}

/// The games left to start, shared by the workers.
struct Queue<'a> {
    numbers: &'a [usize],
    next: AtomicUsize,
    /// Set once the test has decided: no new game starts.
    stop: AtomicBool,
}

impl Queue<'_> {
    /// The next game to play, if any.
    fn take(&self) -> Option<usize> {
        if self.stop.load(Ordering::SeqCst) {
            return None;
        }
        self.numbers
            .get(self.next.fetch_add(1, Ordering::SeqCst))
            .copied()
    }
}

/// The test's unit: pairs of games with alternating colours, else single games.
pub fn sprt_model(alternate: bool) -> Model {
    if alternate {
        Model::Pentanomial
    } else {
        Model::Trinomial
    }
}

/// Feeds `rows` (any order) to `sprt` in game-number order from game 1, up to the first
/// missing number; returns the number the next game to feed must have.
pub(crate) fn feed_sprt(sprt: &mut Sprt, rows: &[ResultRow], alternate: bool) -> usize {
    let mut sorted: Vec<&ResultRow> = rows.iter().collect();
    sorted.sort_by_key(|r| r.number);
    let mut next = 1;
    for r in sorted {
        if r.number != next {
            break;
        }
        sprt.add(
            r.number,
            r.outcome(black_engine(r.number, alternate)).score_of_a(),
        );
        next += 1;
    }
    next
}

/// The settings this run keeps: the command line's, with what the directory recorded
/// where the command line says nothing; a contradiction is an error.
fn resolve(
    cfg: &MatchConfig,
    stored: &RunSettings,
    existing: &[ResultRow],
) -> Result<MatchConfig, MatchError> {
    let mut cfg = cfg.clone();
    let dir = cfg.out_dir.display().to_string();
    match (cfg.sprt, stored.sprt) {
        (Some(a), Some(b)) if a != b => {
            return Err(MatchError(format!(
                "{dir} holds the test --sprt {b}; give the same or another --out"
            )));
        }
        (None, Some(b)) => {
            log::info!("resuming the test --sprt {b} recorded in {dir}");
            cfg.sprt = Some(b);
        }
        _ => {}
    }
    // A directory is a slice or the whole from its first game on.
    if cfg.shard != stored.shard && (stored.shard.is_some() || !existing.is_empty()) {
        let held = stored
            .shard
            .map_or("the whole match, no shard".to_string(), |s| {
                format!("shard {s}")
            });
        return Err(MatchError(format!(
            "{dir} holds {held}; give the same --shard or another --out"
        )));
    }
    if let Some(a) = stored.alternate
        && a != cfg.alternate
        && (cfg.sprt.is_some() || cfg.shard.is_some())
    {
        return Err(MatchError(format!(
            "{dir} was played {} alternating colours; its test and slices need the same \
             (give {} --alternate)",
            if a { "with" } else { "without" },
            if a { "" } else { "no" }
        )));
    }
    Ok(cfg)
}

/// The games of this run: the next `games` numbers (a shard: those of its slice among
/// them, less any played already).
fn plan(cfg: &MatchConfig, stored: &RunSettings, existing: &[ResultRow]) -> Plan {
    match cfg.shard {
        None => {
            let first = existing.iter().map(|r| r.number).max().unwrap_or(0) + 1;
            let last = first + cfg.games - 1;
            Plan {
                numbers: (first..=last).collect(),
                first,
                last,
            }
        }
        Some(shard) => {
            let first = stored.planned.unwrap_or(0) + 1;
            let last = first + cfg.games - 1;
            let done: std::collections::BTreeSet<usize> =
                existing.iter().map(|r| r.number).collect();
            let unit = |g: usize| if cfg.alternate { (g - 1) / 2 } else { g - 1 };
            // Games of the slice below `first` that an interrupted run left unplayed come
            // first.
            let numbers = (1..=last)
                .filter(|&g| shard.holds(unit(g)) && !done.contains(&g))
                .collect();
            Plan {
                numbers,
                first,
                last,
            }
        }
    }
}

/// Plays the match described by `cfg`.
///
/// # Errors
/// [`MatchError`] for invalid settings, an engine that cannot be started for the probe, or
/// an output directory or results file that cannot be written. Once games run, engine
/// failures are results, not errors.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchReport, MatchError> {
    cfg.validate().map_err(|e| MatchError(e.to_string()))?;
    let out = &cfg.out_dir;
    let logs = out.join("logs");
    fs::create_dir_all(&logs)
        .map_err(|e| MatchError(format!("cannot create {}: {e}", logs.display())))?;
    let stored = RunSettings::load(out).map_err(MatchError)?;
    let header = csv_header(cfg.game);
    let results_path = out.join(RESULTS_FILE);
    let existing = read_results(&results_path, &header)
        .map_err(|e| MatchError(format!("{e}; use another --out")))?;
    let cfg = &resolve(cfg, &stored, &existing)?;
    let names = probe_names(cfg, &logs)?;

    // The test runs over the whole directory; shards leave it to `merge`.
    let mut sprt = cfg
        .sprt
        .filter(|_| cfg.shard.is_none())
        .map(|spec| Sprt::new(spec, sprt_model(cfg.alternate)));
    let mut sprt_next = sprt
        .as_mut()
        .map_or(1, |t| feed_sprt(t, &existing, cfg.alternate));
    let mut plan = plan(cfg, &stored, &existing);
    if let Some(t) = &sprt
        && let Some((h, at)) = t.verdict
    {
        eprintln!(
            "shicho-match: the test in {} already accepted {h:?} at game {at}; no game to play",
            out.display()
        );
        plan.numbers.clear();
    }
    let mut settings = RunSettings {
        sprt: cfg.sprt,
        alternate: Some(cfg.alternate),
        // The seed draws random openings and nothing else: stored only then, so that shards of
        // a run from listed openings, each with its own clock-drawn seed, still merge.
        seed: matches!(cfg.openings, Openings::Random(_)).then_some(cfg.seed),
        shard: cfg.shard,
        planned: stored.planned,
    };
    settings.save(out).map_err(MatchError)?;

    let mut results = open_results(&results_path, &header, existing.is_empty())?;
    let mut tally = Tally::new(names.clone());
    let mut records = Vec::new();
    let queue = Queue {
        numbers: &plan.numbers,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let workers = cfg.parallel.min(plan.numbers.len());
    let progress_on_terminal = std::io::stderr().is_terminal();
    let judge_failures = AtomicUsize::new(0);
    thread::scope(|scope| {
        // Each record comes with a way to tell its worker it was counted: a worker waits
        // for that before it takes another game, so a test that has just decided starts
        // no game it does not need.
        let (tx, rx) = mpsc::channel::<(GameRecord, mpsc::Sender<()>)>();
        let judge_tx = cfg.judge.as_ref().map(|jc| {
            let (jtx, jrx) = mpsc::channel::<usize>();
            let log = file_log(&logs.join(JUDGE_LOG)).unwrap_or_else(|_| null_log());
            let failures = &judge_failures;
            scope.spawn(move || {
                let mut judge = Judge::new(jc.clone(), log, cfg.answer_timeout);
                for number in jrx {
                    let sgf = sgf_file_name(number);
                    match judge_record(&mut judge, out, number, &sgf, cfg.rules, cfg.komi)
                        .and_then(|rows| append_judge(out, &rows))
                    {
                        Ok(()) => {}
                        Err(e) => {
                            log::warn!("game {number} not judged: the judge {e}");
                            failures.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                }
            });
            jtx
        });
        for w in 0..workers {
            let (tx, queue, names, logs) = (tx.clone(), &queue, &names, &logs);
            scope.spawn(move || {
                let (ack_tx, ack_rx) = mpsc::channel();
                worker(cfg, w, queue, names, logs, |record| {
                    // The receiver outlives every worker (it is dropped only after the
                    // scope joins them), so a send cannot fail while anyone listens.
                    if tx.send((record, ack_tx.clone())).is_ok() {
                        let _ = ack_rx.recv();
                    }
                });
            });
        }
        drop(tx);
        // Finished games wait here until those before them in the plan are written.
        let mut waiting = std::collections::BTreeMap::new();
        let mut written = 0;
        for (record, ack) in rx {
            waiting.insert(record.number, record);
            while let Some(record) = plan.numbers.get(written).and_then(|n| waiting.remove(n)) {
                written += 1;
                if let Err(e) = writeln!(results, "{}", csv_row(&record, cfg)) {
                    log::error!("cannot append to {RESULTS_FILE}: {e}");
                }
                let _ = results.flush();
                tally.add(&record);
                if let Some(t) = sprt.as_mut()
                    && record.number == sprt_next
                {
                    sprt_next += 1;
                    if t.add(record.number, record.outcome().score_of_a()) {
                        queue.stop.store(true, Ordering::SeqCst);
                    }
                }
                if let Some(jtx) = &judge_tx {
                    let _ = jtx.send(record.number);
                }
                if cfg.progress {
                    let mut line = tally.progress_line(plan.numbers.len());
                    if let Some(t) = &sprt {
                        line.push_str(&format!(" | {}", t.progress()));
                    }
                    if progress_on_terminal {
                        eprint!("\r{line}\x1b[K");
                    } else {
                        eprintln!(
                            "game {}: {} ({}) | {line}",
                            record.number, record.result, record.reason
                        );
                    }
                }
                records.push(record);
            }
            let _ = ack.send(());
        }
        drop(judge_tx);
    });
    if cfg.progress && progress_on_terminal && !records.is_empty() {
        eprintln!();
    }
    if cfg.shard.is_some() {
        settings.planned = Some(plan.last);
        settings.save(out).map_err(MatchError)?;
    }
    let mut summary = tally.summary(&title(cfg, &plan, records.len()));
    if let Some(t) = &sprt {
        summary.push('\n');
        summary.push_str(&t.summary().join("\n"));
    } else if let (Some(spec), Some(shard)) = (cfg.sprt, cfg.shard) {
        summary.push_str(&format!(
            "\nSPRT {spec}: shard {shard} plays its slice whole; `shicho-match merge` gives the \
             verdict of the union"
        ));
    }
    if let Some(jc) = &cfg.judge {
        let judged = judge_section(out, &header, &names, jc, judge_failures.into_inner());
        summary.push('\n');
        summary.push_str(&judged);
        let path = out.join(JUDGE_SUMMARY_FILE);
        if let Err(e) = fs::write(&path, format!("{judged}\n")) {
            log::error!("cannot write {}: {e}", path.display());
        }
    }
    let summary_file = out.join(SUMMARY_FILE);
    if let Err(e) = fs::write(&summary_file, format!("{summary}\n")) {
        log::error!("cannot write {}: {e}", summary_file.display());
    }
    Ok(MatchReport {
        records,
        tally,
        sprt,
        summary,
    })
}

/// The judge's part of the summary, over every judged game of the directory.
fn judge_section(
    out: &Path,
    header: &str,
    names: &[String; 2],
    jc: &crate::judge::config::JudgeConfig,
    failures: usize,
) -> String {
    let mut lines = vec![format!(
        "judge: {} (up to {} visits or {} s a position)",
        shell_words::join(&jc.argv),
        jc.visits,
        jc.time.as_secs_f64()
    )];
    match (
        read_judge(out),
        read_results(&out.join(RESULTS_FILE), header),
    ) {
        (Ok(rows), Ok(results)) => lines.extend(judge_summary(&rows, &results, names)),
        (Err(e), _) | (_, Err(e)) => lines.push(format!("judge: cannot read back: {e}")),
    }
    if failures > 0 {
        lines.push(format!(
            "judge: {failures} games of this run not judged (see logs/{JUDGE_LOG})"
        ));
    }
    lines.join("\n")
}

/// The summary's first lines: what was played, and how to get the same again.
/// `played` is the number of this run's games: fewer than planned when the test decided.
fn title(cfg: &MatchConfig, plan: &Plan, played: usize) -> String {
    let games = match cfg.shard {
        None if played < plan.numbers.len() => format!(
            "{played} of up to {} games (numbers {} to {})",
            plan.numbers.len(),
            plan.first,
            plan.first + played.max(1) - 1
        ),
        None => format!(
            "{} games (numbers {} to {})",
            plan.numbers.len(),
            plan.first,
            plan.last
        ),
        Some(shard) => format!(
            "{} games of shard {shard} (its slice of numbers up to {})",
            plan.numbers.len(),
            plan.last
        ),
    };
    let mut settings = match cfg.game {
        GameKind::Go => format!(
            "{games} on {}x{}, rules {}, komi {}",
            cfg.size,
            cfg.size,
            cfg.rules,
            format_points(cfg.komi)
        ),
        GameKind::Othello => format!("{games} of Othello on {}x{}", cfg.size, cfg.size),
    };
    if cfg.handicap > 0 {
        settings.push_str(&format!(", handicap {}", cfg.handicap));
    }
    if let Some(t) = cfg.time {
        settings.push_str(&format!(", time {t}"));
    }
    if let Some(t) = cfg.move_time {
        settings.push_str(&format!(", {t} s per move"));
    }
    match &cfg.openings {
        Openings::None => {}
        Openings::Random(k) => {
            settings.push_str(&format!(", {k} random opening moves (seed {})", cfg.seed));
        }
        Openings::List(list) => {
            settings.push_str(&format!(", {} listed openings", list.len()));
        }
    }
    settings.push_str(if cfg.alternate {
        ", colours alternating"
    } else {
        ", A always Black"
    });
    format!(
        "{settings}\nA: {}\nB: {}",
        shell_words::join(&cfg.engines[0]),
        shell_words::join(&cfg.engines[1])
    )
}

/// Starts each engine once to learn its name (and to fail early if it cannot start).
/// Equal names get `#1`/`#2` so the summary can tell them apart.
fn probe_names(cfg: &MatchConfig, logs: &Path) -> Result<[String; 2], MatchError> {
    let log = file_log(&logs.join("probe.log")).unwrap_or_else(|_| null_log());
    let mut names = [String::new(), String::new()];
    for (i, argv) in cfg.engines.iter().enumerate() {
        let label = ["A", "B"][i];
        let engine =
            EngineProcess::start(argv, label, log.clone(), cfg.answer_timeout).map_err(|e| {
                MatchError(format!(
                    "engine {label} ({}) cannot play: {e}",
                    shell_words::join(argv)
                ))
            })?;
        names[i] = engine.full_name();
    }
    if let Some(argv) = &cfg.referee {
        EngineProcess::start(argv, "R", log, cfg.answer_timeout).map_err(|e| {
            MatchError(format!(
                "referee engine ({}) cannot play: {e}",
                shell_words::join(argv)
            ))
        })?;
    }
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    Ok(names)
}

/// Opens the results file for appending, writing the header into a new one.
fn open_results(path: &Path, header: &str, fresh: bool) -> Result<fs::File, MatchError> {
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| MatchError(format!("cannot open {}: {e}", path.display())))?;
    let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(fresh);
    if empty {
        writeln!(file, "{header}")
            .map_err(|e| MatchError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(file)
}

/// One worker: its engines, its log, games until the counter runs out.
fn worker(
    cfg: &MatchConfig,
    w: usize,
    queue: &Queue<'_>,
    names: &[String; 2],
    logs: &Path,
    mut done: impl FnMut(GameRecord),
) {
    let log_path = logs.join(format!("worker-{}.log", w + 1));
    let log = file_log(&log_path).unwrap_or_else(|e| {
        log::error!(
            "cannot open {}: {e}; engine output is dropped",
            log_path.display()
        );
        null_log()
    });
    let mut a = Slot::new("A", cfg.engines[0].clone(), log.clone());
    let mut b = Slot::new("B", cfg.engines[1].clone(), log.clone());
    let mut referee = cfg
        .referee
        .as_ref()
        .map(|argv| Slot::new("R", argv.clone(), log.clone()));
    while let Some(number) = queue.take() {
        // Colours and openings follow the game's number over the whole directory, so a run
        // resumed after an odd number of games still alternates, and plays new openings.
        let black = cfg.black_engine(number - 1);
        let (players, names) = if black == 0 {
            (
                ByColor::new(&mut a, &mut b),
                ByColor::new(names[0].clone(), names[1].clone()),
            )
        } else {
            (
                ByColor::new(&mut b, &mut a),
                ByColor::new(names[1].clone(), names[0].clone()),
            )
        };
        log_line(
            &log,
            &format!(
                "=== game {number}: Black {}, White {}",
                names.black, names.white
            ),
        );
        let spec = GameSpec {
            cfg,
            number,
            black_engine: black,
            names,
            opening: cfg.opening_index(number - 1),
        };
        let record = match cfg.game {
            GameKind::Go => play_game::<shicho::Game>(spec, players, referee.as_mut()),
            GameKind::Othello => play_game::<shicho::othello::Game>(spec, players, None),
        };
        log_line(
            &log,
            &format!(
                "=== game {number}: {} ({}) {}",
                record.result, record.reason, record.detail
            ),
        );
        let sgf = cfg.out_dir.join(sgf_file_name(number));
        if let Err(e) = fs::write(&sgf, sgf_text(&record, cfg)) {
            log::error!("cannot write {}: {e}", sgf.display());
        }
        done(record);
    }
}
