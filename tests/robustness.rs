//! The engine as a hostile controller meets it: the built binary, fed seeded random input
//! (garbage bytes, real commands with absurd arguments, very long lines, thousands of
//! commands pipelined), must answer every command line exactly once, in order, echoing its
//! id, write nothing else, and exit 0 after `quit`.
//!
//! Each session's seed is printed (shown when a test fails); set `SHICHO_ROBUSTNESS_SEED` to
//! replay one. Without it every run tries a fixed seed and a fresh one.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use shicho::Rng;
use shicho::gtp::command_names;

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

/// A scratch folder for one session: the engine's working directory, so that `printsgf` to a
/// random name writes there and `loadsgf` finds nothing of the project's.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "shicho-robustness-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a scratch folder in the temp dir");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a session gave back.
struct Outcome {
    stdout: Vec<u8>,
    exit_code: Option<i32>,
}

/// Runs the engine in `cwd` on `input` and collects everything it writes. All of the input
/// goes in before a single byte of output is read: a controller may pipeline that far, so
/// the engine must keep reading its input while its own output waits (a pipe holds only
/// 64 KB of responses).
///
/// # Panics
/// When the engine stops taking input, or has not exited within `SESSION_TIMEOUT` (it is
/// killed first).
fn run_engine(cwd: &Path, input: Vec<u8>, context: &str) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shicho"))
        .args(ENGINE_ARGS)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let (written, wrote) = mpsc::channel();
    thread::spawn(move || {
        // A broken pipe once the engine has quit is its right, not a failure.
        let _ = stdin.write_all(&input);
        drop(stdin);
        let _ = written.send(());
    });
    if wrote.recv_timeout(SESSION_TIMEOUT).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{context}: the engine stopped reading its input while its output waited");
    }
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        let _ = sender.send(out);
    });
    let stdout = match receiver.recv_timeout(SESSION_TIMEOUT) {
        Ok(out) => out,
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{context}: the engine did not finish within {SESSION_TIMEOUT:?}");
        }
    };
    let status = child.wait().expect("the engine is waited for");
    Outcome {
        stdout,
        exit_code: status.code(),
    }
}

/// One response as read back: the id it carries and its text.
#[derive(Debug)]
struct Reply {
    ok: bool,
    id: Option<String>,
    text: String,
    /// Framed as a streaming analysis: `=id` alone on its first line, then `info` lines.
    streamed: bool,
}

/// The commands that answer as a stream (Leela Zero's and KataGo's convention): `=id` and a
/// line feed at once, one line of `info` groups per report, and the empty line when new
/// input arrives.
const STREAMING: &[&str] = &["analyze", "lz-analyze", "kata-analyze"];

/// Splits the engine's output into responses, checking the framing on the way: every
/// response starts with `=` or `?`, the id (digits) follows at once, then one space (or, for
/// a streaming analysis, a line feed and `info` lines only); it ends with an empty line;
/// nothing stands outside a response; only ASCII is written.
fn parse_responses(out: &[u8], context: &str) -> Vec<Reply> {
    if let Some(bad) = out
        .iter()
        .position(|&b| !(b == b'\n' || (32..127).contains(&b)))
    {
        panic!(
            "{context}: byte {:#04x} at offset {bad} of the output is not printable ASCII",
            out[bad]
        );
    }
    let text = std::str::from_utf8(out).expect("ASCII is UTF-8");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "{context}: the output does not end with an empty line: {:?}",
        &text[text.len().saturating_sub(200)..]
    );
    let mut replies = Vec::new();
    for block in text.split_terminator("\n\n") {
        let (status, rest) = block.split_at(1.min(block.len()));
        let ok = match status {
            "=" => true,
            "?" => false,
            _ => panic!("{context}: output outside a response: {:?}", snippet(block)),
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (id, after) = rest.split_at(digits);
        let (body, streamed) = match after.strip_prefix(' ') {
            Some(body) => (body, false),
            None if ok && (after.is_empty() || after.starts_with('\n')) => {
                let body = after.trim_start_matches('\n');
                assert!(
                    body.is_empty() || body.lines().all(|l| l.starts_with("info ")),
                    "{context}: a streamed response holds more than info lines: {:?}",
                    snippet(block)
                );
                (body, true)
            }
            None => panic!("{context}: no space after the id in {:?}", snippet(block)),
        };
        replies.push(Reply {
            ok,
            id: (!id.is_empty()).then(|| id.to_string()),
            text: body.to_string(),
            streamed,
        });
    }
    replies
}

fn snippet(s: &str) -> String {
    s.chars().take(200).collect()
}

/// What GTP's preprocessing leaves of a line (spec 3.1, plus the engine's documented
/// deletion of bytes >= 128): the line gets a response iff this is not empty.
fn preprocessed(line: &[u8]) -> String {
    let mut out = String::new();
    for &b in line {
        match b {
            b'#' => break,
            b'\t' => out.push(' '),
            32..=126 => out.push(char::from(b)),
            _ => {}
        }
    }
    out.trim_matches(' ').to_string()
}

/// The response a line must get.
#[derive(Debug, PartialEq, Eq)]
struct Expected {
    /// The id to echo (`None` when the line has none).
    id: Option<String>,
    /// Whether the command may answer as a stream.
    streaming: bool,
}

/// The response a line must get: `None` for none at all.
fn expected_reply(line: &[u8]) -> Option<Expected> {
    let line = preprocessed(line);
    if line.is_empty() {
        return None;
    }
    let mut tokens = line.split(' ').filter(|t| !t.is_empty());
    let first = tokens.next().unwrap_or("");
    let id = first
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| first.to_string());
    let name = if id.is_some() {
        tokens.next()
    } else {
        Some(first)
    };
    Some(Expected {
        id,
        streaming: name.is_some_and(|n| STREAMING.contains(&n)),
    })
}

/// Checks that the lines of `input` (split at LF) got exactly the responses they must, in
/// order, and that the engine exited with 0.
fn check_session(input: &[u8], outcome: &Outcome, context: &str) -> Vec<Reply> {
    let expected: Vec<Expected> = input
        .split(|&b| b == b'\n')
        .filter_map(expected_reply)
        .collect();
    let replies = parse_responses(&outcome.stdout, context);
    let got: Vec<Option<String>> = replies.iter().map(|r| r.id.clone()).collect();
    let expected_ids: Vec<Option<String>> = expected.iter().map(|e| e.id.clone()).collect();
    if got != expected_ids {
        let expected = expected_ids;
        let first = got
            .iter()
            .zip(&expected)
            .position(|(g, e)| g != e)
            .unwrap_or(got.len().min(expected.len()));
        panic!(
            "{context}: {} responses for {} command lines; first difference at response {first}: \
             got id {:?}, expected {:?}",
            got.len(),
            expected.len(),
            got.get(first),
            expected.get(first)
        );
    }
    for (i, (reply, want)) in replies.iter().zip(&expected).enumerate() {
        assert!(
            !reply.streamed || want.streaming,
            "{context}: response {i} is framed as a stream: {reply:?}"
        );
    }
    assert_eq!(
        outcome.exit_code,
        Some(0),
        "{context}: the engine did not exit with 0 after quit"
    );
    replies
}

// ----- random input ---------------------------------------------------------------------

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

fn chance(rng: &mut Rng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// An id: mostly small, sometimes with leading zeros or 40 digits long.
fn random_id(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("{:03}", rng.below(1000)),
        1 => (0..40)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect(),
        2 => "0".to_string(),
        _ => rng.below(100_000).to_string(),
    }
}

fn random_int(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "7",
            "9",
            "13",
            "19",
            "25",
            "26",
            "-1",
            "-2147483648",
            "2147483647",
            "2147483648",
            "4294967296",
            "99999999999999999999999999",
            "007",
            "+3",
            "1.5",
            "",
        ],
    )
    .to_string()
}

fn random_float(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "6.5",
            "0",
            "-7.5",
            "0.5",
            "1e308",
            "-1.7976931348623157e308",
            "1e999",
            "nan",
            "inf",
            "-0",
            ".5",
            "5.",
            "1e-300",
            "3",
        ],
    )
    .to_string()
}

fn random_color(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "b", "w", "B", "W", "black", "white", "BLACK", "White", "x", "", "bw",
        ],
    )
    .to_string()
}

/// A vertex, mostly on a board of `size`.
fn random_vertex(rng: &mut Rng, size: usize) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    match rng.below(20) {
        0 => "pass".into(),
        1 => "PASS".into(),
        2 => "I5".into(),
        3 => format!("A{}", rng.below(30)),
        4 => format!("z{}", rng.below(30)),
        5 => "resign".into(),
        6 => "A-1".into(),
        7 => "AA1".into(),
        _ => {
            let x = rng.below(size.max(1));
            let y = rng.below(size.max(1)) + 1;
            let letter = char::from(LETTERS[x.min(LETTERS.len() - 1)]);
            if chance(rng, 50) {
                format!("{}{y}", letter.to_ascii_lowercase())
            } else {
                format!("{letter}{y}")
            }
        }
    }
}

fn random_token(rng: &mut Rng, size: usize) -> String {
    match rng.below(8) {
        0 => random_int(rng),
        1 => random_float(rng),
        2 => random_color(rng),
        3 | 4 => random_vertex(rng, size),
        5 => pick(
            rng,
            &[
                "alive",
                "dead",
                "seki",
                "none",
                "absolute",
                "canadian",
                "byoyomi",
                "japanese",
                "chinese",
                "aga",
                "new-zealand",
                "tromp-taylor",
                "daoqi",
                "ko=simple,suicide=allowed,scoring=area,topology=torus",
                "true",
                "genmove",
                "play",
            ],
        )
        .to_string(),
        6 => format!("f{}.sgf", rng.below(5)),
        _ => (0..1 + rng.below(8))
            .map(|_| char::from(33 + rng.below(94) as u8))
            .filter(|&c| c != '#')
            .collect(),
    }
}

/// Commands whose cost grows with the board (Monte-Carlo ownership): only on small boards,
/// so that the debug build stays quick.
const SLOW: &[&str] = &[
    "final_score",
    "final_status_list",
    "shicho-ownership",
    "kgs-genmove_cleanup",
];

/// Tracks the board size the engine should have, to aim moves at the board.
struct Gen {
    rng: Rng,
    size: usize,
    names: Vec<&'static str>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            size: 19,
            names: command_names().filter(|&n| n != "quit").collect(),
        }
    }

    /// A real command with random, often wrong, arguments.
    fn command(&mut self) -> String {
        let rng = &mut self.rng;
        let mut name = *pick(rng, &self.names);
        // Moves and board changes more often than the rest, so that positions develop.
        if chance(rng, 50) {
            name = *pick(
                rng,
                &[
                    "play",
                    "play",
                    "play",
                    "play",
                    "undo",
                    "boardsize",
                    "is_legal",
                    "kata-set-rules",
                ],
            );
        }
        if SLOW.contains(&name) && self.size > 9 {
            name = "showboard";
        }
        let size = self.size;
        let args: Vec<String> = match name {
            "play" | "is_legal" | "trymove" | "tryko" | "genmove" if chance(rng, 80) => {
                let color = pick(rng, &["b", "w", "B", "W", "black", "white"]).to_string();
                if name == "genmove" {
                    vec![color]
                } else {
                    vec![color, random_vertex(rng, size)]
                }
            }
            "kata-set-rules" if chance(rng, 80) => vec![
                pick(
                    rng,
                    &[
                        "japanese",
                        "chinese",
                        "aga",
                        "new-zealand",
                        "tromp-taylor",
                        "daoqi",
                        "ko=simple,suicide=allowed,scoring=territory,topology=torus",
                    ],
                )
                .to_string(),
            ],
            "boardsize" if chance(rng, 80) => {
                let n = *pick(rng, &[2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 13, 19, 25]);
                self.size = n;
                vec![n.to_string()]
            }
            // Never a large number of playouts: a later genmove would take minutes.
            "shicho-player" if chance(rng, 80) => {
                let mut args = vec![pick(rng, &["mcts", "heuristic", "random"]).to_string()];
                if chance(rng, 50) {
                    args.push((1 + rng.below(16)).to_string());
                }
                args
            }
            "gogui-play_sequence" | "gogui-setup" => (0..rng.below(12))
                .flat_map(|_| [random_color(rng), random_vertex(rng, size)])
                .collect(),
            "set_free_handicap" => (0..rng.below(12))
                .map(|_| random_vertex(rng, size))
                .collect(),
            _ => (0..rng.below(5)).map(|_| random_token(rng, size)).collect(),
        };
        let mut line = name.to_string();
        for a in args {
            line.push(' ');
            line.push_str(&a);
        }
        line
    }

    /// Printable garbage: random ASCII, sometimes starting with a number.
    fn printable_garbage(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        let len = rng.below(80);
        let mut line: Vec<u8> = (0..len).map(|_| 32 + rng.below(95) as u8).collect();
        if chance(rng, 30) {
            let mut id = random_id(rng).into_bytes();
            id.push(b' ');
            id.extend(line);
            line = id;
        }
        line
    }

    /// Any bytes but LF: control characters, CR, tabs, NUL, invalid UTF-8.
    fn binary_garbage(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        (0..rng.below(120))
            .map(|_| {
                loop {
                    let b = rng.below(256) as u8;
                    if b != b'\n' {
                        break b;
                    }
                }
            })
            .collect()
    }

    /// A line that must get no response.
    fn silent(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        let choices: &[&[u8]] = &[
            b"",
            b"   ",
            b"\t\t",
            b"\r",
            b"# a comment",
            b"   # indented comment",
            b"#? [expected]",
            b"# interrupt",
            b"\x00\x01\x02",
            b"\xff\xfe\xc3",
            b" \x7f \x1b[0m ",
            b"#",
        ];
        pick(rng, choices).to_vec()
    }

    /// Wraps a command line the way sloppy controllers do: an id, CR LF, tabs, a comment.
    fn dress(&mut self, command: String) -> Vec<u8> {
        let rng = &mut self.rng;
        let mut line = String::new();
        if chance(rng, 50) {
            line.push_str(&random_id(rng));
            line.push(if chance(rng, 20) { '\t' } else { ' ' });
        }
        line.push_str(&if chance(rng, 10) {
            command.replace(' ', "\t")
        } else {
            command
        });
        if chance(rng, 10) {
            line.push_str(" # trailing comment");
        }
        let mut bytes = line.into_bytes();
        if chance(rng, 10) {
            bytes.push(b'\r');
        }
        if chance(rng, 3) {
            // A control character or a high byte inside a token is deleted.
            let at = rng.below(bytes.len() + 1);
            bytes.insert(at, *pick(rng, &[0u8, 1, 7, 27, 127, 200]));
        }
        bytes
    }

    /// A command line that must not end the session.
    fn is_quit(line: &[u8]) -> bool {
        let text = preprocessed(line);
        let mut tokens = text.split(' ');
        let first = tokens.next().unwrap_or("");
        let name = if first.bytes().all(|b| b.is_ascii_digit()) {
            tokens.next().unwrap_or("")
        } else {
            first
        };
        name == "quit"
    }

    fn line(&mut self) -> Vec<u8> {
        let line = match self.rng.below(100) {
            0..=54 => {
                let command = self.command();
                self.dress(command)
            }
            55..=71 => self.printable_garbage(),
            72..=84 => self.binary_garbage(),
            _ => self.silent(),
        };
        if Gen::is_quit(&line) {
            b"name".to_vec()
        } else {
            line
        }
    }
}

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
