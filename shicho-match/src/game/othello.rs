//! What refereeing Othello adds to what every game shares: the engines switched to Othello,
//! forced passes played by the referee, the discs counted at the end.
//!
//! - **Setup**: `set_game Othello` to an engine that lists `set_game` (it must accept);
//!   an engine that only lists `list_games` must name Othello there; an engine with
//!   neither is taken to play Othello already (GRhino-style). Then `boardsize`,
//!   `clear_board` and the time settings; no komi.
//! - **Moves**: the engine to move answers `genmove`. An unparsable answer, a move the
//!   rules forbid, a `pass` while it has a move, or `?` loses the game for it (the classic
//!   program's rule); `resign` resigns. Time and crashes are judged as in Go.
//! - **Forced passes**: a player with no legal move is not asked (Quarry's engines answer
//!   only vertices). The referee plays its pass and sends `play COLOUR pass` to both
//!   engines; an engine that refuses it (GRhino answers `? syntax error`) is left to infer
//!   the pass from the next move of the other colour, as it does from Quarry.
//! - **End**: when neither side can move, the discs decide: `B+12`, `W+4` or `0`.

use shicho::Color;
use shicho::othello::{Game, Move};

use crate::config::MatchConfig;
use crate::game::{Count, EndReason, Forfeit, GameInPlay, RefereedGame};

impl RefereedGame for Game {
    fn start(cfg: &MatchConfig) -> Game {
        cfg.start_othello_game()
    }

    fn opening(cfg: &MatchConfig, pair: usize) -> Vec<Move> {
        cfg.othello_opening(pair)
    }

    fn announce(table: &mut GameInPlay<'_, Game>, c: Color) -> Result<(), Forfeit> {
        if table.knows(c, "set_game")? {
            table.command(c, "set_game Othello")?;
        } else if table.knows(c, "list_games")?
            && let Some(games) = table.optional(c, "list_games")?
            && !games
                .lines()
                .any(|g| g.trim().eq_ignore_ascii_case("othello"))
        {
            return Err(Forfeit {
                loser: c,
                reason: EndReason::Error,
                detail: format!("{c} engine does not play Othello (list_games: {games})"),
            });
        }
        Ok(())
    }

    fn must_pass(&self) -> bool {
        !self.board().has_moves(self.to_move())
    }

    /// The discs on the board decide.
    fn count(table: &mut GameInPlay<'_, Game>) -> Result<Count, Forfeit> {
        let score = table.game.score();
        Ok(Count {
            winner: score.winner(),
            result: score.to_string(),
            detail: format!("discs {}-{}", score.black, score.white),
            score: None,
            dead: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shicho::game::BoardGame;

    /// The referee writes the facade's texts into a forfeit's detail, where they were the
    /// rules core's own.
    #[test]
    fn the_facade_s_errors_are_the_rules_core_s() {
        let mut g = Game::new(8).unwrap();
        for text in ["J9", "xx", "d0", "", "pass", "D3"] {
            assert_eq!(
                BoardGame::parse_move(&g, text),
                Move::parse(text, 8).map_err(|e| e.to_string()),
                "{text}"
            );
        }
        for text in ["pass", "D4", "A1"] {
            let m = Move::parse(text, 8).unwrap();
            let core = g.clone().play(m).map(drop).map_err(|e| e.to_string());
            assert!(core.is_err(), "{text}");
            assert_eq!(BoardGame::play(&mut g, m), core, "{text}");
        }
    }
}
