//! The engine as a hostile controller meets it: the built binary, fed seeded random input
//! (garbage bytes, real commands with absurd arguments, very long lines, thousands of
//! commands pipelined), must answer every command line exactly once, in order, echoing its
//! id, write nothing else, and exit 0 after `quit`.
//!
//! Each session's seed is printed (shown when a test fails); set `SHICHO_ROBUSTNESS_SEED` to
//! replay one. Without it every run tries a fixed seed and a fresh one.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use shicho::Rng;

/// How long one session may take before the engine counts as hung (debug build, shared
/// machine: generous).
const SESSION_TIMEOUT: Duration = Duration::from_secs(90);

/// The seed that every run tries.
const FIXED_SEED: u64 = 0x5eed_0001;

/// A tree search of a few playouts: genmove still goes through it, in a fraction of the
/// default's time (the debug build runs hundreds of them).
const ENGINE_ARGS: &[&str] = &["--playouts", "8"];

/// How many fresh seeds each run tries besides the fixed one (about a second each).
const FRESH_SEEDS: usize = 2;

mod input;
mod session;

use input::Gen;
use session::{Scratch, check_session, run_engine, run_engine_with};

fn seeds() -> Vec<u64> {
    if let Ok(text) = std::env::var("SHICHO_ROBUSTNESS_SEED") {
        let seed = text
            .trim()
            .trim_start_matches("0x")
            .parse::<u64>()
            .or_else(|_| u64::from_str_radix(text.trim().trim_start_matches("0x"), 16))
            .expect("SHICHO_ROBUSTNESS_SEED is a number");
        return vec![seed];
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut fresh = Rng::new(now);
    let mut seeds = vec![FIXED_SEED];
    seeds.extend((0..FRESH_SEEDS).map(|_| fresh.next_u64()));
    seeds
}

/// Thousands of random lines, all written before any response is read, then `quit`.
#[test]
fn every_command_line_gets_one_response_in_order() {
    const LINES: usize = 8000;
    for seed in seeds() {
        let context = format!("seed {seed} (SHICHO_ROBUSTNESS_SEED={seed})");
        eprintln!("{context}");
        let mut generator = Gen::new(seed);
        let mut input = Vec::new();
        for _ in 0..LINES {
            input.extend(generator.line());
            input.push(b'\n');
        }
        input.extend(b"9999 quit\n");
        let scratch = Scratch::new("random");
        let outcome = run_engine(&scratch.0, input.clone(), &context);
        let replies = check_session(&input, &outcome, &context);
        // The input is meant to reach deep states: it must have had real successes too.
        let successes = replies.iter().filter(|r| r.ok).count();
        eprintln!(
            "{context}: {} command lines, {successes} successes",
            replies.len()
        );
        assert!(
            successes > LINES / 6,
            "{context}: only {successes} successful responses"
        );
        let last = replies.last().expect("quit answered");
        assert!(
            last.ok && last.id.as_deref() == Some("9999") && last.text.is_empty(),
            "{context}: quit answered {last:?}"
        );
    }
}

/// The same in Othello mode (the searcher at a few milliseconds a move), on every board
/// size.
#[test]
fn othello_mode_answers_every_line_once() {
    const LINES: usize = 4000;
    for seed in seeds() {
        let context = format!("othello, seed {seed} (SHICHO_ROBUSTNESS_SEED={seed})");
        eprintln!("{context}");
        let mut generator = Gen::othello(seed);
        let mut input = Vec::new();
        for _ in 0..LINES {
            input.extend(generator.line());
            input.push(b'\n');
        }
        input.extend(b"9999 quit\n");
        let scratch = Scratch::new("othello");
        let args = ["--game", "othello", "--time", "0.005"];
        let outcome = run_engine_with(&args, &scratch.0, input.clone(), &context);
        let replies = check_session(&input, &outcome, &context);
        let successes = replies.iter().filter(|r| r.ok).count();
        eprintln!(
            "{context}: {} command lines, {successes} successes",
            replies.len()
        );
        assert!(
            successes > LINES / 12,
            "{context}: only {successes} successful responses"
        );
        assert!(replies.last().is_some_and(|r| r.ok), "{context}: quit");
    }
}

/// Lines of 100 KB and 2 MB: the long ones are refused with their id, the rest of the
/// session goes on in step. Comments and blank lines stay silent however long they are.
#[test]
fn very_long_lines_get_one_response_each() {
    const KB100: usize = 100 * 1024;
    const MB2: usize = 2 * 1024 * 1024;
    let mut rng = Rng::new(FIXED_SEED);
    let mut lines: Vec<Vec<u8>> = Vec::new();
    // 100 KB: real commands with 100 KB of moves (on 9x9, to keep the history small), the
    // second with an illegal move at the end; a known command padded with spaces; garbage;
    // a comment.
    lines.push(b"0 boardsize 9".to_vec());
    let mut passes = b"1 gogui-play_sequence".to_vec();
    while passes.len() < KB100 {
        passes.extend(b" b pass w pass");
    }
    lines.push(passes.clone());
    let mut padded = b"2 name".to_vec();
    padded.resize(KB100, b' ');
    lines.push(padded);
    lines.push(
        (0..KB100)
            .map(|_| 33 + rng.below(94) as u8)
            .filter(|&b| b != b'#')
            .collect(),
    );
    let mut comment = b"# ".to_vec();
    comment.resize(KB100, b'x');
    lines.push(comment);
    passes[0] = b'3';
    passes.extend(b" b Z99");
    lines.push(passes);
    lines.push(b"4 play b e5".to_vec());
    // 2 MB: with an id, without one, a comment, blanks, blanks before a command, a command
    // whose comment is the long part.
    let mut long = b"5 ".to_vec();
    long.resize(MB2, b'a');
    lines.push(long);
    lines.push(vec![b'z'; MB2]);
    let mut comment = b"   # ".to_vec();
    comment.resize(MB2, b'#');
    lines.push(comment);
    lines.push(vec![b' '; MB2]);
    lines.push(vec![b'\t'; MB2]);
    let mut late = vec![b' '; MB2];
    late.extend(b"name");
    lines.push(late);
    let mut commented = b"6 name #".to_vec();
    commented.resize(MB2, b'c');
    lines.push(commented);
    lines.push(b"7 list_stones black".to_vec());
    lines.push(b"8 quit".to_vec());
    let mut input = Vec::new();
    for line in &lines {
        input.extend(line);
        input.push(b'\n');
    }
    let scratch = Scratch::new("long");
    let context = "long lines";
    let outcome = run_engine(&scratch.0, input.clone(), context);
    let replies = check_session(&input, &outcome, context);
    let by_id = |id: &str| {
        replies
            .iter()
            .find(|r| r.id.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no response with id {id}"))
    };
    assert!(by_id("1").ok, "a 100 KB sequence of legal moves is played");
    assert_eq!(by_id("2").text, "shicho");
    assert!(!by_id("3").ok, "the sequence ends with an illegal move");
    assert!(by_id("4").ok, "nothing of the failed sequence was played");
    assert_eq!(
        by_id("6").text,
        "shicho",
        "a long comment is only a comment"
    );
    assert!(!by_id("5").ok, "a 2 MB command line is refused");
    assert_eq!(by_id("7").text, "E5", "the session stayed in step");
}

/// `loadsgf` and `printsgf` on something that is not a regular file (a FIFO nobody reads or
/// writes, a folder, the engine's own stdout) must fail at once rather than wait for ever
/// or write into the protocol stream.
#[cfg(unix)]
#[test]
fn sgf_commands_refuse_what_is_not_a_regular_file() {
    let scratch = Scratch::new("fifo");
    let fifo = scratch.0.join("pipe.sgf");
    let path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("no NUL");
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
    std::fs::create_dir(scratch.0.join("folder.sgf")).expect("a folder");
    let input = b"1 loadsgf pipe.sgf\n2 loadsgf folder.sgf\n3 printsgf pipe.sgf\n\
                  4 printsgf folder.sgf\n5 printsgf /dev/stdout\n6 printsgf ok.sgf\n\
                  7 loadsgf ok.sgf\n8 quit\n"
        .to_vec();
    let context = "SGF commands on a FIFO";
    let outcome = run_engine(&scratch.0, input.clone(), context);
    let replies = check_session(&input, &outcome, context);
    for reply in &replies[..5] {
        assert!(!reply.ok, "{context}: {reply:?}");
    }
    assert_eq!(replies[0].text, "cannot load file");
    assert_eq!(replies[1].text, "cannot load file");
    assert!(
        replies[5].ok && replies[6].ok,
        "{context}: a regular file works"
    );
}

/// An engine driven line by line, as a GUI does: write a line, read what comes back.
struct Interactive {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

/// A failed test must not leave an engine analysing for ever.
impl Drop for Interactive {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Interactive {
    fn start() -> Interactive {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shicho"))
            .args(ENGINE_ARGS)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Interactive {
            child,
            stdin,
            lines,
        }
    }

    /// Reads report lines up to the empty line that ends a streamed analysis.
    ///
    /// # Panics
    /// When a line is not a report, or the end does not come within `limit`.
    fn reports_until_end(&mut self, integer: bool, limit: Duration, what: &str) {
        let start = std::time::Instant::now();
        loop {
            let line = self.line(what);
            if line.is_empty() {
                return;
            }
            check_report(&line, integer);
            assert!(
                start.elapsed() < limit,
                "{what}: still reporting after {:?}",
                start.elapsed()
            );
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.stdin.flush())
            .expect("the engine reads its input");
    }

    /// The next output line.
    ///
    /// # Panics
    /// When none comes within `SESSION_TIMEOUT` (the engine is killed first).
    fn line(&mut self, waiting_for: &str) -> String {
        match self.lines.recv_timeout(SESSION_TIMEOUT) {
            Ok(line) => line,
            Err(_) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("no output while waiting for {waiting_for}");
            }
        }
    }
}

/// One report line: `info` groups with the fields Sabaki and Lizzie read, win rates as
/// integers (ten-thousandths) or fractions.
fn check_report(line: &str, integer: bool) {
    assert!(line.starts_with("info move "), "not a report: {line:?}");
    for group in line.split("info ").filter(|g| !g.is_empty()) {
        let tokens: Vec<&str> = group.split_whitespace().collect();
        let field = |key: &str| {
            let at = tokens.iter().position(|&t| t == key);
            at.and_then(|i| tokens.get(i + 1).copied())
                .unwrap_or_else(|| panic!("no {key} in {group:?}"))
        };
        let winrate = field("winrate");
        if integer {
            let w: u32 = winrate.parse().expect("an integer win rate");
            assert!(w <= 10_000, "{group:?}");
        } else {
            let w: f64 = winrate.parse().expect("a fractional win rate");
            assert!(
                winrate.contains('.') && (0.0..=1.0).contains(&w),
                "{group:?}"
            );
        }
        field("visits").parse::<u32>().expect("visits");
        field("move");
        // Sabaki reads the trailing run of vertices as the variation: pv must come last.
        let pv = tokens.iter().position(|&t| t == "pv").expect("a pv");
        let vertices = &tokens[pv + 1..];
        assert!(!vertices.is_empty(), "an empty pv in {group:?}");
        for v in vertices {
            let (letter, number) = v.split_at(1);
            assert!(
                *v == "PASS"
                    || (letter.bytes().all(|b| b.is_ascii_uppercase())
                        && number.parse::<u32>().is_ok()),
                "{v:?} after pv in {group:?}"
            );
        }
    }
}

/// The streaming analysis commands answer `=id` at once, then a report per interval, until
/// a new command, a blank line or `# interrupt` arrives; then the empty line, and the next
/// command is answered as usual.
#[test]
fn analysis_streams_until_new_input() {
    let mut engine = Interactive::start();
    engine.send("boardsize 9");
    assert_eq!(engine.line("boardsize"), "= ");
    assert_eq!(engine.line("boardsize's end"), "");

    // Stopped by a blank line, which gets no response of its own.
    engine.send("1 lz-analyze b 10");
    assert_eq!(engine.line("lz-analyze's start"), "=1");
    for _ in 0..2 {
        check_report(&engine.line("an lz-analyze report"), true);
    }
    engine.send("");
    engine.reports_until_end(true, Duration::from_secs(30), "lz-analyze's end");

    // Stopped by GoGui's interrupt comment.
    engine.send("2 kata-analyze w 10");
    assert_eq!(engine.line("kata-analyze's start"), "=2");
    check_report(&engine.line("a kata-analyze report"), false);
    engine.send("# interrupt");
    engine.reports_until_end(false, Duration::from_secs(30), "kata-analyze's end");

    // Stopped by the next command, which is then answered.
    engine.send("3 analyze b 10");
    assert_eq!(engine.line("analyze's start"), "=3");
    check_report(&engine.line("an analyze report"), true);
    engine.send("4 name");
    engine.reports_until_end(true, Duration::from_secs(30), "analyze's end");
    assert_eq!(engine.line("name"), "=4 shicho");
    assert_eq!(engine.line("name's end"), "");

    // A malformed request is an ordinary error.
    engine.send("5 lz-analyze b 10 interval");
    assert_eq!(engine.line("the error"), "?5 syntax error");
    assert_eq!(engine.line("the error's end"), "");

    // An interrupt written right behind its command, before the engine has started it,
    // still stops it; and it is used up: the next analysis runs.
    engine.send("6 lz-analyze b 10\n# interrupt");
    assert_eq!(engine.line("the interrupted analysis"), "=6");
    // Without the interrupt it would report until the next input, which never comes.
    engine.reports_until_end(true, Duration::from_secs(5), "the interrupted analysis");
    engine.send("7 lz-analyze b 10");
    assert_eq!(engine.line("the next analysis"), "=7");
    for _ in 0..2 {
        check_report(&engine.line("a report after the interrupt"), true);
    }
    engine.send("8 quit");
    engine.reports_until_end(true, Duration::from_secs(30), "the next analysis's end");
    assert_eq!(engine.line("quit"), "=8 ");
    let status = engine.child.wait().expect("the engine exits");
    assert_eq!(status.code(), Some(0));
}
