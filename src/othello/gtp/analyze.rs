//! Live analysis in Othello mode: `lz-analyze`, `kata-analyze` and `analyze` stream the
//! searcher's lines in the format of Go's (`go::gtp::analyze`): `=` at once,
//! then every interval one line of `info move D3 visits N winrate W prior 0 lcb W order K
//! pv D3 C5 ...` groups, one per root move, best first, until any new input; then the
//! empty line.
//!
//! The searcher runs on a thread of its own without limits while this thread writes the
//! newest completed iteration every interval and watches the input. Alpha-beta has no
//! visit counts: `visits` is the nodes searched so far (the same for every move). The
//! win rate is the proven result when there is one (1, 0.5, 0), otherwise a logistic of
//! the evaluation in discs ([`WINRATE_SCALE_DISCS`]) so that front ends have a number to
//! colour by; `kata-analyze` adds `scoreLead`, the evaluation (or the exact final
//! difference) in discs. Moves after the first have upper bounds for scores (the search
//! showed only that they are no better).

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::gtp::analysis::{Dialect, Request, Stream, Streamed, request};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::othello::gtp::state::{OthelloState, REG_GENMOVE_NODES, format_move};
use crate::othello::{Limits, Move, Outcome, SearchInfo};

pub const COMMANDS: &[Command<OthelloState>] = &[
    command("analyze", |s, a| snapshot(s, a, Dialect::Sabaki)),
    command("lz-analyze", |s, a| snapshot(s, a, Dialect::Leela)),
    command("kata-analyze", |s, a| snapshot(s, a, Dialect::Kata)),
];

/// An evaluation this many discs ahead shows as a win rate of 1 / (1 + e^-1), 73%.
pub const WINRATE_SCALE_DISCS: f64 = 10.0;

/// How often the input and the searcher's reports are looked at.
const POLL: Duration = Duration::from_millis(20);

/// The win rate of a score (hundredths of a disc) for the side analysed.
fn winrate(score: i32, outcome: Option<Outcome>) -> f64 {
    match outcome {
        Some(Outcome::Win) => 1.0,
        Some(Outcome::Draw) => 0.5,
        Some(Outcome::Loss) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(score) / 100.0 / WINRATE_SCALE_DISCS).exp()),
    }
}

/// The `info` groups of one iteration, on one line.
fn format_info(info: &SearchInfo, dialect: Dialect) -> String {
    let value = |x: f64| dialect.value(x);
    let moves: Vec<(Move, i32)> = if info.moves.is_empty() {
        vec![(info.best(), info.score)]
    } else {
        info.moves.clone()
    };
    moves
        .iter()
        .enumerate()
        .map(|(order, &(mv, score))| {
            // Only the best move's score is exact, so only it carries the proven result.
            let outcome = if order == 0 { info.outcome } else { None };
            let w = value(winrate(score, outcome));
            let pv: Vec<String> = if order == 0 && !info.pv.is_empty() {
                info.pv.iter().map(|&m| format_move(m)).collect()
            } else {
                vec![format_move(mv)]
            };
            let lead = match dialect {
                Dialect::Kata => format!(" scoreLead {:.2}", f64::from(score) / 100.0),
                Dialect::Leela | Dialect::Sabaki => String::new(),
            };
            format!(
                "info move {} visits {} winrate {w} prior 0 lcb {w} order {order}{lead} pv {}",
                format_move(mv),
                info.nodes.max(1),
                pv.join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Refuses what only Go's analysis does: keeping moves out of the search (the other keys
/// are taken; the searcher's lines are what they are).
fn go_only(request: &Request) -> Result<(), GtpError> {
    if request.restrictions.is_empty() {
        Ok(())
    } else {
        Err(GtpError::BadArgument(
            "bad analysis argument: avoid and allow are Go's".into(),
        ))
    }
}

/// Runs an analysis command to completion: `=id`, reports every interval, then the empty
/// line once the stream says new input is waiting (or GoGui interrupts).
///
/// # Errors
/// Writing the stream failed (the search is stopped first).
pub fn stream(s: &mut OthelloState, mut stream: Stream<'_>) -> Streamed {
    let request = match stream.open(s.to_move(), go_only)? {
        Ok((r, ())) => r,
        Err(error) => return Ok(Err(error)),
    };
    let (dialect, stop) = (stream.dialect, stream.stop);
    let board = s.board().clone();
    let interrupt = s.interrupt_flag();
    let halt = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<SearchInfo>();
    let searcher = s.searcher_mut();
    let color = request.color;
    let interval = request.interval;
    thread::scope(|scope| {
        let halt = &halt;
        let worker = scope.spawn(move || {
            searcher.choose(&board, color, &Limits::default(), halt, &mut |info| {
                let _ = tx.send(info.clone());
            })
        });
        let mut latest = None;
        let written = report_until_stopped(&rx, &mut latest, interval, &mut stream, &|| {
            stop() || interrupt.load(Ordering::Relaxed)
        });
        // Whatever happened to the output, the searcher has no other limit.
        halt.store(true, Ordering::SeqCst);
        let last = worker.join().ok();
        written?;
        stream.close(last.or(latest).map(|info| format_info(&info, dialect)))?;
        Ok(Ok(()))
    })
}

/// Writes the newest report every `interval` (never with interval 0) until `stop`.
fn report_until_stopped(
    reports: &mpsc::Receiver<SearchInfo>,
    latest: &mut Option<SearchInfo>,
    interval: Duration,
    stream: &mut Stream<'_>,
    stop: &dyn Fn() -> bool,
) -> io::Result<()> {
    let mut next_report = Instant::now() + interval;
    while !stop() {
        match reports.recv_timeout(POLL) {
            Ok(info) => *latest = Some(info),
            Err(RecvTimeoutError::Timeout) => {}
            // The search has finished (a proven result); the analysis goes on showing it.
            Err(RecvTimeoutError::Disconnected) => thread::sleep(POLL),
        }
        if !interval.is_zero() && Instant::now() >= next_report {
            if let Some(info) = latest.as_ref() {
                stream.report(&format_info(info, stream.dialect))?;
            }
            next_report = Instant::now() + interval;
        }
    }
    Ok(())
}

/// Without a stream (an in-process caller), an analysis command searches a fixed number
/// of nodes and answers one report.
fn snapshot(s: &mut OthelloState, args: &[String], dialect: Dialect) -> Reply {
    let request = request(s.to_move(), args, dialect)?;
    go_only(&request)?;
    let board = s.board().clone();
    let never = AtomicBool::new(false);
    let info = s.search(
        &board,
        request.color,
        &Limits::nodes(REG_GENMOVE_NODES),
        &never,
        &mut |_| {},
    );
    Ok(format_info(&info, dialect))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_rates_follow_the_score_and_the_proof() {
        assert_eq!(winrate(0, None), 0.5);
        assert!(winrate(1000, None) > 0.7 && winrate(-1000, None) < 0.3);
        assert_eq!(winrate(-500, Some(Outcome::Win)), 1.0);
        assert_eq!(winrate(0, Some(Outcome::Draw)), 0.5);
    }
}
