//! GoGui's ruler commands (`gogui-rules_*`): how GoGui 1.6 shows a game it does not know.
//!
//! GoGui asks an attached program for `gogui-rules_game_id`. If the answer is `Go` it keeps
//! its own rules. Otherwise, when the program also lists `gogui-rules_legal_moves` and
//! `gogui-rules_side_to_move`, it starts the same command a second time as the *ruler*
//! and from then on keeps no rules of its own: it sends the ruler `clear_board` and
//! `play`s (after every move and whenever it navigates, the whole game again from
//! `clear_board`), draws whatever `gogui-rules_board` answers, lets a player click only
//! where `gogui-rules_legal_moves` lists a point (`pass` only when listed), asks
//! `gogui-rules_side_to_move` who is next, takes its board size from
//! `gogui-rules_board_size` (a bare integer: GoGui parses it with `parseInt`), shows
//! `gogui-rules_captured_count` in its prisoner counts, and when the legal moves come back
//! empty ends the game with `gogui-rules_final_result` in a dialog. The ruler gets no
//! `komi` and no `boardsize`: it counts with its own command line's.
//!
//! Two games are ruled here: Dao-qi (Go on a torus, whose captures across the wrap-around
//! edge GoGui's plane rules would miss) and Othello. A game says what the commands need
//! through [`RulerGame`], and a GTP state hands its game over through [`Ruled`]; the family
//! [`Ruler`] is then the same for every state. Plane Go answers `Go` to
//! `gogui-rules_game_id` and offers none of the other commands, so GoGui rules it (and keeps
//! the board size the user chose) as before.

use std::marker::PhantomData;

use crate::color::{ByColor, Color};
use crate::go::geometry::Topology;
use crate::go::point::Move;
use crate::go::score::format_points;
use crate::gtp::commands::args::{arity, sort_points};
use crate::gtp::commands::command_table::{Command, command, command_if};
use crate::gtp::response::Reply;
use crate::gtp::state::State;
use crate::othello;
use crate::search::dead_stones;

/// What GoGui's ruler commands need to know of a game.
pub trait RulerGame {
    /// `gogui-rules_game_id`: `Go` lets GoGui rule the game itself; anything else (an
    /// upper-case letter, then lower case) asks for a ruler.
    fn game_id(&self) -> &'static str;

    /// Whether the other `gogui-rules_*` commands are offered: GoGui starts a ruler only
    /// for a program that lists them.
    fn is_ruled(&self) -> bool {
        self.game_id() != "Go"
    }

    fn board_size(&self) -> usize;

    /// The board as GoGui draws it: one string per row, top row first, one character per
    /// point: `X` black, `O` white, `.` empty.
    fn rows(&self) -> Vec<String>;

    /// The side to move's legal moves as GoGui names them (`pass` included when it is
    /// legal); empty once the game is over.
    fn legal_moves(&self) -> Vec<String>;

    fn side_to_move(&self) -> Color;

    /// The result, in words, for GoGui's "game finished" dialog.
    fn final_result(&self) -> String;

    /// Stones (discs) each colour has taken from the other.
    fn captured(&self) -> ByColor<u32>;

    /// GoGui graphics drawn over the board after every move, if the game has any.
    fn board_gfx(&self) -> Option<String> {
        None
    }
}

/// A GTP state whose game GoGui's ruler commands can look at.
pub trait Ruled {
    fn ruled(&self) -> &dyn RulerGame;
}

/// The ruler family for the state type `S`.
pub struct Ruler<S>(PhantomData<S>);

impl<S: Ruled + 'static> Ruler<S> {
    pub const COMMANDS: &'static [Command<S>] = &[
        command("gogui-rules_game_id", game_id::<S>),
        command_if("gogui-rules_board_size", board_size::<S>, is_ruled::<S>),
        command_if("gogui-rules_board", board::<S>, is_ruled::<S>),
        command_if("gogui-rules_legal_moves", legal_moves::<S>, is_ruled::<S>),
        command_if("gogui-rules_side_to_move", side_to_move::<S>, is_ruled::<S>),
        command_if("gogui-rules_final_result", final_result::<S>, is_ruled::<S>),
        command_if(
            "gogui-rules_captured_count",
            captured_count::<S>,
            is_ruled::<S>,
        ),
        command_if("gogui-rules_board_gfx", board_gfx::<S>, has_gfx::<S>),
    ];
}

fn is_ruled<S: Ruled>(s: &S) -> bool {
    s.ruled().is_ruled()
}

fn has_gfx<S: Ruled>(s: &S) -> bool {
    is_ruled(s) && s.ruled().board_gfx().is_some()
}

fn game_id<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().game_id().to_string())
}

fn board_size<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().board_size().to_string())
}

/// Rows of `X`, `O` and `.` separated by spaces (GoGui reads those characters and skips
/// every other, so no coordinate labels: `O` is a column letter).
fn board<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let rows: Vec<String> = s
        .ruled()
        .rows()
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            cells.join(" ")
        })
        .collect();
    Ok(rows.join("\n"))
}

fn legal_moves<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().legal_moves().join(" "))
}

fn side_to_move<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().side_to_move().name().to_string())
}

fn final_result<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().final_result())
}

/// `BLACK_CAPTURED WHITE_CAPTURED`: what Black has taken, then what White has.
fn captured_count<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let c = s.ruled().captured();
    Ok(format!("{} {}", c.black, c.white))
}

fn board_gfx<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().board_gfx().unwrap_or_default())
}

// ----- Go: plane (GoGui's own rules) and Dao-qi (ruled here) ----------------------------

impl Ruled for State {
    fn ruled(&self) -> &dyn RulerGame {
        self
    }
}

impl RulerGame for State {
    fn game_id(&self) -> &'static str {
        match self.geo().topology() {
            Topology::Plane => "Go",
            Topology::Torus => "Daoqi",
        }
    }

    fn board_size(&self) -> usize {
        self.geo().size()
    }

    fn rows(&self) -> Vec<String> {
        let geo = self.geo();
        let board = self.game().board();
        let n = geo.size();
        (0..n)
            .rev()
            .map(|y| {
                (0..n)
                    .map(|x| {
                        let stone = geo.point(x, y).and_then(|p| board.get(p));
                        match stone {
                            Some(Color::Black) => 'X',
                            Some(Color::White) => 'O',
                            None => '.',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Every legal point and `pass`, until two passes in a row end the game.
    fn legal_moves(&self) -> Vec<String> {
        let game = self.game();
        if game.consecutive_passes() >= 2 {
            return Vec::new();
        }
        let geo = self.geo();
        let c = game.to_move();
        let mut points: Vec<_> = geo
            .points()
            .filter(|&p| game.is_legal(c, Move::Play(p)))
            .collect();
        sort_points(geo, &mut points);
        let mut moves: Vec<String> = points.iter().map(|&p| geo.format_point(p)).collect();
        moves.push("pass".into());
        moves
    }

    fn side_to_move(&self) -> Color {
        self.game().to_move()
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

    fn captured(&self) -> ByColor<u32> {
        let board = self.game().board();
        ByColor::new(board.captures(Color::Black), board.captures(Color::White))
    }
}

// ----- Othello ---------------------------------------------------------------------------

/// Othello as GoGui shows it. GoGui names points the Go way (rows counted from the
/// bottom), Othello front ends count rows from the top; so the rows are given bottom row
/// first: GoGui then draws row 1 at the bottom and its labels read as Othello's own
/// notation (`D3` is d3), and its moves reach `play` in the form the Othello commands
/// parse. (The picture is the start position mirrored top to bottom; the game is the
/// same.) GoGui skips the letter `I`, so this holds up to 8x8, the board Othello is played
/// on.
impl RulerGame for othello::Game {
    fn game_id(&self) -> &'static str {
        "Othello"
    }

    fn board_size(&self) -> usize {
        self.size()
    }

    fn rows(&self) -> Vec<String> {
        let mut rows = self.board().rows();
        rows.reverse();
        rows
    }

    /// The disc moves, or `pass` alone when the side to move has none; empty at the end.
    fn legal_moves(&self) -> Vec<String> {
        let moves = othello::Game::legal_moves(self);
        moves
            .iter()
            .map(|m| match m {
                othello::Move::Play(s) => s.to_string(),
                othello::Move::Pass => "pass".to_string(),
            })
            .collect()
    }

    fn side_to_move(&self) -> Color {
        self.to_move()
    }

    fn final_result(&self) -> String {
        let s = self.score();
        let counts = format!("Black {} discs, White {}", s.black, s.white);
        match s.winner() {
            None => format!("Draw. {counts}."),
            Some(c) => format!(
                "{} wins by {} ({s}). {counts}.",
                if c == Color::Black { "Black" } else { "White" },
                s.difference().abs()
            ),
        }
    }

    /// Discs each colour has turned over since the start.
    fn captured(&self) -> ByColor<u32> {
        let (start, _) = self.start();
        let mut board = start.clone();
        let mut flipped = ByColor::new(0, 0);
        for turn in self.history() {
            if let othello::Move::Play(square) = turn.mv {
                // The history holds only legal moves, so replaying them cannot fail.
                flipped[turn.color] += board.play(turn.color, square).unwrap_or(0);
            }
        }
        flipped
    }

    /// A small square on each legal move of the side to move, and the disc counts in the
    /// status bar.
    fn board_gfx(&self) -> Option<String> {
        let s = self.score();
        let mut gfx = Vec::new();
        let squares: Vec<String> = self
            .board()
            .legal_moves(self.to_move())
            .iter()
            .map(|sq| sq.to_string())
            .collect();
        if !squares.is_empty() && !self.is_over() {
            gfx.push(format!("SQUARE {}", squares.join(" ")));
        }
        gfx.push(format!("TEXT Black {}  White {}", s.black, s.white));
        Some(gfx.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Rules;
    use crate::gtp::commands::GO;
    use crate::gtp::state::Config;

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

    #[test]
    fn othello_rows_put_row_one_at_the_bottom() {
        let mut g = othello::Game::new(8).unwrap();
        let d3 = othello::Move::parse("d3", 8).unwrap();
        g.play(d3).unwrap();
        let rows = RulerGame::rows(&g);
        // Othello's row 3 (third from the top) is GoGui's row 3 (third from the bottom).
        assert_eq!(rows[5], "...X....");
        assert_eq!(rows[4], "...XX...");
        assert_eq!(rows[3], "...XO...");
        assert_eq!(RulerGame::side_to_move(&g), Color::White);
        assert_eq!(RulerGame::captured(&g), ByColor::new(1, 0));
        assert_eq!(RulerGame::legal_moves(&g), ["C3", "E3", "C5"]);
        let gfx = RulerGame::board_gfx(&g).unwrap();
        assert_eq!(gfx, "SQUARE C3 E3 C5\nTEXT Black 4  White 1");
    }

    #[test]
    fn othello_final_result_counts_discs() {
        let mut g = othello::Game::new(4).unwrap();
        while let Some(&m) = othello::Game::legal_moves(&g).first() {
            g.play(m).unwrap();
        }
        assert!(RulerGame::legal_moves(&g).is_empty());
        let s = g.score();
        let text = RulerGame::final_result(&g);
        assert!(
            text.contains(&format!("Black {} discs, White {}", s.black, s.white)),
            "{text}"
        );
    }
}
