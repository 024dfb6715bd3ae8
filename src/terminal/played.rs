//! What the terminal session needs of a game, so that one loop serves Go, Dao-qi and
//! Othello.

use crate::color::{ByColor, Color};
use crate::game::{BoardGame, GameKind};

/// What the engine did with its turn.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineTurn {
    /// It played this move (as the game writes moves; `pass` included) and says this about
    /// it (a win rate, discs turned over...).
    Played { mv: String, note: String },
    /// It resigned.
    Resigned,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    pub winner: Option<Color>,
    /// SGF's form: `B+3.5`, `W+R`, `0` (a draw).
    pub result: String,
    /// The result in words, with the count.
    pub text: String,
    /// Othello: both disc counts.
    pub discs: Option<ByColor<u32>>,
}

/// Names and result for the game record.
pub struct RecordInfo<'a> {
    pub black: &'a str,
    pub white: &'a str,
    pub result: Option<&'a str>,
    /// `YYYY-MM-DD`.
    pub date: &'a str,
}

/// A game in play, as the terminal session drives it: the rules core (through
/// [`BoardGame`]: the size, the side to move, undo, the moves played) and what only the
/// terminal needs: the engine's players, the diagram and the words. Moves are made for the
/// side to move.
pub trait PlayedGame {
    type Game: BoardGame;

    fn game(&self) -> &Self::Game;

    fn game_mut(&mut self) -> &mut Self::Game;

    /// The game and its settings in a few words, for the first line.
    fn title(&self) -> String;
    /// `go` or `othello`, for the log.
    fn game_name(&self) -> &'static str {
        match self.game().kind() {
            GameKind::Go => "go",
            GameKind::Othello => "othello",
        }
    }
    /// The rules, for the log (`chinese`, `daoqi`, `othello`...).
    fn rules_name(&self) -> String;
    /// Whether the board wraps around (the view can be shifted).
    fn is_torus(&self) -> bool {
        false
    }
    /// The board as text, the view shifted by `shift` columns and rows on a torus.
    fn diagram(&self, shift: (usize, usize)) -> String;
    /// One line under the board: captures or discs, and the count so far.
    fn status(&self) -> String;
    /// Plays the move written `text` for the side to move.
    ///
    /// # Errors
    /// Why it is not a legal move here, in words; nothing changes.
    fn play_text(&mut self, text: &str) -> Result<String, String>;
    /// Passes for the side to move.
    ///
    /// # Errors
    /// Why passing is not allowed now; nothing changes.
    fn pass(&mut self) -> Result<(), String>;
    /// Whether the side to move has no choice but to pass (Othello): the session then
    /// passes for it.
    fn must_pass(&self) -> bool {
        false
    }
    /// The engine chooses and plays the side to move's move.
    fn engine_turn(&mut self) -> EngineTurn;
    /// The result, once the rules end the game (two passes; no moves left).
    fn finished(&self) -> Option<Finished>;
    /// Both disc counts, for a game counted by discs (Othello).
    fn disc_count(&self) -> Option<ByColor<u32>> {
        None
    }
    /// The result when `loser` resigns.
    fn resigned(&self, loser: Color) -> Finished {
        let winner = loser.other();
        Finished {
            winner: Some(winner),
            result: format!("{}+R", winner.letter()),
            text: format!("{} resigns: {} wins.", name(loser), name(winner)),
            discs: self.disc_count(),
        }
    }
    /// The game as SGF.
    fn sgf(&self, info: &RecordInfo) -> String;
    /// Describes the engine's settings (for the log and the record).
    fn engine_name(&self) -> String;
    /// Whether `text` names a point (or square) of this board.
    fn is_point(&self, text: &str) -> bool {
        let game = self.game();
        game.parse_move(text)
            .is_ok_and(|m| m != <Self::Game as BoardGame>::PASS)
    }
}

/// `Black` or `White`.
pub fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}
