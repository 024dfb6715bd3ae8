//! The match: engines probed once, games spread over worker threads, records written as
//! games finish, progress and the summary.
//!
//! Each worker thread owns one pair of engine processes (and a referee engine if asked)
//! and plays one game after another with them, taking the next game number from a shared
//! counter; engines persist between games (`clear_board` resets them) and are restarted
//! only after a failure. Finished records go over a channel to the calling thread, which
//! alone appends to `results.csv` and prints progress, so rows are never interleaved.

use std::fmt;
use std::fs;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use shicho::ByColor;
use shicho::go::score::format_points;
use shicho::gtp::GameKind;

use crate::config::{MatchConfig, Openings};
use crate::engine::{EngineProcess, file_log, log_line, null_log};
use crate::play::othello_game::play_othello_game;
use crate::play::{GameRecord, GameSpec, Slot, play_game};
use crate::record::{csv_header, csv_row, sgf_file_name, sgf_text};
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
    /// The summary text (also written to `summary.txt`).
    pub summary: String,
}

/// The results file's name inside the output directory.
pub const RESULTS_FILE: &str = "results.csv";
/// The summary file's name inside the output directory.
pub const SUMMARY_FILE: &str = "summary.txt";

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
    let names = probe_names(cfg, &logs)?;
    let (mut results, first_number) = open_results(&out.join(RESULTS_FILE), &csv_header(cfg.game))?;

    let mut tally = Tally::new(names.clone());
    let mut records = Vec::new();
    let next = AtomicUsize::new(0);
    let workers = cfg.parallel.min(cfg.games);
    let progress_on_terminal = std::io::stderr().is_terminal();
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for w in 0..workers {
            let (tx, next, names, logs) = (tx.clone(), &next, &names, &logs);
            scope.spawn(move || {
                worker(cfg, w, next, first_number, names, logs, |record| {
                    // The receiver outlives every worker (it is dropped only after the
                    // scope joins them), so a send cannot fail while anyone listens.
                    let _ = tx.send(record);
                });
            });
        }
        drop(tx);
        for record in rx {
            if let Err(e) = writeln!(results, "{}", csv_row(&record, cfg)) {
                log::error!("cannot append to {RESULTS_FILE}: {e}");
            }
            let _ = results.flush();
            tally.add(&record);
            if cfg.progress {
                let line = tally.progress_line(cfg.games);
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
    });
    if cfg.progress && progress_on_terminal {
        eprintln!();
    }
    records.sort_by_key(|r| r.number);
    let summary = tally.summary(&title(cfg, first_number));
    let summary_file = out.join(SUMMARY_FILE);
    if let Err(e) = fs::write(&summary_file, format!("{summary}\n")) {
        log::error!("cannot write {}: {e}", summary_file.display());
    }
    Ok(MatchReport {
        records,
        tally,
        summary,
    })
}

/// The summary's first lines: what was played, and how to get the same again.
fn title(cfg: &MatchConfig, first_number: usize) -> String {
    let mut settings = match cfg.game {
        GameKind::Go => format!(
            "{} games (numbers {} to {}) on {}x{}, rules {}, komi {}",
            cfg.games,
            first_number,
            first_number + cfg.games - 1,
            cfg.size,
            cfg.size,
            cfg.rules,
            format_points(cfg.komi)
        ),
        GameKind::Othello => format!(
            "{} games (numbers {} to {}) of Othello on {}x{}",
            cfg.games,
            first_number,
            first_number + cfg.games - 1,
            cfg.size,
            cfg.size
        ),
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

/// Opens the results file for appending, writing the header into a new one, and returns
/// it with the number the next game gets.
fn open_results(path: &Path, header: &str) -> Result<(fs::File, usize), MatchError> {
    let existing = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(MatchError(format!("cannot read {}: {e}", path.display()))),
    };
    let mut lines = existing.lines();
    let rows = match lines.next() {
        None => 0,
        Some(first) if first == header => lines.filter(|l| !l.is_empty()).count(),
        Some(_) => {
            return Err(MatchError(format!(
                "{} has other columns than this version writes; use another --out",
                path.display()
            )));
        }
    };
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| MatchError(format!("cannot open {}: {e}", path.display())))?;
    if existing.is_empty() {
        writeln!(file, "{header}")
            .map_err(|e| MatchError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok((file, rows + 1))
}

/// One worker: its engines, its log, games until the counter runs out.
fn worker(
    cfg: &MatchConfig,
    w: usize,
    next: &AtomicUsize,
    first_number: usize,
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
    loop {
        let index = next.fetch_add(1, Ordering::SeqCst);
        if index >= cfg.games {
            break;
        }
        let number = first_number + index;
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
            GameKind::Go => play_game(spec, players, referee.as_mut()),
            GameKind::Othello => play_othello_game(spec, players),
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
