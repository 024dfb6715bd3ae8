//! The judge engine: a GTP engine with live analysis (`kata-analyze`, else `lz-analyze`)
//! told a game and asked about every position of it.
//!
//! Each position is analysed until the judge's report counts `visits` visits or `time` has
//! passed, then the analysis is stopped and the last report taken. Whose win rate the judge
//! reports (KataGo's `reportAnalysisWinratesAs` may make it Black's or White's rather than
//! the side to move's) is learnt once per engine from two positions at a komi larger than
//! the board, which White wins whatever is played; every value is then turned into Black's.

use std::time::Duration;

use shicho::{Color, Geometry, Rules};

use crate::engine_process::{EngineError, EngineProcess, SharedLog, Slot};
use crate::game::go::rules_command;
use crate::judge::config::JudgeConfig;
use crate::judge::info::{Dialect, Report, parse_report};

/// Analysis reports every this many centiseconds.
const INTERVAL_CS: u32 = 10;

/// Whose win rates the judge reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Perspective {
    SideToMove,
    Black,
    White,
}

/// A game to judge: the position before the first move, and the moves.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedGame {
    pub size: usize,
    pub rules: Rules,
    pub komi: f64,
    /// Black stones on the empty board (the handicap), as (column, row from the bottom).
    pub handicap: Vec<(usize, usize)>,
    /// The moves: colour and point (column, row from the bottom), `None` for a pass.
    pub moves: Vec<(Color, Option<(usize, usize)>)>,
}

/// The judge's view of one position, as Black's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Black's win rate, 0..1.
    pub black: f64,
    /// Black's score lead, when the judge gives one.
    pub black_lead: Option<f64>,
    pub visits: u64,
}

/// A judge engine, started on first use and again after a failure.
pub struct Judge {
    slot: Slot,
    cfg: JudgeConfig,
    answer_timeout: Duration,
    perspective: Option<Perspective>,
}

impl Judge {
    pub fn new(cfg: JudgeConfig, log: SharedLog, answer_timeout: Duration) -> Judge {
        Judge {
            slot: Slot::new("J", cfg.argv.clone(), log),
            cfg,
            answer_timeout,
            perspective: None,
        }
    }

    /// Black's win rate in every position of `game`: before the first move and after each
    /// move (`moves + 1` values).
    ///
    /// # Errors
    /// A message saying what the judge did wrong (cannot start, lists no analysis command,
    /// refused a legal move, reported nothing in time, died); the judge is restarted for the
    /// next game if it died.
    pub fn evaluate(&mut self, game: &JudgedGame) -> Result<Vec<Evaluation>, String> {
        let geo = Geometry::get(game.size, game.rules.topology).map_err(|e| e.to_string())?;
        let timeout = self.answer_timeout;
        let engine = self
            .slot
            .get(timeout)
            .map_err(|e| format!("cannot start: {e}"))?;
        let dialect = if engine.knows("kata-analyze") {
            Dialect::KataGo
        } else if engine.knows("lz-analyze") {
            Dialect::LeelaZero
        } else {
            return Err("lists neither kata-analyze nor lz-analyze".to_string());
        };
        let perspective = match self.perspective {
            Some(p) => p,
            None => {
                let p = probe(engine, dialect, game.size, geo, &self.cfg, timeout)?;
                self.perspective = Some(p);
                p
            }
        };
        let cmd = |engine: &mut EngineProcess, command: &str| {
            engine
                .send(command, timeout)
                .map_err(|e| format!("{e} to '{command}'"))
        };
        if let Some(rules) = rules_command(game.rules, |c| engine.knows(c))
            && let Err(EngineError::Refused(_)) = engine.send(&rules, timeout)
        {
            log::warn!("the judge refused `{rules}`; it judges by its own rules");
        }
        cmd(engine, &format!("boardsize {}", game.size))?;
        cmd(engine, "clear_board")?;
        cmd(engine, &format!("komi {}", game.komi))?;
        let vertex = |p: Option<(usize, usize)>| match p.and_then(|(x, y)| geo.point(x, y)) {
            Some(p) => geo.format_point(p),
            None => "pass".to_string(),
        };
        if !game.handicap.is_empty() {
            let stones: Vec<String> = game.handicap.iter().map(|&p| vertex(Some(p))).collect();
            if engine.knows("set_free_handicap") {
                cmd(engine, &format!("set_free_handicap {}", stones.join(" ")))?;
            } else {
                for v in &stones {
                    cmd(engine, &format!("play black {v}"))?;
                }
            }
        }
        let mut to_move = match game.moves.first() {
            Some(&(c, _)) => c,
            None if game.handicap.is_empty() => Color::Black,
            None => Color::White,
        };
        let mut out = Vec::with_capacity(game.moves.len() + 1);
        for i in 0..=game.moves.len() {
            let report = analyze(engine, dialect, to_move, &self.cfg, timeout)
                .map_err(|e| format!("position {i}: {e}"))?;
            out.push(black_view(report, perspective, to_move));
            if let Some(&(c, p)) = game.moves.get(i) {
                cmd(engine, &format!("play {} {}", c.name(), vertex(p)))?;
                to_move = c.other();
            }
        }
        Ok(out)
    }
}

/// One analysis of the position on the judge's board, for `to_move`.
fn analyze(
    engine: &mut EngineProcess,
    dialect: Dialect,
    to_move: Color,
    cfg: &JudgeConfig,
    timeout: Duration,
) -> Result<Report, String> {
    let command = format!("{} {} {INTERVAL_CS}", dialect.command(), to_move.letter());
    let mut last = None;
    engine
        .analyze(&command, cfg.time, timeout, |line| {
            match parse_report(line, dialect) {
                Some(r) => {
                    last = Some(r);
                    r.visits >= cfg.visits
                }
                None => false,
            }
        })
        .map_err(|e| format!("{e} to '{command}'"))?;
    last.ok_or_else(|| {
        format!(
            "no analysis report within {:.0} s of '{command}'",
            cfg.time.as_secs_f64()
        )
    })
}

/// The report as Black's view.
fn black_view(r: Report, perspective: Perspective, to_move: Color) -> Evaluation {
    let black_is_reported = match perspective {
        Perspective::Black => true,
        Perspective::White => false,
        Perspective::SideToMove => to_move == Color::Black,
    };
    Evaluation {
        black: if black_is_reported {
            r.winrate
        } else {
            1.0 - r.winrate
        },
        black_lead: r.score_lead.map(|l| if black_is_reported { l } else { -l }),
        visits: r.visits,
    }
}

/// Whose win rates the judge reports: it analyses the empty board with Black to move, and
/// the board after Black's first move with White to move, at a komi larger than the board
/// (White wins whatever is played).
fn probe(
    engine: &mut EngineProcess,
    dialect: Dialect,
    size: usize,
    geo: &Geometry,
    cfg: &JudgeConfig,
    timeout: Duration,
) -> Result<Perspective, String> {
    let komi = (size * size) as f64 + 0.5;
    let short = JudgeConfig {
        visits: cfg.visits.min(16),
        ..cfg.clone()
    };
    let send = |engine: &mut EngineProcess, command: &str| {
        engine
            .send(command, timeout)
            .map(|_| ())
            .map_err(|e| format!("{e} to '{command}' (while learning whose win rates it reports)"))
    };
    send(engine, &format!("boardsize {size}"))?;
    send(engine, "clear_board")?;
    send(engine, &format!("komi {komi}"))?;
    let empty = analyze(engine, dialect, Color::Black, &short, timeout)?.winrate;
    let centre = geo
        .point(size / 2, size / 2)
        .map_or_else(|| "pass".to_string(), |p| geo.format_point(p));
    send(engine, &format!("play black {centre}"))?;
    let after = analyze(engine, dialect, Color::White, &short, timeout)?.winrate;
    let (low, high) = (0.3, 0.7);
    let p = if empty < low && after > high {
        Perspective::SideToMove
    } else if empty < low && after < low {
        Perspective::Black
    } else if empty > high && after > high {
        Perspective::White
    } else {
        return Err(format!(
            "its win rates at komi {komi} (Black to move {empty:.2}, White to move \
             {after:.2}) do not show whose they are"
        ));
    };
    log::info!("the judge reports win rates as {p:?}");
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_turn_into_black_views() {
        let r = Report {
            winrate: 0.7,
            score_lead: Some(3.0),
            visits: 5,
        };
        let v = black_view(r, Perspective::SideToMove, Color::White);
        assert!((v.black - 0.3).abs() < 1e-12);
        assert_eq!(v.black_lead, Some(-3.0));
        assert_eq!(black_view(r, Perspective::Black, Color::White).black, 0.7);
        assert!((black_view(r, Perspective::White, Color::Black).black - 0.3).abs() < 1e-12);
    }
}
