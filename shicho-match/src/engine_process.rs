//! A GTP engine running as a child process, driven with deadlines.
//!
//! Each engine gets two reader threads: one turns its stdout into GTP responses and hands
//! them over a bounded channel, so the referee can wait with `recv_timeout` and never block
//! on an engine that stopped answering; the other copies its stderr into the shared log
//! instead of the terminal. An engine that times out, exits, or writes something that is not
//! GTP is killed at once: its state is no longer in step with the game, and a hung search
//! would otherwise keep eating a core the other games need. A [`Slot`] holds an engine's
//! command line and restarts it for the next game (the players', the referee engine's and
//! the judge's slots alike).
//!
//! Commands go out with ids (`7 genmove b`) and a response carrying another id is dropped as
//! stale; a response without an id is accepted, so engines that forget to echo ids still
//! work.
//!
//! The reader hands over a response line by line (its header, its lines, its end) rather
//! than whole, so that a streaming answer such as `kata-analyze`'s, which has no end until
//! the next command, can be read as it comes ([`EngineProcess::analyze`]) without being held
//! in memory.

use std::collections::HashSet;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line read from an engine; a longer one is garbage (and bounds memory).
const MAX_LINE: u64 = 1 << 20;
/// Longest response (all lines together).
const MAX_RESPONSE: usize = 4 << 20;
/// Lines buffered between the reader thread and the referee; an engine that floods stdout
/// then blocks on its own pipe instead of growing our memory.
const REPLY_QUEUE: usize = 16;
/// How long `quit` may take before the engine is killed.
const QUIT_WAIT: Duration = Duration::from_secs(1);
/// How long to wait for an exit status after stdout closed, to say why it closed.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(300);

/// Where GTP traffic and engines' stderr go: one writer shared by the engines of a worker
/// and its game markers, so the lines of one game read in order.
pub type SharedLog = Arc<Mutex<Box<dyn Write + Send>>>;

/// A log that drops everything.
pub fn null_log() -> SharedLog {
    Arc::new(Mutex::new(Box::new(io::sink())))
}

/// A log appending to `path`, written line by line.
///
/// # Errors
/// The file cannot be created or opened.
pub fn file_log(path: &std::path::Path) -> io::Result<SharedLog> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    Ok(Arc::new(Mutex::new(Box::new(io::LineWriter::new(file)))))
}

/// Writes one line to `log`. Logging must never stop a match, so failures are ignored, and
/// a poisoned lock (a thread panicked while writing) is used anyway.
pub fn log_line(log: &SharedLog, line: &str) {
    let mut w = log.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
}

/// Why a command got no useful answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine answered `? text`: it is alive and in step, it just said no.
    Refused(String),
    /// No answer in time; the engine has been killed.
    Timeout(Duration),
    /// The engine could not be started, exited, closed its output or wrote something that
    /// is not GTP; it has been killed.
    Died(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Refused(text) => write!(f, "answered '? {text}'"),
            EngineError::Timeout(t) => write!(f, "no answer within {:.1} s", t.as_secs_f64()),
            EngineError::Died(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EngineError {}

/// What the stdout reader hands over.
enum Reply {
    /// The first line of a response: `=` (`ok`) or `?`, the id, the rest of the line.
    Header {
        id: Option<u32>,
        ok: bool,
        text: String,
    },
    /// A further line of the response.
    Line(String),
    /// The empty line that ends the response.
    End,
    /// End of output (or a read error).
    Closed,
    /// A line beyond the limit.
    Garbage(String),
}

/// A running GTP engine.
pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Reply>,
    log: SharedLog,
    next_id: u32,
    /// What `name` answered (the program name if it failed).
    pub name: String,
    /// What `version` answered (empty if it failed).
    pub version: String,
    /// What `list_commands` answered, `None` if it failed.
    commands: Option<HashSet<String>>,
    /// Killed after a failure: every further command fails at once.
    dead: bool,
}

impl EngineProcess {
    /// Starts `argv` and asks `protocol_version`, `name`, `version` and `list_commands`,
    /// each within `timeout`. `label` prefixes its lines in `log`.
    ///
    /// # Errors
    /// `Died` if the program cannot be started, or any error of the handshake except a
    /// refusal (engines may refuse `version` or even `list_commands`).
    pub fn start(
        argv: &[String],
        label: &str,
        log: SharedLog,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| EngineError::Died("empty engine command line".to_string()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Died(format!("cannot start '{program}': {e}")))?;
        // All three pipes were requested just above, so they are there.
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, replies) = mpsc::sync_channel(REPLY_QUEUE);
        {
            let (log, label) = (log.clone(), label.to_string());
            thread::spawn(move || read_replies(stdout, &tx, &log, &label));
        }
        {
            let (log, label) = (log.clone(), label.to_string());
            thread::spawn(move || copy_stderr(stderr, &log, &label));
        }
        log_line(&log, &format!("{label}: started {argv:?}"));
        let mut engine = EngineProcess {
            label: label.to_string(),
            child,
            stdin,
            replies,
            log,
            next_id: 0,
            name: String::new(),
            version: String::new(),
            commands: None,
            dead: false,
        };
        let optional = |r: Result<String, EngineError>| match r {
            Ok(text) => Ok(Some(text)),
            Err(EngineError::Refused(_)) => Ok(None),
            Err(e) => Err(e),
        };
        optional(engine.send("protocol_version", timeout))?;
        let fallback = std::path::Path::new(program)
            .file_name()
            .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned());
        engine.name = optional(engine.send("name", timeout))?
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or(fallback);
        engine.version = optional(engine.send("version", timeout))?
            .map(|v| v.trim().to_string())
            .unwrap_or_default();
        engine.commands = optional(engine.send("list_commands", timeout))?
            .map(|list| list.split_whitespace().map(str::to_string).collect());
        Ok(engine)
    }

    /// `name version`, or just the name when the version is empty.
    pub fn full_name(&self) -> String {
        if self.version.is_empty() {
            self.name.clone()
        } else {
            format!("{} {}", self.name, self.version)
        }
    }

    /// Whether the engine listed `command`. With no list (list_commands failed) every
    /// command counts as known, to be tried and allowed to fail.
    pub fn knows(&self, command: &str) -> bool {
        self.commands.as_ref().is_none_or(|c| c.contains(command))
    }

    /// Whether the engine was killed after a failure.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Sends one command and waits at most `timeout` for its response text.
    ///
    /// # Errors
    /// See [`EngineError`]. After `Timeout` or `Died` the engine has been killed.
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        let (ok, mut text) = self.start_command(command, timeout)?;
        loop {
            match self.next_line(deadline, timeout)? {
                Some(line) => {
                    if text.len() + line.len() > MAX_RESPONSE {
                        let why = format!("wrote a response longer than {MAX_RESPONSE} bytes");
                        return Err(self.fail(EngineError::Died(why)));
                    }
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&line);
                }
                None if ok => return Ok(text),
                None => return Err(EngineError::Refused(text)),
            }
        }
    }

    /// Runs a streaming analysis command (`kata-analyze B 10`): each line of its answer goes
    /// to `on_line` as it arrives, until `on_line` answers `true` or `limit` has passed; then
    /// the engine is stopped by a `protocol_version` (any new command ends an analysis) and
    /// the rest of the answer is read and dropped. `timeout` bounds the wait for the header,
    /// for each line, and for the stop.
    ///
    /// # Errors
    /// `Refused` when the engine answers `?`; otherwise as [`send`](Self::send).
    pub fn analyze(
        &mut self,
        command: &str,
        limit: Duration,
        timeout: Duration,
        mut on_line: impl FnMut(&str) -> bool,
    ) -> Result<(), EngineError> {
        let (ok, text) = self.start_command(command, timeout)?;
        let stop_at = Instant::now() + limit;
        if !ok {
            // The refusal's text is on the header line and maybe more; read to its end.
            let mut why = text;
            while let Some(line) = self.next_line(Instant::now() + timeout, timeout)? {
                why.push(' ');
                why.push_str(&line);
            }
            return Err(EngineError::Refused(why));
        }
        let mut ended = false;
        if text.is_empty() || !on_line(&text) {
            loop {
                // A line must come within `timeout` (the engine reports every interval), but
                // the analysis stops at `stop_at` whatever comes.
                let wait = (stop_at.min(Instant::now() + timeout))
                    .saturating_duration_since(Instant::now());
                match self.replies.recv_timeout(wait) {
                    Ok(Reply::Line(line)) => {
                        if on_line(&line) {
                            break;
                        }
                    }
                    Ok(Reply::End) => {
                        ended = true;
                        break;
                    }
                    Ok(Reply::Header { .. }) => {
                        let why = "wrote a new response inside an analysis".to_string();
                        return Err(self.fail(EngineError::Died(why)));
                    }
                    Ok(Reply::Garbage(why)) => return Err(self.fail(EngineError::Died(why))),
                    Ok(Reply::Closed) | Err(RecvTimeoutError::Disconnected) => {
                        return Err(self.closed());
                    }
                    Err(RecvTimeoutError::Timeout) if Instant::now() >= stop_at => break,
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(self.fail(EngineError::Timeout(timeout)));
                    }
                }
            }
        }
        // Stop the analysis; its remaining lines come before the stop's own answer.
        self.write_command_line("protocol_version")?;
        let stop_id = self.next_id;
        let deadline = Instant::now() + timeout;
        if !ended {
            while self.next_line(deadline, timeout)?.is_some() {}
        }
        self.await_header(stop_id, deadline, timeout)?;
        while self.next_line(deadline, timeout)?.is_some() {}
        Ok(())
    }

    /// Writes `id command` and waits for the header of its response: whether it is `=`,
    /// and the text on the header line.
    fn start_command(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<(bool, String), EngineError> {
        self.write_command_line(command)?;
        let id = self.next_id;
        self.await_header(id, Instant::now() + timeout, timeout)
    }

    /// Sends one command line with the next id.
    fn write_command_line(&mut self, command: &str) -> Result<(), EngineError> {
        if self.dead {
            return Err(EngineError::Died("engine was stopped earlier".to_string()));
        }
        self.next_id += 1;
        let line = format!("{} {command}", self.next_id);
        log_line(&self.log, &format!("{}> {line}", self.label));
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        if let Err(e) = written {
            let why = self
                .exit_reason()
                .unwrap_or_else(|| format!("cannot write: {e}"));
            return Err(self.fail(EngineError::Died(why)));
        }
        Ok(())
    }

    /// Waits for the header of the response to command `id`, dropping stale responses.
    fn await_header(
        &mut self,
        id: u32,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(bool, String), EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.replies.recv_timeout(left) {
                Ok(Reply::Header { id: Some(x), .. }) if x != id => {
                    log_line(
                        &self.log,
                        &format!("{}: stale response {x} dropped", self.label),
                    );
                    while self.next_line(deadline, timeout)?.is_some() {}
                }
                Ok(Reply::Header { ok, text, .. }) => return Ok((ok, text)),
                // Lines outside a response cannot come (the reader drops them); an end
                // without a header neither. Either way there is nothing to wait for here.
                Ok(Reply::Line(_) | Reply::End) => {}
                Ok(Reply::Garbage(why)) => return Err(self.fail(EngineError::Died(why))),
                Ok(Reply::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.closed());
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.fail(EngineError::Timeout(timeout)));
                }
            }
        }
    }

    /// The next line of the response being read, `None` at its end.
    fn next_line(
        &mut self,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<Option<String>, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.replies.recv_timeout(left) {
            Ok(Reply::Line(line)) => Ok(Some(line)),
            Ok(Reply::End) => Ok(None),
            Ok(Reply::Header { .. }) => {
                let why = "wrote a response header inside a response".to_string();
                Err(self.fail(EngineError::Died(why)))
            }
            Ok(Reply::Garbage(why)) => Err(self.fail(EngineError::Died(why))),
            Ok(Reply::Closed) | Err(RecvTimeoutError::Disconnected) => Err(self.closed()),
            Err(RecvTimeoutError::Timeout) => Err(self.fail(EngineError::Timeout(timeout))),
        }
    }

    /// The engine closed its output: why (its exit, if it comes within a moment), with the
    /// engine killed.
    fn closed(&mut self) -> EngineError {
        let why = self
            .exit_reason()
            .unwrap_or_else(|| "closed its output".to_string());
        self.fail(EngineError::Died(why))
    }

    /// Kills the engine and hands back `e`.
    fn fail(&mut self, e: EngineError) -> EngineError {
        log_line(&self.log, &format!("{}: {e}; killing it", self.label));
        self.kill();
        e
    }

    /// Kills the process (if still running) and reaps it.
    pub fn kill(&mut self) {
        if !self.dead {
            self.dead = true;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// How the process ended, if it ends within a moment.
    fn exit_reason(&mut self) -> Option<String> {
        let status = wait_for_exit(&mut self.child, EXIT_STATUS_WAIT)?;
        Some(describe_exit(status))
    }
}

impl Drop for EngineProcess {
    /// Asks a healthy engine to `quit`, then kills whatever is left.
    fn drop(&mut self) {
        if !self.dead {
            let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
            if wait_for_exit(&mut self.child, QUIT_WAIT).is_none() {
                log_line(
                    &self.log,
                    &format!("{}: did not quit; killing it", self.label),
                );
            }
            self.kill();
        }
    }
}

/// The exit status, polling for at most `limit` (std has no wait with a timeout).
fn wait_for_exit(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            _ => return None,
        }
    }
}

fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "exited".to_string(),
    }
}

/// One line of engine output with the controller's share of GTP preprocessing applied
/// (spec 3.1: CR and other control characters deleted, HT turned into a space), decoded
/// leniently since a stray byte is no reason to lose the response.
fn clean_line(raw: &[u8]) -> String {
    let bytes: Vec<u8> = raw
        .iter()
        .filter_map(|&b| match b {
            b'\t' => Some(b' '),
            0..=31 | 127 => None,
            _ => Some(b),
        })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Characters of an engine's line that go into the log: enough for any answer a human
/// reads there, while a judge's analysis, ten reports a second each listing every move
/// with its variation, would otherwise write megabytes a game.
const LOG_LINE_LIMIT: usize = 300;

/// `line` as logged: cut at `LOG_LINE_LIMIT` characters, saying how long it was.
fn log_text(line: &str) -> std::borrow::Cow<'_, str> {
    match line.char_indices().nth(LOG_LINE_LIMIT) {
        None => line.into(),
        Some((cut, _)) => format!("{} ... ({} bytes)", &line[..cut], line.len()).into(),
    }
}

/// `=` or `?`, an optional id, then the text.
fn parse_header(line: &str) -> Option<(bool, Option<u32>, String)> {
    let ok = match line.as_bytes().first()? {
        b'=' => true,
        b'?' => false,
        _ => return None,
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let id = rest[..digits].parse().ok();
    Some((ok, id, rest[digits..].trim().to_string()))
}

/// Reads one line of at most `MAX_LINE` bytes: `Ok(None)` at the end of the stream,
/// `Err` for a longer line.
fn read_line(reader: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut buf = Vec::new();
    match reader.take(MAX_LINE).read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => Ok(None),
        Ok(n) if n as u64 >= MAX_LINE && buf.last() != Some(&b'\n') => {
            Err(format!("wrote a line longer than {MAX_LINE} bytes"))
        }
        Ok(_) => Ok(Some(buf)),
    }
}

/// The stdout reader: marks the lines of each response (a header line starting with `=` or
/// `?` up to the next empty line) and hands them over one by one. Lines outside a response
/// are not GTP; GoGui and Sabaki ignore them, and so does the referee (they are logged).
fn read_replies(stdout: impl Read, tx: &SyncSender<Reply>, log: &SharedLog, label: &str) {
    let mut reader = BufReader::new(stdout);
    let mut in_response = false;
    loop {
        let raw = match read_line(&mut reader) {
            Ok(Some(raw)) => raw,
            Ok(None) => {
                log_line(log, &format!("{label}: end of output"));
                let _ = tx.send(Reply::Closed);
                return;
            }
            Err(why) => {
                let _ = tx.send(Reply::Garbage(why));
                return;
            }
        };
        let line = clean_line(&raw);
        log_line(log, &format!("{label}< {}", log_text(&line)));
        let reply = if !in_response {
            match parse_header(&line) {
                Some((ok, id, text)) => {
                    in_response = true;
                    Reply::Header { id, ok, text }
                }
                None => {
                    if !line.trim().is_empty() {
                        log_line(log, &format!("{label}: not GTP, ignored"));
                    }
                    continue;
                }
            }
        } else if line.trim().is_empty() {
            in_response = false;
            Reply::End
        } else {
            Reply::Line(line.trim_end().to_string())
        };
        if tx.send(reply).is_err() {
            return;
        }
    }
}

/// The stderr reader: every line goes to the log, none to the terminal.
fn copy_stderr(stderr: impl Read, log: &SharedLog, label: &str) {
    let mut reader = BufReader::new(stderr);
    while let Ok(Some(raw)) = read_line(&mut reader) {
        log_line(log, &format!("{label}! {}", clean_line(&raw)));
    }
}

/// An engine process slot: the engine is started on first use and again after it was
/// killed.
pub struct Slot {
    label: String,
    argv: Vec<String>,
    engine: Option<EngineProcess>,
    log: SharedLog,
}

impl Slot {
    pub fn new(label: &str, argv: Vec<String>, log: SharedLog) -> Slot {
        Slot {
            label: label.to_string(),
            argv,
            engine: None,
            log,
        }
    }

    /// The running engine, (re)started if needed.
    ///
    /// # Errors
    /// The engine cannot be started or fails its handshake.
    pub fn get(&mut self, timeout: Duration) -> Result<&mut EngineProcess, EngineError> {
        if self.engine.as_ref().is_some_and(EngineProcess::is_dead) {
            self.engine = None;
        }
        match &mut self.engine {
            Some(engine) => Ok(engine),
            slot @ None => Ok(slot.insert(EngineProcess::start(
                &self.argv,
                &self.label,
                self.log.clone(),
                timeout,
            )?)),
        }
    }

    /// The engine if it is running and healthy; never starts one.
    pub(crate) fn alive(&mut self) -> Option<&mut EngineProcess> {
        self.engine.as_mut().filter(|e| !e.is_dead())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        assert_eq!(parse_header("= D4"), Some((true, None, "D4".into())));
        assert_eq!(parse_header("=12 D4"), Some((true, Some(12), "D4".into())));
        assert_eq!(parse_header("=12"), Some((true, Some(12), String::new())));
        assert_eq!(
            parse_header("?3 illegal move"),
            Some((false, Some(3), "illegal move".into()))
        );
        assert_eq!(parse_header("D4"), None);
        assert_eq!(parse_header(""), None);
        // Too many digits for an id: no id, the text keeps nothing of them.
        assert_eq!(
            parse_header("=99999999999 x"),
            Some((true, None, "x".into()))
        );
    }

    #[test]
    fn reader_marks_the_lines_of_responses() {
        let out = b"noise\n=1 a\nb\n\n?2 no\r\n\n= \n\n\xff=3\n".to_vec();
        let (tx, rx) = mpsc::sync_channel(64);
        read_replies(&out[..], &tx, &null_log(), "t");
        let mut got = Vec::new();
        while let Ok(r) = rx.try_recv() {
            got.push(match r {
                Reply::Header { id, ok, text } => format!("{ok} {id:?} {text:?}"),
                Reply::Line(line) => format!("line {line:?}"),
                Reply::End => "end".into(),
                Reply::Closed => "closed".into(),
                Reply::Garbage(w) => w,
            });
        }
        assert_eq!(
            got,
            [
                "true Some(1) \"a\"",
                "line \"b\"",
                "end",
                "false Some(2) \"no\"",
                "end",
                "true None \"\"",
                "end",
                "closed"
            ]
        );
    }

    #[test]
    fn long_lines_are_cut_in_the_log() {
        assert_eq!(log_text("= D4"), "= D4");
        let long = "é".repeat(400);
        let cut = log_text(&long);
        assert!(cut.starts_with(&"é".repeat(300)) && cut.ends_with(" ... (800 bytes)"));
    }

    #[test]
    fn a_missing_program_is_reported_not_panicked() {
        let argv = vec!["/nonexistent/engine".to_string()];
        let r = EngineProcess::start(&argv, "x", null_log(), Duration::from_secs(1));
        assert!(matches!(r, Err(EngineError::Died(ref why)) if why.contains("cannot start")));
    }
}
