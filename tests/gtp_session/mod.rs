//! A GTP engine driven line by line through the built binary, as a GUI drives it: send a
//! line, read the lines that come back, ask a command and get `(ok, text)`. Shared by the
//! tests that speak to shicho the way a particular front end does.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long any one answer may take (debug build, shared machine) before the engine counts
/// as hung.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// The engine driven line by line, as a GUI does.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The built binary started with `args`, its input piped and its output read line by line
/// on a thread of its own (so that a test can wait for a line with a timeout).
pub fn spawn(args: &[&str]) -> (Child, ChildStdin, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shicho"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    (child, stdin, lines)
}

impl Session {
    pub fn start(args: &[&str]) -> Session {
        let (child, stdin, lines) = spawn(args);
        Session {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .expect("the engine reads its input");
    }

    pub fn line(&mut self, waiting_for: &str) -> String {
        self.lines
            .recv_timeout(ANSWER_TIMEOUT)
            .unwrap_or_else(|_| panic!("no output while waiting for {waiting_for}"))
    }

    /// Sends a command, returns `(ok, text)` of its response.
    pub fn ask(&mut self, command: &str) -> (bool, String) {
        self.send(command);
        self.answer(command)
    }

    /// Reads `(ok, text)` of the response to `command`, sent before (controllers that
    /// write several commands before they read send them all first).
    pub fn answer(&mut self, command: &str) -> (bool, String) {
        let mut lines = vec![self.line(command)];
        loop {
            let line = self.line(command);
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        let text = lines.join("\n");
        let ok = text.starts_with('=');
        assert!(ok || text.starts_with('?'), "{command}: not GTP: {text:?}");
        (ok, text[1..].trim().to_string())
    }

    /// A command that must succeed; its text.
    pub fn ok(&mut self, command: &str) -> String {
        let (ok, text) = self.ask(command);
        assert!(ok, "{command} failed: {text}");
        text
    }

    /// A command that must fail with `error`.
    pub fn fails(&mut self, command: &str, error: &str) {
        assert_eq!(self.ask(command), (false, error.to_string()), "{command}");
    }
}
