//! Analysis commands: the heuristics' move and why (`shicho-explain`), a tree search shown
//! as GoGui graphics (`shicho-search`), and live analysis for Sabaki and Lizzie-style front
//! ends (`lz-analyze`, `kata-analyze` and Sabaki's own `analyze`).
//!
//! `lz-analyze [COLOUR] [INTERVAL] [interval N] [other KEY VALUE pairs, ignored]` answers `=`
//! at once, then every INTERVAL centiseconds one line of `info` groups, one per root move:
//! `info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 ...`, and ends
//! with the usual empty line as soon as any new input arrives. Win rates are for the side
//! analysed: ten-thousandths for `lz-analyze` and `analyze` (which Sabaki reads as integers),
//! fractions for `kata-analyze`. The search is the engine's tree search, run without limit
//! until stopped ([`stream`]); called in process without a stream, the commands run the
//! engine's usual number of simulations and answer one report.

use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::color::Color;
use crate::go::gtp::state::State;
use crate::go::point::Move;
use crate::go::search::heuristic::{self, Reason};
use crate::go::search::{self, Analysis, AnalysisLine, Decision};
use crate::gtp::analysis::{Dialect, Stream, Streamed, request};
use crate::gtp::args::{arity, color};
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::rng::Rng;

pub const COMMANDS: &[Command<State>] = &[
    command("shicho-explain", explain),
    command("shicho-search", shicho_search),
    command("analyze", |s, a| snapshot(s, a, Dialect::Integer)),
    command("lz-analyze", |s, a| snapshot(s, a, Dialect::Integer)),
    command("kata-analyze", |s, a| snapshot(s, a, Dialect::Float)),
];

/// The engine's move for `c` (the genmove choice) and the reason, as GoGui graphics.
fn explain(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    let choice = heuristic::choose(s.game(), c, &mut Rng::new(heuristic::REG_GENMOVE_SEED));
    let reason = match choice.reason {
        Reason::Capture => "capture a chain in atari",
        Reason::Save => "save a chain in atari",
        Reason::Attack => "attack: the atari works (ladder or net)",
        Reason::Defend => "defend a chain that could be captured",
        Reason::Shape => "shape and territory",
        Reason::Pass => "nothing useful left: pass",
    };
    let mv = s.geo().format_move(choice.mv);
    Ok(match choice.mv {
        Move::Play(_) => format!("TRIANGLE {mv}\nTEXT {} {mv}: {reason}", color_name(c)),
        Move::Pass => format!("TEXT {} passes: {reason}", color_name(c)),
    })
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `shicho-search C`: a tree search for `c` (deterministic seed, the engine's playouts) shown
/// as GoGui graphics: win rates (percent) on the most visited moves, the principal
/// variation, and a summary line.
fn shicho_search(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color(&args[0])?;
    let interrupt = s.interrupt_flag();
    let r = search::search(
        s.game(),
        c,
        s.params(),
        heuristic::REG_GENMOVE_SEED,
        &interrupt,
    );
    let geo = s.geo();
    let labels: Vec<String> = r
        .candidates
        .iter()
        .filter(|k| k.visits > 0 && k.mv != Move::Pass)
        .take(10)
        .map(|k| format!("{} {:.0}", geo.format_move(k.mv), k.winrate * 100.0))
        .collect();
    let mut colour = c;
    let mut var = Vec::new();
    for &m in &r.pv {
        var.push(format!(
            "{} {}",
            colour.letter().to_ascii_lowercase(),
            geo.format_move(m)
        ));
        colour = colour.other();
    }
    let mut out = Vec::new();
    if !labels.is_empty() {
        out.push(format!("LABEL {}", labels.join(" ")));
    }
    if !var.is_empty() {
        out.push(format!("VAR {}", var.join(" ")));
    }
    let best = match r.decision {
        Decision::Resign => "resign".to_string(),
        Decision::Play(m) => geo.format_move(m),
    };
    out.push(format!(
        "TEXT {} playouts in {:.2}s: {} {best} wins {:.1}%",
        r.playouts,
        r.elapsed.as_secs_f64(),
        color_name(c),
        r.winrate * 100.0
    ));
    Ok(out.join("\n"))
}

/// The `info` groups of one report, on one line.
fn format_lines(s: &State, lines: &[AnalysisLine], dialect: Dialect) -> String {
    let geo = s.geo();
    let value = |x: f64| dialect.value(x);
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

/// Runs an analysis command to completion: `=id`, reports every interval, then the empty
/// line once the stream says new input is waiting.
///
/// # Errors
/// Writing the stream failed.
pub fn stream(s: &mut State, mut stream: Stream<'_>) -> Streamed {
    let request = match stream.open(s.game().to_move())? {
        Ok(r) => r,
        Err(error) => return Ok(Err(error)),
    };
    let (dialect, stop) = (stream.dialect, stream.stop);
    let seed = s.next_seed();
    let interrupt = s.interrupt_flag();
    let stop_now = || stop() || interrupt.load(Ordering::Relaxed);
    let mut analysis = Analysis::new(s.game(), request.color, seed, s.params());
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
                stream.report(&format_lines(s, &lines, dialect))?;
            }
        }
    }
    let lines = analysis.lines();
    let last = (!lines.is_empty()).then(|| format_lines(s, &lines, dialect));
    stream.close(last)?;
    log::info!("analysis stopped after {} playouts", analysis.playouts);
    Ok(Ok(()))
}

/// Without a stream to write to (an in-process caller), an analysis command runs the
/// engine's usual number of simulations and answers one report.
fn snapshot(s: &mut State, args: &[String], dialect: Dialect) -> Reply {
    let request = request(s.game().to_move(), args)?;
    let seed = s.next_seed();
    let mut analysis = Analysis::new(s.game(), request.color, seed, s.params());
    analysis.run_playouts(s.params().playout_limit(), &|| false);
    let lines = analysis.lines();
    Ok(format_lines(s, &lines, dialect))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::gtp::GO;
    use crate::go::gtp::state::Config;

    fn state() -> State {
        State::with_interrupt(
            &Config {
                size: 9,
                ..Config::default()
            },
            &GO,
            std::sync::Arc::default(),
        )
    }

    #[test]
    fn reports_moves_with_pvs_and_stops_on_input() {
        let mut s = state();
        let mut out = Vec::new();
        let calls = std::cell::Cell::new(0);
        let stop = || {
            calls.set(calls.get() + 1);
            calls.get() > 200
        };
        let args: Vec<String> = ["b", "5"].iter().map(|s| s.to_string()).collect();
        let r = stream(
            &mut s,
            Stream {
                id: Some("3"),
                args: &args,
                dialect: Dialect::Integer,
                out: &mut out,
                stop: &stop,
            },
        )
        .unwrap();
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
        let s = state();
        let args: Vec<String> = ["b", "50", "interval"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(request(s.game().to_move(), &args).is_err());
    }
}
