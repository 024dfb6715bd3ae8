//! Analysis commands: the heuristics' move and why (`shicho-explain`), a tree search shown
//! as GoGui graphics (`shicho-search`), live analysis for Sabaki, Lizzie and KataGo's front
//! ends (`lz-analyze`, `kata-analyze` and Sabaki's own `analyze`), genmove reporting as it
//! searches (`lz-genmove_analyze`, `kata-genmove_analyze`, `genmove_analyze`), and the
//! network's raw outputs (`kata-raw-nn`).
//!
//! `lz-analyze [COLOUR] [INTERVAL] [KEY VALUE ...]` answers `=` at once, then every INTERVAL
//! centiseconds one line of `info` groups, one per root move:
//! `info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 ...`, and ends
//! with the usual empty line as soon as any new input arrives. Win rates, scores and owners
//! are for the side analysed: ten-thousandths for `lz-analyze` and `analyze` (which Sabaki
//! reads as integers; `analyze` adds the scores), fractions for `kata-analyze`, which adds
//! `scoreMean`, `scoreStdev` and `scoreLead` to each group and, when asked, each move's
//! `movesOwnership`, the root's `rootInfo` and the board's `ownership`, as KataGo's
//! `GTP_Extensions.md` lays them out (`search::analysis` says where the numbers come from).
//! The keys are KataGo's (`gtp::analysis::request`); `avoid` and `allow` keep moves out of
//! the tree. The search is the engine's tree search, run without limit until stopped
//! ([`stream`]); called in process without a stream, the commands run the engine's usual
//! number of simulations and answer one report.
//!
//! The genmove variants run genmove itself, its reports written while it searches, and end
//! with `play MOVE` (`pass`, `resign`): the move genmove would have played, since watching
//! changes nothing the search draws or decides (unless moves are avoided).

use std::io;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::color::Color;
use crate::go::geometry::Geometry;
use crate::go::gtp::state::State;
use crate::go::network::model::Evaluation;
use crate::go::network::symmetry::SYMMETRIES;
use crate::go::point::Move;
use crate::go::search::heuristic::{self, Reason};
use crate::go::search::{
    self, Analysis, AnalysisLine, AnalysisOptions, AvoidMoves, Decision, Report, Watch,
};
use crate::gtp::analysis::{Dialect, Kind, Request, Stream, Streamed, request};
use crate::gtp::args::{arity, color};
use crate::gtp::error::GtpError;
use crate::gtp::parse;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command, command_if};
use crate::rng::Rng;

pub const COMMANDS: &[Command<State>] = &[
    command("shicho-explain", explain),
    command("shicho-search", shicho_search),
    command("analyze", |s, a| snapshot(s, a, Dialect::Sabaki)),
    command("lz-analyze", |s, a| snapshot(s, a, Dialect::Leela)),
    command("kata-analyze", |s, a| snapshot(s, a, Dialect::Kata)),
    command("genmove_analyze", |s, a| {
        genmove_once(s, a, Dialect::Sabaki)
    }),
    command("lz-genmove_analyze", |s, a| {
        genmove_once(s, a, Dialect::Leela)
    }),
    command("kata-genmove_analyze", |s, a| {
        genmove_once(s, a, Dialect::Kata)
    }),
    command("clear_cache", |s, a| {
        arity(a, 0)?;
        s.clear_cache();
        Ok(String::new())
    }),
    // Offered with a network only: without one it could not work.
    command_if("kata-raw-nn", raw_nn, |s| s.params().network.is_some()),
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

/// A number with `places` decimals, never `-0.000`.
fn decimal(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    match text.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => digits.to_string(),
        _ => text,
    }
}

/// A value per point (point order), top row first as KataGo writes boards.
fn board_values(geo: &Geometry, values: &[f64]) -> String {
    let n = geo.size();
    let mut out = Vec::with_capacity(n * n);
    for y in (0..n).rev() {
        for x in 0..n {
            out.push(decimal(values[y * n + x], 4));
        }
    }
    out.join(" ")
}

/// The `info` groups of one report, on one line, then (KataGo's dialect) the root's
/// summary and the board's ownership as asked; `None` when there is no move to report.
fn format_report(
    geo: &Geometry,
    report: &Report,
    dialect: Dialect,
    request: &Request,
) -> Option<String> {
    if report.lines.is_empty() {
        return None;
    }
    let kata = dialect == Dialect::Kata;
    let value = |x: f64| dialect.value(x);
    let scores = |lead: f64, stdev: f64| {
        format!(
            " scoreMean {} scoreStdev {} scoreLead {}",
            decimal(lead, 3),
            decimal(stdev, 3),
            decimal(lead, 3)
        )
    };
    let mut out: Vec<String> = report
        .lines
        .iter()
        .enumerate()
        .map(|(order, l): (usize, &AnalysisLine)| {
            // A normal-approximation lower bound on the win rate, for front ends that sort
            // by it.
            let lcb =
                l.winrate - 2.0 * (l.winrate * (1.0 - l.winrate) / l.visits.max(1) as f64).sqrt();
            let pv: Vec<String> = l.pv.iter().map(|&m| geo.format_move(m)).collect();
            let mut group = format!(
                "info move {} visits {} winrate {}",
                geo.format_move(l.mv),
                l.visits,
                value(l.winrate)
            );
            if dialect.scores() {
                group += &scores(l.score.lead, l.score.stdev);
            }
            group += &format!(
                " prior {} lcb {} order {order} pv {}",
                value(l.prior),
                value(lcb),
                pv.join(" ")
            );
            if kata
                && request.moves_ownership
                && let Some(owners) = &l.ownership
            {
                group += &format!(" movesOwnership {}", board_values(geo, owners));
            }
            group
        })
        .collect();
    let root = &report.root;
    if kata && request.root_info {
        out.push(format!(
            "rootInfo visits {} winrate {}{}",
            root.visits,
            value(root.winrate),
            scores(root.score.lead, root.score.stdev)
        ));
    }
    if kata
        && request.ownership
        && let Some(owners) = &root.ownership
    {
        out.push(format!("ownership {}", board_values(geo, owners)));
    }
    Some(out.join(" "))
}

/// What the search is asked for: the request's vertices read on this board.
///
/// # Errors
/// A vertex of `avoid` or `allow` that is not one of this board (or `pass`).
fn options(s: &State, request: &Request) -> Result<AnalysisOptions, GtpError> {
    let geo = s.geo();
    let points = geo.num_points();
    let mut avoid = AvoidMoves::none();
    for r in &request.restrictions {
        let moves = r
            .vertices
            .iter()
            .map(|v| {
                geo.parse_move(v).map_err(|_| {
                    GtpError::BadArgument(format!(
                        "bad analysis argument: '{v}' is not a vertex of this board"
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if r.allow {
            avoid.allow_only(r.color, &moves, r.until, points);
        } else {
            avoid.avoid(r.color, &moves, r.until, points);
        }
    }
    Ok(AnalysisOptions {
        ownership: request.ownership || request.moves_ownership,
        avoid,
        min_moves: request.min_moves,
        max_moves: request.max_moves,
        ..AnalysisOptions::new()
    })
}

/// The move of a genmove_analyze's last line, as KataGo writes it.
fn play_line(geo: &Geometry, decision: Decision) -> String {
    let mv = match decision {
        Decision::Resign => "resign".to_string(),
        Decision::Play(Move::Pass) => "pass".to_string(),
        Decision::Play(m) => geo.format_move(m),
    };
    format!("play {mv}")
}

/// Runs an analysis command to completion: `=id`, reports every interval, then the empty
/// line once the stream says new input is waiting (a genmove variant: once its move is
/// played, whatever input waits).
///
/// # Errors
/// Writing the stream failed.
pub fn stream(s: &mut State, mut stream: Stream<'_>) -> Streamed {
    let (request, options) = match stream.open(s.game().to_move(), |r| options(s, r))? {
        Ok(r) => r,
        Err(error) => return Ok(Err(error)),
    };
    match stream.kind {
        Kind::Analyze => analyze(s, stream, &request, &options)?,
        Kind::Genmove => genmove(s, stream, &request, &options)?,
    }
    Ok(Ok(()))
}

/// Live analysis until new input (or GoGui's interrupt).
fn analyze(
    s: &mut State,
    mut stream: Stream<'_>,
    request: &Request,
    options: &AnalysisOptions,
) -> io::Result<()> {
    let (dialect, stop) = (stream.dialect, stream.stop);
    let seed = s.next_seed();
    let interrupt = s.interrupt_flag();
    let stop_now = || stop() || interrupt.load(Ordering::Relaxed);
    let geo = s.geo();
    let params = s.analysis_params();
    let mut analysis = Analysis::new(
        s.game(),
        request.color,
        seed,
        &params,
        options,
        s.tree_nodes(),
    );
    // With interval 0 nothing is reported until the end.
    let slice = if request.interval.is_zero() {
        Duration::from_millis(100)
    } else {
        request.interval
    };
    while !stop_now() {
        analysis.run_for(slice, &stop_now);
        if !request.interval.is_zero()
            && !stop_now()
            && let Some(line) = format_report(geo, &analysis.report(), dialect, request)
        {
            stream.report(&line)?;
        }
    }
    let last = format_report(geo, &analysis.report(), dialect, request);
    stream.close(last)?;
    log::info!("analysis stopped after {} playouts", analysis.playouts);
    Ok(())
}

/// genmove with its search's reports, then `play MOVE`.
fn genmove(
    s: &mut State,
    mut stream: Stream<'_>,
    request: &Request,
    options: &AnalysisOptions,
) -> io::Result<()> {
    let (dialect, geo) = (stream.dialect, s.geo());
    let mut failed = None;
    let mut write = |report: &Report| {
        if failed.is_none()
            && let Some(line) = format_report(geo, report, dialect, request)
            && let Err(e) = stream.report(&line)
        {
            failed = Some(e);
        }
    };
    let watch = Watch {
        options,
        interval: request.interval,
        report: &mut write,
    };
    let decision = s.genmove_watched(request.color, false, Some(watch));
    if let Some(e) = failed {
        return Err(e);
    }
    stream.close(Some(play_line(geo, decision)))
}

/// Without a stream to write to (an in-process caller), an analysis command runs the
/// engine's usual number of simulations and answers one report.
fn snapshot(s: &mut State, args: &[String], dialect: Dialect) -> Reply {
    let request = request(s.game().to_move(), args, dialect)?;
    let options = options(s, &request)?;
    let seed = s.next_seed();
    let params = s.analysis_params();
    let mut analysis = Analysis::new(
        s.game(),
        request.color,
        seed,
        &params,
        &options,
        s.tree_nodes(),
    );
    analysis.run_playouts(params.playout_limit(), &|| false);
    let report = analysis.report();
    Ok(format_report(s.geo(), &report, dialect, &request).unwrap_or_default())
}

/// A genmove variant without a stream (an in-process caller): the move played and its
/// search's last report.
fn genmove_once(s: &mut State, args: &[String], dialect: Dialect) -> Reply {
    let request = request(s.game().to_move(), args, dialect)?;
    let options = options(s, &request)?;
    let geo = s.geo();
    let mut last = None;
    let mut keep = |report: &Report| last = format_report(geo, report, dialect, &request);
    let watch = Watch {
        options: &options,
        interval: Duration::ZERO,
        report: &mut keep,
    };
    let decision = s.genmove_watched(request.color, false, Some(watch));
    let play = play_line(geo, decision);
    Ok(match last {
        Some(report) => format!("{report}\n{play}"),
        None => play,
    })
}

/// `kata-raw-nn [COLOUR] SYMMETRY [OPTIMISM]`: the network's outputs for the position with
/// COLOUR (default: the side to move) to play, in KataGo's layout, one block per symmetry
/// (`all`: the eight). What the network has: `whiteWin`, `whiteLoss`, `whiteLead`, the
/// `policy` (KataGo's `NAN` where the move is illegal, renormalised over the legal moves
/// and pass, as KataGo's is) and `policyPass`, `whiteOwnership`. What it has not:
/// `noResult` is 0, the short-term errors -1 (KataGo's mark for a net without those heads),
/// and `whiteScoreSelfplay`, `whiteScoreSelfplaySq` and `varTimeLeft` are left out.
/// OPTIMISM (0 to 1) is taken and changes nothing: the network has no such input.
fn raw_nn(s: &mut State, args: &[String]) -> Reply {
    let (c, rest) = match args.first().map(|a| parse::parse_color(a)) {
        Some(Ok(c)) => (c, &args[1..]),
        _ => (s.game().to_move(), args),
    };
    let [symmetry, optimism @ ..] = rest else {
        return Err(GtpError::Syntax);
    };
    let symmetries: Vec<usize> = match (symmetry.as_str(), parse::parse_int(symmetry)) {
        ("all", _) => (0..SYMMETRIES).collect(),
        (_, Ok(n)) if (n as usize) < SYMMETRIES => vec![n as usize],
        _ => {
            return Err(GtpError::BadArgument(format!(
                "symmetry must be 'all' or 0 to 7, not '{symmetry}'"
            )));
        }
    };
    match optimism {
        [] => {}
        [o] if parse::parse_float(o).is_ok_and(|o| (0.0..=1.0).contains(&o)) => {}
        [o] => {
            return Err(GtpError::BadArgument(format!(
                "optimism must be from 0 to 1, not '{o}'"
            )));
        }
        _ => return Err(GtpError::Syntax),
    }
    let network = s.params().network.clone().ok_or(GtpError::NoNetwork)?;
    let mut blocks = Vec::new();
    for sym in symmetries {
        let e = search::raw_evaluation(&network, s.game(), c, sym).ok_or(GtpError::NoNetwork)?;
        blocks.push(raw_block(s, c, sym, &e));
    }
    Ok(blocks.join("\n"))
}

/// One symmetry's block of `kata-raw-nn`.
fn raw_block(s: &State, c: Color, sym: usize, e: &Evaluation) -> String {
    let geo = s.geo();
    let n = geo.size();
    let points = geo.num_points();
    // The network's outputs are the side to move's; KataGo's are White's.
    let white = if c == Color::White { 1.0 } else { -1.0 };
    let white_win = if c == Color::White {
        e.win
    } else {
        1.0 - e.win
    };
    let legal = |i: usize| {
        i == points
            || s.game()
                .is_legal(c, Move::Play(crate::go::point::Point::from_index(i)))
    };
    let total: f32 = (0..=points)
        .filter(|&i| legal(i))
        .map(|i| e.policy[i])
        .sum();
    let policy = |i: usize| {
        if legal(i) {
            format!("{:8.6} ", e.policy[i] / total.max(f32::MIN_POSITIVE))
        } else {
            "    NAN ".to_string()
        }
    };
    let mut out = vec![
        format!("symmetry {sym}"),
        format!("whiteWin {white_win:.6}"),
        format!("whiteLoss {:.6}", 1.0 - white_win),
        "noResult 0.000000".to_string(),
        format!("whiteLead {:.3}", white * e.lead),
        "shorttermWinlossError -1.000".to_string(),
        "shorttermScoreError -1.000".to_string(),
        "policy".to_string(),
    ];
    for y in (0..n).rev() {
        out.push((0..n).map(|x| policy(y * n + x)).collect());
    }
    out.push(format!("policyPass {}", policy(points)));
    out.push("whiteOwnership".to_string());
    for y in (0..n).rev() {
        out.push(
            (0..n)
                .map(|x| format!("{:9.7} ", white * e.ownership[y * n + x]))
                .collect(),
        );
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::gtp::GO;
    use crate::go::gtp::state::Config;
    use crate::go::search::{Network, Params};

    fn state_with(network: Option<Network>) -> State {
        State::with_interrupt(
            &Config {
                size: 9,
                search: Params {
                    playouts: Some(300),
                    network,
                    ..Params::default()
                },
                ..Config::default()
            },
            &GO,
            std::sync::Arc::default(),
        )
    }

    fn state() -> State {
        state_with(None)
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    /// The command's whole streamed answer, stopped once `stop` has been asked `calls`
    /// times.
    fn streamed(s: &mut State, name: &str, args: &str, calls: usize) -> String {
        let (dialect, kind) = crate::gtp::analysis::analysis_command(name).unwrap();
        let mut out = Vec::new();
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > calls
        };
        let args = words(args);
        let r = stream(
            s,
            Stream {
                id: Some("3"),
                args: &args,
                dialect,
                kind,
                out: &mut out,
                stop: &stop,
            },
        )
        .unwrap();
        match r {
            Ok(()) => String::from_utf8(out).unwrap(),
            Err(e) => {
                assert!(out.is_empty(), "an error writes nothing");
                format!("? {e}")
            }
        }
    }

    #[test]
    fn reports_moves_with_pvs_and_stops_on_input() {
        let mut s = state();
        let text = streamed(&mut s, "lz-analyze", "b 5", 200);
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
        assert!(!first.contains("score"), "Leela Zero's lines have no score");
    }

    #[test]
    fn kata_reports_carry_scores_ownership_and_the_root() {
        for network in [None, Some(Network::builtin())] {
            let mut s = state_with(network.clone());
            let text = streamed(
                &mut s,
                "kata-analyze",
                "w 5 ownership true movesOwnership true rootInfo true minmoves 90",
                100,
            );
            let last = text.lines().rev().nth(1).unwrap();
            let tokens: Vec<&str> = last.split(' ').collect();
            let at = |key: &str| tokens.iter().position(|&t| t == key);
            let owners = at("ownership").expect("the ownership block");
            assert_eq!(tokens.len() - owners - 1, 81, "{:?}", network.is_some());
            for v in &tokens[owners + 1..] {
                let v: f64 = v.parse().unwrap();
                assert!((-1.0..=1.0).contains(&v), "{v}");
            }
            assert!(at("rootInfo").unwrap() < owners);
            let groups = last.matches("info move ").count();
            assert!(groups >= 81, "minmoves asks for every move: {groups}");
            assert_eq!(last.matches(" movesOwnership ").count(), groups);
            for key in ["prior", "lcb", "order"] {
                assert_eq!(last.matches(&format!(" {key} ")).count(), groups, "{key}");
            }
            // Each group's and the root's.
            for key in ["scoreMean", "scoreStdev", "scoreLead"] {
                assert_eq!(
                    last.matches(&format!(" {key} ")).count(),
                    groups + 1,
                    "{key}"
                );
            }
        }
    }

    #[test]
    fn avoided_moves_stay_out_of_the_root() {
        let mut s = state();
        let text = streamed(
            &mut s,
            "kata-analyze",
            "b 5 allow b E5,C3 1 minmoves 10",
            100,
        );
        let last = text.lines().rev().nth(1).unwrap();
        let mut moves: Vec<&str> = last
            .split("info move ")
            .skip(1)
            .map(|g| g.split(' ').next().unwrap())
            .collect();
        moves.sort();
        assert_eq!(moves, ["C3", "E5"], "{last}");
    }

    #[test]
    fn a_bad_argument_is_an_error_and_changes_nothing() {
        let mut s = state();
        for (args, error) in [
            ("b 50 interval", "? syntax error"),
            (
                "b 10 avoid b Z99 1",
                "? bad analysis argument: 'Z99' is not a vertex of this board",
            ),
            (
                "b 10 allow b J10 1",
                "? bad analysis argument: 'J10' is not a vertex of this board",
            ),
        ] {
            assert_eq!(streamed(&mut s, "kata-genmove_analyze", args, 0), error);
            assert_eq!(streamed(&mut s, "kata-analyze", args, 0), error);
        }
        assert_eq!(s.game().moves().count(), 0, "nothing played");
        // Nothing was drawn from the engine's generator either: the next genmove is a
        // fresh state's.
        let mut fresh = state();
        assert_eq!(
            s.genmove(Color::Black, false),
            fresh.genmove(Color::Black, false)
        );
    }

    #[test]
    fn genmove_analyze_plays_genmoves_move() {
        for network in [None, Some(Network::builtin())] {
            let mut plain = state_with(network.clone());
            let mut watched = state_with(network);
            for _ in 0..3 {
                let c = plain.game().to_move();
                let Decision::Play(m) = plain.genmove(c, false) else {
                    panic!("resigned")
                };
                let text = streamed(&mut watched, "kata-genmove_analyze", "1", 0);
                assert!(text.starts_with("=3\ninfo move "), "{text}");
                let play = format!("play {}", geo_move(plain.geo(), m));
                assert!(text.ends_with(&format!("\n{play}\n\n")), "{play}: {text}");
                assert_eq!(plain.game().board(), watched.game().board());
            }
        }
    }

    fn geo_move(geo: &Geometry, m: Move) -> String {
        match m {
            Move::Pass => "pass".into(),
            m => geo.format_move(m),
        }
    }

    #[test]
    fn raw_nn_shows_the_networks_outputs_from_whites_side() {
        let mut s = state_with(Some(Network::builtin()));
        s.play(Color::Black, s.geo().parse_move("E5").unwrap())
            .unwrap();
        let text = raw_nn(&mut s, &words("0")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "symmetry 0");
        let policy = lines.iter().position(|&l| l == "policy").unwrap();
        let rows = &lines[policy + 1..policy + 10];
        assert_eq!(
            rows[4].split_whitespace().nth(4),
            Some("NAN"),
            "E5 is taken"
        );
        let sum: f64 = rows
            .iter()
            .flat_map(|r| r.split_whitespace())
            .chain(lines[policy + 10].split_whitespace().skip(1))
            .filter_map(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .sum();
        assert!((sum - 1.0).abs() < 1e-3, "{sum}");
        let owners = lines.iter().position(|&l| l == "whiteOwnership").unwrap();
        let centre: f64 = lines[owners + 5]
            .split_whitespace()
            .nth(4)
            .unwrap()
            .parse()
            .unwrap();
        assert!(centre < -0.5, "Black's stone is Black's: {centre}");
        let all = raw_nn(&mut s, &words("w all 0.5")).unwrap();
        assert_eq!(all.matches("symmetry ").count(), 8);
        assert!(!all.contains("\n\n"));
        for bad in ["9", "b", "all 2", "0 0.5 1"] {
            assert!(raw_nn(&mut s, &words(bad)).is_err(), "{bad}");
        }
        let mut classic = state();
        assert_eq!(raw_nn(&mut classic, &words("0")), Err(GtpError::NoNetwork));
    }
}
