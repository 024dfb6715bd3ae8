//! Live analysis for Sabaki and Lizzie-style front ends: `lz-analyze`, `kata-analyze` and
//! Sabaki's own `analyze`.
//!
//! `lz-analyze [COLOUR] [INTERVAL] [interval N] [other KEY VALUE pairs, ignored]` answers `=`
//! at once, then every INTERVAL centiseconds one line of `info` groups, one per root move:
//! `info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 ...`, and ends
//! with the usual empty line as soon as any new input arrives. Win rates are for the side
//! analysed: ten-thousandths for `lz-analyze` and `analyze` (which Sabaki reads as integers),
//! fractions for `kata-analyze`. The search is the engine's tree search, run without limit
//! until stopped.

use std::io::{self, Write};
use std::time::Duration;

use crate::color::Color;
use crate::gtp::engine::{Engine, Handler, Reply, errors::SYNTAX_ERROR};
use crate::gtp::parse;
use crate::search::{Analysis, AnalysisLine};

pub const COMMANDS: &[(&str, Handler)] = &[
    ("analyze", |e, a| snapshot(e, a, Dialect::Integer)),
    ("lz-analyze", |e, a| snapshot(e, a, Dialect::Integer)),
    ("kata-analyze", |e, a| snapshot(e, a, Dialect::Float)),
];

/// How win rates are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Ten-thousandths (Leela Zero; Sabaki's `analyze`).
    Integer,
    /// Fractions (KataGo).
    Float,
}

/// The dialect of an analysis command, or `None` for any other command.
pub fn dialect(name: &str) -> Option<Dialect> {
    match name {
        "analyze" | "lz-analyze" => Some(Dialect::Integer),
        "kata-analyze" => Some(Dialect::Float),
        _ => None,
    }
}

/// Parsed arguments: the colour to analyse and the report interval.
struct Request {
    color: Color,
    interval: Duration,
}

/// Default report interval when none is given (Sabaki sends 50 centiseconds).
const DEFAULT_INTERVAL_CS: u32 = 100;

fn request(e: &Engine, args: &[String]) -> Result<Request, String> {
    let mut rest = args;
    let mut color = e.game.to_move();
    if let Some(first) = rest.first()
        && let Ok(c) = parse::parse_color(first)
    {
        color = c;
        rest = &rest[1..];
    }
    let mut interval = DEFAULT_INTERVAL_CS;
    if let Some(first) = rest.first()
        && let Ok(n) = parse::parse_int(first)
    {
        interval = n;
        rest = &rest[1..];
    }
    // Key-value pairs: `interval` is understood, the others (minmoves, avoid, ownership...)
    // are accepted and ignored.
    if !rest.len().is_multiple_of(2) {
        return Err(SYNTAX_ERROR.into());
    }
    for pair in rest.chunks(2) {
        if pair[0] == "interval" {
            interval = parse::parse_int(&pair[1]).map_err(|_| SYNTAX_ERROR.to_string())?;
        }
    }
    Ok(Request {
        color,
        interval: Duration::from_millis(10 * interval as u64),
    })
}

/// The `info` groups of one report, on one line.
pub fn format_lines(e: &Engine, lines: &[AnalysisLine], dialect: Dialect) -> String {
    let geo = e.geo();
    let value = |x: f64| match dialect {
        Dialect::Integer => format!("{}", (x.clamp(0.0, 1.0) * 10000.0).round() as i64),
        Dialect::Float => format!("{:.6}", x.clamp(0.0, 1.0)),
    };
    lines
        .iter()
        .enumerate()
        .map(|(order, l)| {
            // A normal-approximation lower bound on the win rate, for front ends that sort
            // by it.
            let lcb =
                l.winrate - 2.0 * (l.winrate * (1.0 - l.winrate) / l.visits.max(1) as f64).sqrt();
            let pv: Vec<String> = l.pv.iter().map(|&m| geo.format_move(m)).collect();
            format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                geo.format_move(l.mv),
                l.visits,
                value(l.winrate),
                value(l.prior),
                value(lcb),
                pv.join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs an analysis command to completion on `out`: `=id`, reports every interval, then the
/// empty line once `stop` says new input is waiting.
///
/// # Errors
/// Writing to `out` failed.
pub fn stream(
    e: &mut Engine,
    id: Option<&str>,
    args: &[String],
    dialect: Dialect,
    out: &mut dyn Write,
    stop: &dyn Fn() -> bool,
) -> io::Result<Result<(), String>> {
    let request = match request(e, args) {
        Ok(r) => r,
        Err(message) => return Ok(Err(message)),
    };
    writeln!(out, "={}", id.unwrap_or(""))?;
    out.flush()?;
    let seed = e.rng.next_u64();
    let interrupt = e.interrupt_flag();
    let stop_now = || stop() || interrupt.load(std::sync::atomic::Ordering::Relaxed);
    let mut analysis = Analysis::new(&e.game, request.color, seed, &e.search.tunables);
    // With interval 0 nothing is reported until the end.
    let slice = if request.interval.is_zero() {
        Duration::from_millis(100)
    } else {
        request.interval
    };
    while !stop_now() {
        analysis.run_for(slice, &stop_now);
        if !request.interval.is_zero() && !stop_now() {
            let lines = analysis.lines();
            if !lines.is_empty() {
                writeln!(out, "{}", format_lines(e, &lines, dialect))?;
                out.flush()?;
            }
        }
    }
    let lines = analysis.lines();
    if !lines.is_empty() {
        writeln!(out, "{}", format_lines(e, &lines, dialect))?;
    }
    out.write_all(b"\n")?;
    out.flush()?;
    log::info!("analysis stopped after {} playouts", analysis.playouts);
    Ok(Ok(()))
}

/// Without a stream to write to (an in-process caller), an analysis command runs the
/// engine's usual number of simulations and answers one report.
fn snapshot(e: &mut Engine, args: &[String], dialect: Dialect) -> Reply {
    let request = request(e, args)?;
    let seed = e.rng.next_u64();
    let mut analysis = Analysis::new(&e.game, request.color, seed, &e.search.tunables);
    analysis.run_playouts(e.search.playouts, &|| false);
    let lines = analysis.lines();
    Ok(format_lines(e, &lines, dialect))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::Config;

    #[test]
    fn reports_moves_with_pvs_and_stops_on_input() {
        let mut e = Engine::new(Config {
            size: 9,
            ..Config::default()
        });
        let mut out = Vec::new();
        let calls = std::cell::Cell::new(0);
        let stop = || {
            calls.set(calls.get() + 1);
            calls.get() > 200
        };
        let args: Vec<String> = ["b", "5"].iter().map(|s| s.to_string()).collect();
        let r = stream(&mut e, Some("3"), &args, Dialect::Integer, &mut out, &stop).unwrap();
        assert_eq!(r, Ok(()));
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("=3\ninfo move "), "{text}");
        assert!(text.ends_with("\n\n"));
        assert!(
            !text[..text.len() - 2].contains("\n\n"),
            "no empty line inside"
        );
        let first = text.lines().nth(1).unwrap();
        assert!(
            first.contains(" visits ") && first.contains(" winrate ") && first.contains(" pv ")
        );
    }

    #[test]
    fn bad_arguments_are_a_syntax_error() {
        let e = Engine::new(Config {
            size: 9,
            ..Config::default()
        });
        let args: Vec<String> = ["b", "50", "interval"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(request(&e, &args).is_err());
    }
}
