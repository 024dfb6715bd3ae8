//! Go and Dao-qi at the terminal: the rules core's `Game`, the engine's players, the count
//! with dead stones estimated, SGF through the record builder.

use std::sync::atomic::AtomicBool;

use crate::color::Color;
use crate::go::game::Game;
use crate::go::geometry::{Geometry, Topology};
use crate::go::point::Move;
use crate::go::score::{Score, format_points};
use crate::go::search::dead_stones;
use crate::go::search::{Decision, Params, Player, Searcher, decide};
use crate::go::sgf::{SgfGame, write_game};
use crate::rng::Rng;
use crate::terminal::diagram::Picture;
use crate::terminal::played::{EngineTurn, Finished, PlayedGame, RecordInfo, name};

/// A game of Go (plane or torus) with the engine's settings.
pub struct GoGame {
    game: Game,
    player: Player,
    params: Params,
    searcher: Searcher,
    rng: Rng,
    stop: AtomicBool,
}

impl GoGame {
    pub fn new(game: Game, player: Player, params: Params, seed: u64) -> GoGame {
        GoGame {
            game,
            player,
            params,
            searcher: Searcher::new(),
            rng: Rng::new(seed),
            stop: AtomicBool::new(false),
        }
    }

    fn geo(&self) -> &'static Geometry {
        self.game.geometry()
    }

    /// The count now, dead stones estimated by playouts (as `final_score` does).
    fn count(&self) -> (Score, usize) {
        let g = &self.game;
        let dead = dead_stones::estimate(
            g.board(),
            g.to_move(),
            g.rules().suicide_allowed(),
            &self.params.tunables,
        )
        .dead_stones();
        (g.score(&dead), dead.len())
    }
}

impl PlayedGame for GoGame {
    type Game = Game;

    fn game(&self) -> &Game {
        &self.game
    }

    fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    fn title(&self) -> String {
        let g = &self.game;
        let torus = if self.is_torus() {
            " (Go on a torus: the edges wrap around)"
        } else {
            ""
        };
        format!(
            "Go {n}x{n}, {} rules{torus}, komi {}",
            g.rules(),
            format_points(g.komi()),
            n = g.size()
        )
    }

    fn rules_name(&self) -> String {
        self.game.rules().to_string()
    }

    fn is_torus(&self) -> bool {
        self.geo().topology() == Topology::Torus
    }

    /// Screen column `i`, row `j` (from the top) shows the point `(i + dx, n - 1 - j + dy)`;
    /// the labels name the points shown, so moves are typed as before the shift.
    fn diagram(&self, (dx, dy): (usize, usize)) -> String {
        let geo = self.geo();
        let n = geo.size();
        let board = self.game.board();
        let x_of = |i: usize| (i + dx) % n;
        let y_of = |j: usize| (n - 1 - j + dy) % n;
        let last = match self.game.last_move() {
            Some((_, Move::Play(p))) => {
                let (x, y) = geo.xy(p);
                // The screen cell showing (x, y).
                Some(((x + n - dx) % n, (2 * n - 1 + dy - y) % n))
            }
            _ => None,
        };
        Picture {
            cells: (0..n)
                .map(|j| {
                    (0..n)
                        .map(|i| geo.point(x_of(i), y_of(j)).and_then(|p| board.get(p)))
                        .collect()
                })
                .collect(),
            columns: (0..n).map(|i| Geometry::column_letter(x_of(i))).collect(),
            rows: (0..n).map(|j| (y_of(j) + 1).to_string()).collect(),
            last,
        }
        .render()
    }

    fn status(&self) -> String {
        let board = self.game.board();
        let (score, _) = self.count();
        format!(
            "Captures: Black {}, White {}. Count now: {score}.",
            board.captures(Color::Black),
            board.captures(Color::White)
        )
    }

    fn play_text(&mut self, text: &str) -> Result<String, String> {
        let geo = self.geo();
        let m = match geo.parse_move(text) {
            Ok(Move::Play(p)) => Move::Play(p),
            Ok(Move::Pass) => Move::Pass,
            Err(_) => {
                return Err(format!(
                    "'{text}' is not a point of this {n}x{n} board (columns A-{}, no I; rows 1-{n})",
                    Geometry::column_letter(geo.size() - 1),
                    n = geo.size()
                ));
            }
        };
        let c = self.game.to_move();
        match self.game.play(c, m) {
            Ok(_) => Ok(geo.format_move(m)),
            Err(why) => Err(format!("Illegal move {}: {why}.", geo.format_move(m))),
        }
    }

    fn pass(&mut self) -> Result<(), String> {
        let c = self.game.to_move();
        self.game
            .play(c, Move::Pass)
            .map(|_| ())
            .map_err(|why| why.to_string())
    }

    fn engine_turn(&mut self) -> EngineTurn {
        let c = self.game.to_move();
        let seed = self.rng.next_u64();
        let (decision, note) = match self.player {
            Player::Mcts => {
                let r = self
                    .searcher
                    .search(&self.game, c, &self.params, seed, &self.stop);
                let note = format!(
                    "win rate {:.0}%, {} simulations",
                    r.winrate * 100.0,
                    r.playouts
                );
                (r.decision, note)
            }
            p => {
                let d = decide(
                    &self.game,
                    c,
                    p,
                    &self.params,
                    seed,
                    &self.stop,
                    &mut self.searcher,
                );
                (d, String::new())
            }
        };
        let m = match decision {
            Decision::Resign => return EngineTurn::Resigned,
            Decision::Play(m) => m,
        };
        // The players only return legal moves; should one not be, passing keeps the game
        // going.
        let m = if self.game.play(c, m).is_ok() {
            m
        } else {
            log::error!("the engine chose an illegal move; passing");
            let _ = self.game.play(c, Move::Pass);
            Move::Pass
        };
        EngineTurn::Played {
            mv: self.geo().format_move(m),
            note,
        }
    }

    /// Two passes in a row end the game; it is counted with dead stones estimated.
    fn finished(&self) -> Option<Finished> {
        if self.game.consecutive_passes() < 2 {
            return None;
        }
        let (score, dead) = self.count();
        let winner = score.winner();
        let words = match winner {
            None => "Jigo (a draw)".to_string(),
            Some(c) => format!(
                "{} wins by {}",
                name(c),
                format_points(score.margin().abs())
            ),
        };
        Some(Finished {
            winner,
            result: score.to_string(),
            text: format!(
                "{words} ({score}, {} scoring, komi {}; {dead} dead stones removed).",
                score.scoring,
                format_points(score.komi)
            ),
            discs: None,
        })
    }

    fn sgf(&self, info: &RecordInfo) -> String {
        let mut record = SgfGame::from_game(&self.game);
        record.info.black_name = Some(info.black.to_string());
        record.info.white_name = Some(info.white.to_string());
        record.info.result = info.result.map(str::to_string);
        record.info.date = Some(info.date.to_string());
        write_game(&record)
    }

    fn engine_name(&self) -> String {
        let p = &self.params;
        let limit = match (self.player, p.playouts, p.time) {
            (Player::Mcts, _, Some(t)) => format!(" {}s", format_points(t.as_secs_f64())),
            (Player::Mcts, n, None) => format!(" {}", n.unwrap_or(p.playout_limit())),
            _ => String::new(),
        };
        format!("shicho {}{limit}", self.player.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BoardGame;
    use crate::go::rules::Rules;

    fn game(rules: &str, size: usize) -> GoGame {
        let rules: Rules = rules.parse().unwrap();
        let g = Game::new(size, rules, rules.default_komi()).unwrap();
        GoGame::new(g, Player::Heuristic, Params::default(), 1)
    }

    #[test]
    fn a_shifted_torus_keeps_labels_and_the_last_move_mark_with_their_points() {
        let mut g = game("daoqi", 5);
        g.play_text("a1").unwrap();
        let plain = g.diagram((0, 0));
        assert!(plain.contains(" 1 (X). . . .  1"), "{plain}");
        // The view two columns left and one row up: A1 is drawn in the fourth column, second
        // row from the bottom, and the labels follow the points.
        let shifted = g.diagram((2, 4));
        assert!(shifted.starts_with("    C D E A B\n"), "{shifted}");
        assert!(shifted.contains(" 1  . . .(X).  1"), "{shifted}");
        assert_eq!(shifted.lines().nth(1).unwrap(), " 4  . . . . .  4");
    }

    #[test]
    fn bad_moves_change_nothing() {
        let mut g = game("chinese", 9);
        g.play_text("e5").unwrap();
        assert!(g.play_text("e5").unwrap_err().contains("occupied"));
        assert!(g.play_text("z9").unwrap_err().contains("not a point"));
        assert!(g.play_text("i5").is_err());
        assert_eq!(g.game().moves_played(), 1);
        assert_eq!(BoardGame::to_move(g.game()), Color::White);
    }
}
