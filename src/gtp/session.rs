//! The GTP session: a reader thread that watches the input for GoGui's interrupt line, and
//! the loop that answers every other line in order.
//!
//! Input is read as bytes, not text: a controller may send anything, and each line (however
//! long, whatever its bytes) gets at most one response. The reader keeps reading while a
//! command runs, so `# interrupt` can stop a search; the lines themselves wait in a channel
//! and are answered strictly in order.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::gtp::error::GtpError;
use crate::gtp::parse;
use crate::gtp::response::{Response, frame};

/// Longest line kept. A longer line whose command goes on past it is answered with a syntax
/// error (carrying its id) rather than half executed; a full 25x25 game sent by
/// gogui-play_sequence is well below this.
pub const MAX_LINE: usize = 1 << 20;

/// What answers the session's lines: the engine, whichever games it plays.
pub trait Answerer {
    /// The flag GoGui's `# interrupt` raises; searches and analyses stop when they see it.
    fn interrupt_flag(&self) -> Arc<AtomicBool>;

    /// Answers one raw input line, `None` for lines that get no response; an analysis
    /// command streams its reports to `out` until `stop` says new input is waiting, and
    /// then answers `None`, everything being written.
    ///
    /// # Errors
    /// Writing to `out` failed.
    fn handle_streaming(
        &mut self,
        raw: &[u8],
        out: &mut dyn Write,
        stop: &dyn Fn() -> bool,
    ) -> io::Result<Option<Response>>;
}

enum Input {
    Line(Vec<u8>),
    /// A line longer than `MAX_LINE` whose command goes on past it: its first `MAX_LINE`
    /// bytes.
    TooLong(Vec<u8>),
}

/// Whether a byte past `MAX_LINE` would still be part of the command after preprocessing:
/// a printable character other than a space (blanks, control characters and bytes >= 128
/// are deleted or trimmed, and the caller stops looking at the first `#`).
fn matters(byte: u8) -> bool {
    (33..=126).contains(&byte)
}

/// Reads one line (without its LF) into `line`, keeping at most `MAX_LINE` bytes. Returns
/// `None` at end of input, otherwise whether the command on the line was cut: whether a
/// byte that matters was dropped before any `#`. A long comment, or a long run of blanks,
/// cuts nothing, so a blank or comment line however long still gets no response, and a
/// command followed by a long comment is answered normally.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut cut = false;
    let mut comment = false;
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
        let (kept, dropped) = part.split_at(part.len().min(room));
        comment = comment || kept.contains(&b'#');
        if !comment && !cut {
            for &b in dropped {
                if b == b'#' {
                    comment = true;
                    break;
                }
                if matters(b) {
                    cut = true;
                    break;
                }
            }
        }
        line.extend_from_slice(kept);
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
    mut engine: impl Answerer,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let interrupt = engine.interrupt_flag();
    // GoGui's interrupt stops every command read before it, whether running or still
    // waiting in the channel: GoGui writes it right behind the command it means, possibly
    // before that command has started. `interrupt_after` is the number of lines read when
    // the last interrupt came; a command starting later than that clears the flag as stale.
    // The lock keeps "raise" and "clear" apart, so that neither undoes the other.
    let interrupt_after = Arc::new(Mutex::new(0u64));
    let (reader_interrupt, reader_interrupt_after) =
        (Arc::clone(&interrupt), Arc::clone(&interrupt_after));
    // Lines read but not yet answered, and whether input has ended: a streaming analysis
    // runs until either says there is something new.
    let pending = Arc::new(AtomicUsize::new(0));
    let closed = Arc::new(AtomicBool::new(false));
    let (reader_pending, reader_closed) = (Arc::clone(&pending), Arc::clone(&closed));
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut input = input;
        let mut line = Vec::new();
        let mut lines_read = 0u64;
        loop {
            match read_line(&mut input, &mut line) {
                Ok(Some(cut)) => {
                    if parse::is_interrupt_comment(&line) {
                        log::info!("interrupt requested");
                        let mut after = reader_interrupt_after
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner);
                        *after = lines_read;
                        reader_interrupt.store(true, Ordering::SeqCst);
                        continue;
                    }
                    lines_read += 1;
                    let item = if cut {
                        Input::TooLong(line.clone())
                    } else {
                        Input::Line(line.clone())
                    };
                    reader_pending.fetch_add(1, Ordering::SeqCst);
                    if sender.send(item).is_err() {
                        return;
                    }
                }
                Ok(None) => {
                    reader_closed.store(true, Ordering::SeqCst);
                    return;
                }
                Err(e) => {
                    log::error!("reading input: {e}");
                    reader_closed.store(true, Ordering::SeqCst);
                    return;
                }
            }
        }
    });
    let new_input = || pending.load(Ordering::SeqCst) > 0 || closed.load(Ordering::SeqCst);
    let mut lines_started = 0u64;
    for item in receiver {
        pending.fetch_sub(1, Ordering::SeqCst);
        lines_started += 1;
        {
            let after = interrupt_after
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if *after < lines_started {
                interrupt.store(false, Ordering::SeqCst);
            }
        }
        let response = match item {
            Input::Line(line) => engine.handle_streaming(&line, &mut output, &new_input)?,
            Input::TooLong(prefix) => {
                log::warn!("input line longer than {MAX_LINE} bytes");
                let id = parse::preprocess(&prefix)
                    .and_then(|l| parse::parse_command_line(&l).ok())
                    .and_then(|c| c.id);
                Some(Response {
                    text: frame(id.as_deref(), &Err(GtpError::Syntax)),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads every line of `input` as the session does: (kept length, cut).
    fn lines(input: &[u8]) -> Vec<(usize, bool)> {
        let mut reader = io::BufReader::with_capacity(4096, input);
        let mut line = Vec::new();
        let mut out = Vec::new();
        while let Some(cut) = read_line(&mut reader, &mut line).unwrap() {
            out.push((line.len(), cut));
        }
        out
    }

    #[test]
    fn only_a_command_going_past_the_limit_is_cut() {
        let long = MAX_LINE + 10_000;
        let mut input = Vec::new();
        let mut command = b"5 ".to_vec();
        command.resize(long, b'a');
        input.extend(&command);
        input.push(b'\n');
        let mut comment = b"1 name # ".to_vec();
        comment.resize(long, b'c');
        input.extend(&comment);
        input.push(b'\n');
        input.extend(vec![b' '; long]);
        input.push(b'\n');
        let mut blanks_then_word = vec![b'\t'; long];
        blanks_then_word.extend(b"name");
        input.extend(&blanks_then_word);
        input.push(b'\n');
        let mut hash_past_limit = vec![b' '; long];
        hash_past_limit.extend(b"# name");
        input.extend(&hash_past_limit);
        input.extend(b"\nname");
        assert_eq!(
            lines(&input),
            [
                (MAX_LINE, true),
                (MAX_LINE, false),
                (MAX_LINE, false),
                (MAX_LINE, true),
                (MAX_LINE, false),
                (4, false)
            ]
        );
    }
}
