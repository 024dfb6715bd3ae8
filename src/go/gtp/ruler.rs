//! Go under GoGui's ruler commands (`gtp::ruler`): plane Go answers `Go` and is left to
//! GoGui's own rules; Dao-qi is ruled here, since GoGui's plane rules would miss captures
//! across the wrap-around edge.

use crate::color::Color;
use crate::go::game::Game;
use crate::go::geometry::Topology;
use crate::go::gtp::state::State;
use crate::go::score::format_points;
use crate::go::search::dead_stones;
use crate::gtp::ruler::Ruled;

impl Ruled for State {
    type Game = Game;

    fn ruled(&self) -> &Game {
        self.game()
    }

    fn game_id(&self) -> &'static str {
        match self.geo().topology() {
            Topology::Plane => "Go",
            Topology::Torus => "Daoqi",
        }
    }

    /// The count `final_score` gives (dead stones estimated by playouts), with its parts.
    fn final_result(&self) -> String {
        let game = self.game();
        let dead = dead_stones::estimate(
            game.board(),
            game.to_move(),
            game.rules().suicide_allowed(),
            &self.params().tunables,
        )
        .dead_stones();
        let score = game.score(&dead);
        let total = |c: Color| match score.scoring {
            crate::go::rules::Scoring::Area => score.stones[c] + score.territory[c],
            crate::go::rules::Scoring::Territory => score.territory[c] + score.prisoners[c],
        };
        let result = match score.winner() {
            None => "Jigo".to_string(),
            Some(c) => format!(
                "{} wins by {} ({score})",
                if c == Color::Black { "Black" } else { "White" },
                format_points(score.margin().abs())
            ),
        };
        format!(
            "{result}. Black {}, White {} + komi {}, by {} scoring; {} dead stones removed.",
            total(Color::Black),
            total(Color::White),
            format_points(score.komi),
            score.scoring,
            dead.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::gtp::GO;
    use crate::go::gtp::state::Config;
    use crate::go::point::Move;
    use crate::go::rules::Rules;
    use crate::gtp::response::Reply;

    fn state(rules: &str, size: usize) -> State {
        let rules: Rules = rules.parse().unwrap();
        State::with_interrupt(
            &Config {
                rules,
                size,
                komi: rules.default_komi(),
                ..Config::default()
            },
            &GO,
            Default::default(),
        )
    }

    fn run(s: &mut State, line: &str) -> Reply {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let args: Vec<String> = words.map(String::from).collect();
        let c = GO
            .find(s, name)
            .ok_or(crate::gtp::error::GtpError::UnknownCommand)?;
        (c.run)(s, &args)
    }

    #[test]
    fn plane_go_is_left_to_gogui() {
        let mut s = state("chinese", 9);
        assert_eq!(run(&mut s, "gogui-rules_game_id").unwrap(), "Go");
        for name in ["gogui-rules_board", "gogui-rules_legal_moves"] {
            assert!(run(&mut s, name).is_err(), "{name} is not offered");
            assert!(!GO.offered(&s).any(|n| n == name));
        }
    }

    #[test]
    fn daoqi_board_follows_a_capture_across_the_edge() {
        let mut s = state("daoqi", 5);
        assert_eq!(run(&mut s, "gogui-rules_game_id").unwrap(), "Daoqi");
        assert_eq!(run(&mut s, "gogui-rules_board_size").unwrap(), "5");
        // White A3 has liberties A4, A2, B3 and E3 (across the left edge).
        for m in ["w A3", "b A4", "b A2", "b B3"] {
            let (c, v) = m.split_once(' ').unwrap();
            let color: Color = c.parse().unwrap();
            let mv = s.geo().parse_move(v).unwrap();
            s.play(color, mv).unwrap();
        }
        assert!(
            s.game()
                .board()
                .get(s.geo().parse_point("A3").unwrap())
                .is_some()
        );
        s.play(Color::Black, s.geo().parse_move("E3").unwrap())
            .unwrap();
        assert_eq!(
            run(&mut s, "gogui-rules_board").unwrap(),
            ". . . . .\nX . . . .\n. X . . X\nX . . . .\n. . . . ."
        );
        assert_eq!(run(&mut s, "gogui-rules_captured_count").unwrap(), "1 0");
        assert_eq!(run(&mut s, "gogui-rules_side_to_move").unwrap(), "white");
        let legal = run(&mut s, "gogui-rules_legal_moves").unwrap();
        assert!(legal.starts_with("A5 B5 "), "{legal}");
        assert!(legal.ends_with(" pass"));
        assert!(!legal.split(' ').any(|m| m == "A4"));
    }

    #[test]
    fn daoqi_ends_after_two_passes() {
        let mut s = state("daoqi", 5);
        s.play(Color::Black, s.geo().parse_move("C3").unwrap())
            .unwrap();
        s.play(Color::White, Move::Pass).unwrap();
        assert!(!run(&mut s, "gogui-rules_legal_moves").unwrap().is_empty());
        s.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(run(&mut s, "gogui-rules_legal_moves").unwrap(), "");
        let result = run(&mut s, "gogui-rules_final_result").unwrap();
        // One black stone owns the whole torus: 25 against komi 4.
        assert!(result.starts_with("Black wins by 21 (B+21)"), "{result}");
    }
}
