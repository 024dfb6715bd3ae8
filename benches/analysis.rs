//! Analysis speed: simulations per second of the built binary when a review tool asks
//! (`kata-analyze` over GTP, `shicho analysis`, KataGo's JSON protocol, each with and
//! without ownership) beside `genmove`'s on the same positions, one thread each. A user's
//! analysis should search as fast as play: the bar is within 10% of `genmove`.
//!
//! Each size times ten positions from real games (as `benches/search.rs` does): `genmove`
//! runs `ANALYSIS_PLAYOUTS_9` or `ANALYSIS_PLAYOUTS_19` simulations (defaults 20,000 and
//! 5,000), `kata-analyze` runs for as long as that `genmove` took and is then stopped, and
//! the JSON engine's query asks for as many visits. Simulations come from the engine's own
//! log (`RUST_LOG=info`), time from this side of the pipe, so each figure includes what the
//! user waits for: the reports, the ownership, the JSON.
//!
//! `cargo bench --bench analysis` (release). Run it on a quiet machine.

#[path = "../tests/position_file/mod.rs"]
mod position_file;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use shicho::{Color, Game};

/// One run of the binary: its input, its output read line by line, its log kept whole.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    log: thread::JoinHandle<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shicho"))
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut stderr = child.stderr.take().expect("piped stderr");
        let log = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Engine {
            child,
            stdin,
            stdout,
            log,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .expect("the engine reads its input");
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).expect("the engine writes");
        assert!(n > 0, "the engine stopped answering");
        line.trim_end().to_string()
    }

    /// Reads a GTP response to its closing empty line; panics on `?`.
    fn response(&mut self) {
        let first = self.line();
        assert!(first.starts_with('='), "GTP error: {first}");
        while !self.line().is_empty() {}
    }

    /// Closes the input and returns the engine's log.
    fn finish(self) -> String {
        let Engine {
            mut child,
            stdin,
            stdout,
            log,
        } = self;
        drop(stdin);
        drop(stdout);
        let _ = child.wait();
        log.join().expect("the log reader")
    }
}

/// The numbers in the log's lines that contain `marker`, each the number after `before`.
fn logged_counts(log: &str, marker: &str, before: &str) -> Vec<usize> {
    log.lines()
        .filter(|l| l.contains(marker))
        .filter_map(|l| {
            let rest = &l[l.find(before)? + before.len()..];
            rest.split_whitespace().next()?.parse().ok()
        })
        .collect()
}

fn letter(c: Color) -> &'static str {
    if c == Color::Black { "b" } else { "w" }
}

/// The GTP commands that set the position up.
fn setup(game: &Game) -> Vec<String> {
    let geo = game.geometry();
    let mut lines = vec![
        format!("boardsize {}", geo.size()),
        "clear_board".to_string(),
        format!("komi {}", game.komi()),
    ];
    for (c, m) in game.moves() {
        lines.push(format!("play {} {}", letter(c), geo.format_move(m)));
    }
    lines
}

/// `genmove`'s simulations and the time it took, in a fresh engine.
fn genmove(game: &Game, to_move: Color, playouts: usize) -> (usize, Duration) {
    let mut e = Engine::start(&["--playouts", &playouts.to_string(), "--threads", "1"]);
    for line in setup(game) {
        e.send(&line);
        e.response();
    }
    let start = Instant::now();
    e.send(&format!("genmove {}", letter(to_move)));
    e.response();
    let elapsed = start.elapsed();
    let log = e.finish();
    let done = logged_counts(&log, "search:", "search: ");
    (done.iter().sum(), elapsed)
}

/// `kata-analyze` for `seconds`, stopped by the next command, in a fresh engine.
fn kata_analyze(game: &Game, to_move: Color, ownership: bool, run: Duration) -> (usize, Duration) {
    let mut e = Engine::start(&["--threads", "1"]);
    for line in setup(game) {
        e.send(&line);
        e.response();
    }
    let start = Instant::now();
    let extra = if ownership { " ownership true" } else { "" };
    e.send(&format!("kata-analyze {} 50{extra}", letter(to_move)));
    assert!(e.line().starts_with('='), "kata-analyze starts");
    thread::sleep(run.saturating_sub(start.elapsed()));
    e.send("name");
    // The reports up to the empty line that closes the analysis.
    while !e.line().is_empty() {}
    let elapsed = start.elapsed();
    e.response();
    let log = e.finish();
    let done = logged_counts(&log, "analysis stopped after", "after ");
    (done.iter().sum(), elapsed)
}

/// One query of `visits` to `shicho analysis`, in a fresh engine.
fn json_analysis(game: &Game, to_move: Color, ownership: bool, visits: usize) -> (usize, Duration) {
    let mut e = Engine::start(&["analysis", "--threads", "1", "--search-threads", "1"]);
    let geo = game.geometry();
    let moves: Vec<serde_json::Value> = game
        .moves()
        .map(|(c, m)| serde_json::json!([letter(c).to_uppercase(), geo.format_move(m)]))
        .collect();
    assert_eq!(
        moves.len().is_multiple_of(2),
        to_move == Color::Black,
        "the moves alternate from Black"
    );
    let query = serde_json::json!({
        "id": "bench",
        "moves": moves,
        "rules": "chinese",
        "komi": game.komi(),
        "boardXSize": geo.size(),
        "boardYSize": geo.size(),
        "maxVisits": visits,
        "includeOwnership": ownership,
    });
    let start = Instant::now();
    e.send(&query.to_string());
    let answer = e.line();
    let elapsed = start.elapsed();
    assert!(answer.contains("\"moveInfos\""), "an analysis: {answer}");
    let log = e.finish();
    // "bench turn N: P playouts in Ts"
    let playouts = logged_counts(&log, "bench turn", ": ");
    assert_eq!(playouts.len(), 1, "one turn analysed");
    (playouts[0], elapsed)
}

fn main() {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    println!(
        "{:<18} {:>11} {:>13} {:>13} {:>13} {:>13}",
        "simulations/s", "genmove", "kata-analyze", "+ ownership", "analysis", "+ ownership"
    );
    for (size, file, step, playouts) in [
        (
            9,
            "positions-9x9.txt",
            20,
            env("ANALYSIS_PLAYOUTS_9", 20_000),
        ),
        (
            19,
            "positions-19x19.txt",
            10,
            env("ANALYSIS_PLAYOUTS_19", 5_000),
        ),
    ] {
        let positions = position_file::bench_positions(file, step);
        // Simulations and seconds summed over the positions, per way of asking.
        let mut totals = [(0usize, Duration::ZERO); 5];
        for (game, c) in &positions {
            let (n, t) = genmove(game, *c, playouts);
            let runs = [
                (n, t),
                kata_analyze(game, *c, false, t),
                kata_analyze(game, *c, true, t),
                json_analysis(game, *c, false, playouts),
                json_analysis(game, *c, true, playouts),
            ];
            for (total, (n, t)) in totals.iter_mut().zip(runs) {
                total.0 += n;
                total.1 += t;
            }
        }
        let rate = |(n, t): (usize, Duration)| n as f64 / t.as_secs_f64().max(1e-9);
        let base = rate(totals[0]);
        let mut row = format!(
            "{:<18} {:>9.0}/s",
            format!("{size}x{size} games ({})", positions.len()),
            base
        );
        for total in &totals[1..] {
            let r = rate(*total);
            row.push_str(&format!(" {:>6.0} {:>+5.1}%", r, (r / base - 1.0) * 100.0));
        }
        println!("{row}");
    }
}
