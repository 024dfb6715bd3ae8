//! What refereeing Go adds to what every game shares: the rules told to engines that take
//! them, komi and handicap, and after two passes (or the move limit) the dead stones
//! (`settle`) and the count under the match's scoring.

use shicho::{Color, Game, Move, Point, Rules};

use crate::config::MatchConfig;
use crate::game::{Count, Forfeit, GameInPlay, RefereedGame};

impl RefereedGame for Game {
    fn start(cfg: &MatchConfig) -> Game {
        cfg.start_game()
    }

    fn opening(cfg: &MatchConfig, pair: usize) -> Vec<Move> {
        cfg.opening(pair)
    }

    fn handicap(cfg: &MatchConfig) -> Vec<Point> {
        cfg.handicap_stones()
    }

    /// The rules, to an engine that takes them. An engine that refuses plays by its own
    /// rules, its moves still checked by the match's.
    fn announce(table: &mut GameInPlay<'_, Game>, c: Color) -> Result<(), Forfeit> {
        let match_rules = table.cfg.rules;
        let engine = table.engine(c)?;
        if let Some(rules) = rules_command(match_rules, |command| engine.knows(command))
            && table.optional(c, &rules)?.is_none()
        {
            log::warn!("{} refused `{rules}`; it plays by its own rules", c.name());
        }
        Ok(())
    }

    fn set_up_board(table: &mut GameInPlay<'_, Game>, c: Color) -> Result<(), Forfeit> {
        table.command(c, &format!("komi {}", table.cfg.komi))?;
        let geo = table.game.geometry();
        let handicap: Vec<String> = table
            .handicap
            .iter()
            .map(|&p| geo.format_point(p))
            .collect();
        if !handicap.is_empty() {
            if table.knows(c, "set_free_handicap")? {
                table.command(c, &format!("set_free_handicap {}", handicap.join(" ")))?;
            } else {
                for v in &handicap {
                    table.command(c, &format!("play black {v}"))?;
                }
            }
        }
        Ok(())
    }

    /// The position after two passes (or at the move limit), its dead stones settled.
    fn count(table: &mut GameInPlay<'_, Game>) -> Result<Count, Forfeit> {
        let end = table.game.clone();
        let (dead, how) = table.settle(&end)?;
        let score = end.score(&dead);
        Ok(Count {
            winner: score.winner(),
            result: score.to_string(),
            detail: how,
            score: Some(score),
            dead,
        })
    }
}

/// How to tell an engine the match's rules, given what it lists (GTP has no rules
/// command): KataGo's `kata-set-rules` (shicho answers it too) with the preset's name or
/// shicho's custom form, else KGS's `kgs-rules` (Pachi) for the four rule sets KGS has.
pub(crate) fn rules_command(rules: Rules, knows: impl Fn(&str) -> bool) -> Option<String> {
    if knows("kata-set-rules") {
        // KataGo's `chinese` is simple ko, so it would play moves the referee's positional
        // superko forfeits; its `chinese-ogs` is shicho's `chinese` (an alias shicho takes).
        // Every other preset means the same to both (checked with `kata-get-rules`).
        return Some(match rules.preset_name() {
            Some("chinese") => "kata-set-rules chinese-ogs".to_string(),
            _ => format!("kata-set-rules {rules}"),
        });
    }
    let kgs = match rules.preset_name()? {
        "new-zealand" => "new_zealand",
        name @ ("japanese" | "chinese" | "aga") => name,
        _ => return None,
    };
    knows("kgs-rules").then(|| format!("kgs-rules {kgs}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shicho::game::BoardGame;

    fn told(preset: &str, listed: &[&str]) -> Option<String> {
        rules_command(Rules::preset(preset).unwrap(), |c| listed.contains(&c))
    }

    #[test]
    fn rules_go_by_katago_s_command_else_by_kgs_s_names() {
        let both = ["kgs-rules", "kata-set-rules"];
        assert_eq!(told("daoqi", &both).unwrap(), "kata-set-rules daoqi");
        assert_eq!(told("japanese", &both).unwrap(), "kata-set-rules japanese");
        assert_eq!(
            told("chinese", &both).unwrap(),
            "kata-set-rules chinese-ogs"
        );
        assert_eq!(
            Rules::preset("chinese-ogs"),
            Rules::preset("chinese"),
            "shicho must read what the runner sends it"
        );
        let kgs = ["kgs-rules"];
        assert_eq!(told("japanese", &kgs).unwrap(), "kgs-rules japanese");
        assert_eq!(told("new-zealand", &kgs).unwrap(), "kgs-rules new_zealand");
        // Rule sets KGS has no name for are not sent.
        assert_eq!(told("tromp-taylor", &kgs), None);
        assert_eq!(told("daoqi", &kgs), None);
        assert_eq!(told("chinese", &[]), None);
    }

    /// The referee writes the facade's texts into a forfeit's detail, where they were the
    /// rules core's own.
    #[test]
    fn the_facade_s_errors_are_the_rules_core_s() {
        let mut g = Game::new(9, Rules::default(), 7.5).unwrap();
        let geo = g.geometry();
        for text in ["Z9", "J10", "I5", "hello", ""] {
            assert_eq!(
                BoardGame::parse_move(&g, text),
                geo.parse_move(text).map_err(|e| e.to_string()),
                "{text}"
            );
        }
        let e5 = geo.parse_move("E5").unwrap();
        BoardGame::play(&mut g, e5).unwrap();
        let core = g.check(Color::White, e5).unwrap_err().to_string();
        assert_eq!(core, "point is occupied");
        assert_eq!(BoardGame::play(&mut g, e5), Err(core));
    }
}
