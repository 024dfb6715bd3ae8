//! Othello at the terminal: the Othello core's game and players, squares in Othello's own
//! notation (row 1 at the top, no letter skipped), and a small SGF writer (`GM[2]`).

use std::sync::atomic::AtomicBool;

use crate::color::{ByColor, Color};
use crate::othello::{self, Limits, Move, PlayerKind, Searcher, Square};
use crate::rng::Rng;
use crate::terminal::diagram::Picture;
use crate::terminal::played::{EngineTurn, Finished, PlayedGame, RecordInfo, name};

/// A game of Othello with the engine's settings.
pub struct OthelloGame {
    game: othello::Game,
    player: PlayerKind,
    limits: Limits,
    searcher: Searcher,
    rng: Rng,
    stop: AtomicBool,
}

impl OthelloGame {
    pub fn new(game: othello::Game, player: PlayerKind, limits: Limits, seed: u64) -> Self {
        OthelloGame {
            game,
            player,
            limits,
            searcher: Searcher::new(),
            rng: Rng::new(seed),
            stop: AtomicBool::new(false),
        }
    }

    fn discs(&self) -> ByColor<u32> {
        let s = self.game.score();
        ByColor::new(s.black, s.white)
    }

    /// The side to move's moves, as a list for a message.
    fn legal_list(&self) -> String {
        let moves = self.game.legal_moves();
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        texts.join(" ")
    }
}

impl PlayedGame for OthelloGame {
    type Game = othello::Game;

    fn game(&self) -> &othello::Game {
        &self.game
    }

    fn game_mut(&mut self) -> &mut othello::Game {
        &mut self.game
    }

    fn title(&self) -> String {
        format!("Othello {n}x{n}", n = self.game.size())
    }

    fn rules_name(&self) -> String {
        "othello".into()
    }

    fn diagram(&self, _: (usize, usize)) -> String {
        let n = self.game.size();
        let board = self.game.board();
        let last = match self.game.history().last() {
            Some(t) => t.mv.square().map(|s| (s.x(), s.y())),
            None => None,
        };
        Picture {
            cells: (0..n)
                .map(|y| (0..n).map(|x| board.get(Square::new(x, y))).collect())
                .collect(),
            columns: (0..n).map(|x| (b'A' + x as u8) as char).collect(),
            rows: (1..=n).map(|y| y.to_string()).collect(),
            last,
        }
        .render()
    }

    fn status(&self) -> String {
        let d = self.discs();
        format!("Discs: Black {}, White {}.", d.black, d.white)
    }

    fn play_text(&mut self, text: &str) -> Result<String, String> {
        let n = self.game.size();
        let mv = match Move::parse(text, n) {
            Ok(Move::Play(s)) => Move::Play(s),
            _ => {
                return Err(format!(
                    "'{text}' is not a square of this {n}x{n} board (columns A-{}, rows 1-{n} from the top)",
                    (b'A' + n as u8 - 1) as char
                ));
            }
        };
        match self.game.play(mv) {
            Ok(_) => Ok(mv.to_string()),
            Err(why) => Err(format!(
                "Illegal move {mv}: {why} (legal: {}).",
                self.legal_list()
            )),
        }
    }

    fn pass(&mut self) -> Result<(), String> {
        match self.game.play(Move::Pass) {
            Ok(_) => Ok(()),
            Err(_) => Err(format!(
                "No pass while you have a move ({}).",
                self.legal_list()
            )),
        }
    }

    fn must_pass(&self) -> bool {
        self.game.legal_moves() == [Move::Pass]
    }

    fn engine_turn(&mut self) -> EngineTurn {
        let c = self.game.to_move();
        let board = self.game.board().clone();
        let (mv, note) = match self.player {
            PlayerKind::Searcher => {
                let info = self
                    .searcher
                    .choose(&board, c, &self.limits, &self.stop, &mut |_| {});
                let kind = if info.exact { "exact" } else { "estimate" };
                let note = format!(
                    "{kind} {:+} discs, depth {}",
                    info.score as f64 / 100.0,
                    info.depth
                );
                (info.best(), note)
            }
            PlayerKind::Greedy => (
                othello::greedy_move(&board, c).map_or(Move::Pass, Move::Play),
                String::new(),
            ),
            PlayerKind::Random => (
                othello::random_move(&board, c, &mut self.rng).map_or(Move::Pass, Move::Play),
                String::new(),
            ),
        };
        let flipped = match self.game.play(mv) {
            Ok(n) => n,
            Err(_) => {
                // The players only return legal moves; should one not be, the first legal
                // move keeps the game going.
                log::error!("the engine chose an illegal move {mv}");
                let first = self
                    .game
                    .legal_moves()
                    .first()
                    .copied()
                    .unwrap_or(Move::Pass);
                self.game.play(first).unwrap_or(0)
            }
        };
        let mv = self.game.history().last().map_or(mv, |t| t.mv);
        let flips = format!("turns {flipped} over");
        let note = if note.is_empty() {
            flips
        } else {
            format!("{flips}; {note}")
        };
        EngineTurn::Played {
            mv: mv.to_string(),
            note,
        }
    }

    fn finished(&self) -> Option<Finished> {
        if !self.game.is_over() {
            return None;
        }
        let s = self.game.score();
        let winner = s.winner();
        let words = match winner {
            None => format!("A draw, {} to {}.", s.black, s.white),
            Some(c) => {
                let (w, l) = if c == Color::Black {
                    (s.black, s.white)
                } else {
                    (s.white, s.black)
                };
                format!("{} wins {w} to {l}.", name(c))
            }
        };
        Some(Finished {
            winner,
            result: s.to_string(),
            text: words,
            discs: Some(self.discs()),
        })
    }

    fn disc_count(&self) -> Option<ByColor<u32>> {
        Some(self.discs())
    }

    fn sgf(&self, info: &RecordInfo) -> String {
        let (start, first) = self.game.start();
        let n = start.size();
        let point = |s: Square| {
            format!(
                "{}{}",
                (b'a' + s.x() as u8) as char,
                (b'a' + s.y() as u8) as char
            )
        };
        let mut out = format!(
            "(;FF[4]GM[2]CA[UTF-8]AP[shicho:{}]SZ[{n}]",
            env!("CARGO_PKG_VERSION")
        );
        out.push_str(&format!("PB[{}]PW[{}]", text(info.black), text(info.white)));
        out.push_str(&format!("DT[{}]", text(info.date)));
        if let Some(result) = info.result {
            out.push_str(&format!("RE[{}]", text(result)));
        }
        for (ident, c) in [("AB", Color::Black), ("AW", Color::White)] {
            let discs: Vec<String> = start
                .squares()
                .filter(|&s| start.get(s) == Some(c))
                .map(|s| format!("[{}]", point(s)))
                .collect();
            if !discs.is_empty() {
                out.push_str(ident);
                out.push_str(&discs.concat());
            }
        }
        out.push_str(&format!("PL[{}]\n", first.letter()));
        for (i, turn) in self.game.history().iter().enumerate() {
            let value = turn.mv.square().map(point).unwrap_or_default();
            out.push_str(&format!(";{}[{value}]", turn.color.letter()));
            if i % 10 == 9 {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }

    fn engine_name(&self) -> String {
        let limit = match self.player {
            PlayerKind::Searcher => match (self.limits.max_depth, self.limits.budget) {
                (Some(d), _) => format!(" depth {d}"),
                (None, Some(t)) => format!(" {}s", t.as_secs_f64()),
                (None, None) => String::new(),
            },
            _ => String::new(),
        };
        format!("shicho {}{limit}", self.player)
    }
}

/// An SGF text value: `]` and `\` escaped.
fn text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BoardGame;

    fn game() -> OthelloGame {
        let g = othello::Game::new(8).unwrap();
        OthelloGame::new(g, PlayerKind::Greedy, Limits::depth(2), 1)
    }

    #[test]
    fn row_one_is_at_the_top_and_the_last_move_is_marked() {
        let mut g = game();
        assert_eq!(g.play_text("d3").unwrap(), "D3");
        let d = g.diagram((0, 0));
        assert!(d.starts_with("    A B C D E F G H\n 1  "), "{d}");
        assert!(d.contains(" 3  . . .(X). . . .  3"), "{d}");
        assert!(d.contains(" 4  . . . X X . . .  4"), "{d}");
        assert_eq!(g.status(), "Discs: Black 4, White 1.");
    }

    #[test]
    fn illegal_moves_say_why_and_change_nothing() {
        let mut g = game();
        let err = g.play_text("a1").unwrap_err();
        assert_eq!(err, "Illegal move A1: flips nothing (legal: D3 C4 F5 E6).");
        assert!(g.play_text("d4").unwrap_err().contains("occupied"));
        assert!(g.play_text("i9").unwrap_err().contains("not a square"));
        assert!(g.pass().unwrap_err().starts_with("No pass"));
        assert_eq!(g.game().moves_played(), 0);
    }

    #[test]
    fn sgf_has_the_start_position_and_the_moves() {
        let mut g = game();
        g.play_text("d3").unwrap();
        g.engine_turn();
        let sgf = g.sgf(&RecordInfo {
            black: "ann",
            white: "shicho",
            result: None,
            date: "2026-11-24",
        });
        assert!(sgf.starts_with("(;FF[4]GM[2]"), "{sgf}");
        assert!(sgf.contains("SZ[8]PB[ann]PW[shicho]DT[2026-11-24]AB[ed][de]AW[dd][ee]PL[B]"));
        assert!(sgf.contains(";B[dc];W["), "{sgf}");
    }
}
