//! The GTP session: a reader thread that watches the input for GoGui's interrupt line, and
//! the loop that answers every other line in order.
//!
//! Input is read as bytes, not text: a controller may send anything, and each line (however
//! long, whatever its bytes) gets at most one response. The reader keeps reading while a
//! command runs, so `# interrupt` can stop a search; the lines themselves wait in a channel
//! and are answered strictly in order.

use std::io::{self, BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::thread;

use crate::gtp::engine::{Engine, errors::SYNTAX_ERROR, frame};
use crate::gtp::parse;

/// Longest line kept. A longer line is answered with a syntax error (carrying its id) rather
/// than half executed; a full 25x25 game sent by gogui-play_sequence is well below this.
pub const MAX_LINE: usize = 1 << 20;

enum Input {
    Line(Vec<u8>),
    /// A line longer than `MAX_LINE`: its first `MAX_LINE` bytes.
    TooLong(Vec<u8>),
}

/// Reads one line (without its LF) into `line`, keeping at most `MAX_LINE` bytes. Returns
/// `None` at end of input, otherwise whether the line was cut.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        if part.len() > room {
            cut = true;
        }
        line.extend_from_slice(&part[..part.len().min(room)]);
        let consumed = done.unwrap_or(chunk.len());
        input.consume(consumed);
        if done.is_some() {
            return Ok(Some(cut));
        }
    }
}

/// Runs a GTP session until `quit` or the end of input.
///
/// # Errors
/// Only a failure to write to `output` (the controller went away).
pub fn run(
    mut engine: Engine,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let interrupt = engine.interrupt_flag();
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut input = input;
        let mut line = Vec::new();
        loop {
            match read_line(&mut input, &mut line) {
                Ok(Some(cut)) => {
                    if parse::is_interrupt_comment(&line) {
                        log::info!("interrupt requested");
                        interrupt.store(true, Ordering::Relaxed);
                        continue;
                    }
                    let item = if cut {
                        Input::TooLong(line.clone())
                    } else {
                        Input::Line(line.clone())
                    };
                    if sender.send(item).is_err() {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    log::error!("reading input: {e}");
                    return;
                }
            }
        }
    });
    for item in receiver {
        let response = match item {
            Input::Line(line) => engine.handle(&line),
            Input::TooLong(prefix) => {
                log::warn!("input line longer than {MAX_LINE} bytes");
                let id = parse::preprocess(&prefix)
                    .and_then(|l| parse::parse_command_line(&l).ok())
                    .and_then(|c| c.id);
                Some(crate::gtp::engine::Response {
                    text: frame(id.as_deref(), Err(SYNTAX_ERROR.into())),
                    quit: false,
                })
            }
        };
        if let Some(response) = response {
            output.write_all(response.text.as_bytes())?;
            output.flush()?;
            if response.quit {
                break;
            }
        }
    }
    Ok(())
}
