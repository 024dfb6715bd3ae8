//! Go's dead stones after two passes, in order of preference:
//! 1. both engines' `final_status_list dead`, if they agree (each list is widened to whole
//!    chains, so an engine naming one stone of a dead chain still agrees with one naming
//!    all of them);
//! 2. otherwise the `--referee` engine's list, after replaying the game into it;
//! 3. otherwise the game is played out: the engines continue with `kgs-genmove_cleanup`
//!    (plain `genmove` if they lack it) until two more passes, and every stone of the
//!    two-pass position that did not survive the play-out is dead. The two-pass position
//!    is then counted, so under territory scoring nobody loses points for filling their
//!    own territory while proving a group dead (KGS handles Japanese-rules bots the
//!    same way).
//!
//! An unusable list (a vertex off the board or on an empty point, text that is no vertex)
//! counts as no opinion rather than as a loss: the game itself was finished legally.

use std::collections::BTreeSet;

use shicho::{ByColor, Color, Game, Point};

use crate::config::MatchConfig;
use crate::engine_process::{EngineError, Slot};
use crate::game::go::rules_command;
use crate::game::{Forfeit, GameInPlay, MoveKind, quote};

impl GameInPlay<'_, Game> {
    /// Dead stones of the two-pass position `end`, and how they were decided.
    pub(super) fn settle(&mut self, end: &Game) -> Result<(Vec<Point>, String), Forfeit> {
        let mut lists: ByColor<Option<Vec<Point>>> = ByColor::new(None, None);
        for c in Color::ALL {
            if self.knows(c, "final_status_list")? {
                lists[c] = self
                    .optional(c, "final_status_list dead")?
                    .and_then(|text| parse_dead(end, &text));
            }
        }
        let geo = end.geometry();
        let show = |points: &[Point]| {
            if points.is_empty() {
                "none".to_string()
            } else {
                points
                    .iter()
                    .map(|&p| geo.format_point(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        if let (Some(b), Some(w)) = (&lists.black, &lists.white)
            && b == w
        {
            return Ok((b.clone(), format!("dead stones agreed: {}", show(b))));
        }
        let opinion = |l: &Option<Vec<Point>>| l.as_deref().map_or("no answer".to_string(), show);
        let dispute = format!(
            "dead stones disputed (black: {}; white: {})",
            opinion(&lists.black),
            opinion(&lists.white)
        );
        if let Some(referee) = self.referee.as_deref_mut() {
            match ask_referee(referee, self.cfg, end, &self.handicap) {
                Ok(dead) => {
                    let detail = format!("{dispute}; referee engine: {}", show(&dead));
                    return Ok((dead, detail));
                }
                Err(why) => log::warn!("referee engine failed ({why}); playing the game out"),
            }
        }
        let dead = self.play_out(end)?;
        Ok((
            dead.clone(),
            format!("{dispute}; played out: {}", show(&dead)),
        ))
    }

    /// Continues the game until two more passes; the stones of `end` that did not survive
    /// are dead.
    fn play_out(&mut self, end: &Game) -> Result<Vec<Point>, Forfeit> {
        let first = self.moves.len();
        // A play-out longer than one move per point is going nowhere.
        let limit = self.cfg.size * self.cfg.size;
        loop {
            let played = self.moves.len() - first;
            if (played >= 2 && self.game.consecutive_passes() >= 2) || played >= limit {
                break;
            }
            let c = self.game.to_move();
            let command = if self.knows(c, "kgs-genmove_cleanup")? {
                "kgs-genmove_cleanup"
            } else {
                "genmove"
            };
            self.engine_move(c, command, MoveKind::Cleanup)?;
        }
        let (before, after) = (end.board(), self.game.board());
        Ok(end
            .geometry()
            .points()
            .filter(|&p| before.get(p).is_some_and(|c| after.get(p) != Some(c)))
            .collect())
    }
}

/// An engine's dead-stone list as whole chains, sorted; `None` if it names anything but
/// stones on this board.
pub fn parse_dead(game: &Game, text: &str) -> Option<Vec<Point>> {
    let geo = game.geometry();
    let board = game.board();
    let mut dead = BTreeSet::new();
    for token in text.split_whitespace() {
        let p = geo.parse_point(token).ok()?;
        board.get(p)?;
        dead.extend(board.chain_stones(p));
    }
    Some(dead.into_iter().collect())
}

/// Replays `end` into the referee engine and asks for its dead stones.
fn ask_referee(
    slot: &mut Slot,
    cfg: &MatchConfig,
    end: &Game,
    handicap: &[Point],
) -> Result<Vec<Point>, String> {
    let timeout = cfg.answer_timeout;
    let engine = slot.get(timeout).map_err(|e| e.to_string())?;
    let geo = end.geometry();
    if let Some(rules) = rules_command(cfg.rules, |command| engine.knows(command)) {
        match engine.send(&rules, timeout) {
            Ok(_) => {}
            Err(EngineError::Refused(_)) => log::warn!("the referee engine refused `{rules}`"),
            Err(e) => return Err(format!("'{rules}': {e}")),
        }
    }
    let mut commands = vec![
        format!("boardsize {}", cfg.size),
        "clear_board".to_string(),
        format!("komi {}", cfg.komi),
    ];
    let stones: Vec<String> = handicap.iter().map(|&p| geo.format_point(p)).collect();
    if !stones.is_empty() {
        if engine.knows("set_free_handicap") {
            commands.push(format!("set_free_handicap {}", stones.join(" ")));
        } else {
            commands.extend(stones.iter().map(|v| format!("play black {v}")));
        }
    }
    commands.extend(
        end.moves()
            .map(|(c, m)| format!("play {} {}", c.name(), geo.format_move(m))),
    );
    commands.push("final_status_list dead".to_string());
    let mut answer = String::new();
    for command in &commands {
        answer = engine
            .send(command, timeout)
            .map_err(|e| format!("'{command}': {e}"))?;
    }
    parse_dead(end, &answer).ok_or_else(|| format!("unusable dead list '{}'", quote(&answer)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shicho::Rules;

    #[test]
    fn dead_lists_widen_to_chains_and_reject_garbage() {
        let mut g = Game::new(9, Rules::default(), 7.5).unwrap();
        for (c, v) in [
            (Color::Black, "E5"),
            (Color::White, "C3"),
            (Color::Black, "E6"),
            (Color::White, "C4"),
        ] {
            let m = g.geometry().parse_move(v).unwrap();
            g.play(c, m).unwrap();
        }
        let geo = g.geometry();
        let names = |ps: Vec<Point>| -> Vec<String> {
            ps.into_iter().map(|p| geo.format_point(p)).collect()
        };
        assert_eq!(parse_dead(&g, "").map(names), Some(vec![]));
        assert_eq!(
            parse_dead(&g, "c3\nE6").map(names),
            Some(vec!["C3".into(), "C4".into(), "E5".into(), "E6".into()])
        );
        assert_eq!(parse_dead(&g, "A1"), None);
        assert_eq!(parse_dead(&g, "Z9"), None);
        assert_eq!(parse_dead(&g, "pass"), None);
        assert_eq!(parse_dead(&g, "E5 garbage"), None);
    }
}
