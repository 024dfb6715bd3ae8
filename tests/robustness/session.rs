//! Running the built engine on some input and checking what comes back: one response per
//! command line, in order, with its id, and nothing else.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::{ENGINE_ARGS, SESSION_TIMEOUT};

/// A scratch folder for one session: the engine's working directory, so that `printsgf` to a
/// random name writes there and `loadsgf` finds nothing of the project's.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
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
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub exit_code: Option<i32>,
}

/// Runs the engine in `cwd` on `input` and collects everything it writes. All of the input
/// goes in before a single byte of output is read: a controller may pipeline that far, so
/// the engine must keep reading its input while its own output waits (a pipe holds only
/// 64 KB of responses).
///
/// # Panics
/// When the engine stops taking input, or has not exited within `SESSION_TIMEOUT` (it is
/// killed first).
pub fn run_engine(cwd: &Path, input: Vec<u8>, context: &str) -> Outcome {
    run_engine_with(ENGINE_ARGS, cwd, input, context)
}

/// [`run_engine`] with other command-line arguments.
pub fn run_engine_with(args: &[&str], cwd: &Path, input: Vec<u8>, context: &str) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shicho"))
        .args(args)
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
pub struct Reply {
    pub ok: bool,
    pub id: Option<String>,
    pub text: String,
    /// Framed as a streaming analysis: `=id` alone on its first line, then `info` lines.
    pub streamed: bool,
}

/// The commands that answer as a stream (Leela Zero's and KataGo's convention): `=id` and a
/// line feed at once, one line of `info` groups per report, and the empty line when new
/// input arrives (the genmove variants: a `play` line, then the empty line, once their move
/// is played).
pub const STREAMING: &[&str] = &[
    "analyze",
    "lz-analyze",
    "kata-analyze",
    "genmove_analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
];

/// Splits the engine's output into responses, checking the framing on the way: every
/// response starts with `=` or `?`, the id (digits) follows at once, then one space (or, for
/// a streaming analysis, a line feed and `info` lines only, then maybe a `play` line); it
/// ends with an empty line;
/// nothing stands outside a response; only ASCII is written.
pub fn parse_responses(out: &[u8], context: &str) -> Vec<Reply> {
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
                let lines: Vec<&str> = body.lines().collect();
                let reports = match lines.split_last() {
                    Some((last, before)) if last.starts_with("play ") => before,
                    _ => &lines[..],
                };
                assert!(
                    reports.iter().all(|l| l.starts_with("info ")),
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

pub fn snippet(s: &str) -> String {
    s.chars().take(200).collect()
}

/// What GTP's preprocessing leaves of a line (spec 3.1, plus the engine's documented
/// deletion of bytes >= 128): the line gets a response iff this is not empty.
pub fn preprocessed(line: &[u8]) -> String {
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
pub struct Expected {
    /// The id to echo (`None` when the line has none).
    pub id: Option<String>,
    /// Whether the command may answer as a stream.
    pub streaming: bool,
}

/// The response a line must get: `None` for none at all.
pub fn expected_reply(line: &[u8]) -> Option<Expected> {
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
pub fn check_session(input: &[u8], outcome: &Outcome, context: &str) -> Vec<Reply> {
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
