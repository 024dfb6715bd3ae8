//! The games one engine plays ([`GameKind`]: `list_games` names them, `set_game` and
//! `--game` choose one), and what every front end that does not know a game's rules asks of
//! it ([`BoardGame`]): GoGui's ruler commands, the terminal board and the match referee.

use std::fmt;
use std::str::FromStr;

use crate::color::{ByColor, Color};

/// A game as the front ends see it: a board of points (squares), two colours taking turns,
/// moves written as text, a rule that ends the game. Each game's rules core implements it
/// (`go::Game`, `othello::Game`); what a front end needs beyond it (GoGui's graphics, the
/// count with dead stones, the terminal's diagrams) is the game's own.
pub trait BoardGame {
    type Move: Copy + PartialEq + fmt::Debug;

    /// The move that passes the turn.
    const PASS: Self::Move;

    fn kind(&self) -> GameKind;

    /// Points (squares) on a side of the board.
    fn size(&self) -> usize;

    fn to_move(&self) -> Color;

    /// The side to move's legal moves, top row first and left to right within a row, the
    /// pass last where it is legal (Go: always; Othello: only without a disc move); none
    /// once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// A move as GTP writes it (`D4`, `pass`), read on this board.
    ///
    /// # Errors
    /// Why the text is no move of this board, in words.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A move as GTP writes it.
    fn format_move(&self, m: Self::Move) -> String;

    /// Plays `m` for the side to move.
    ///
    /// # Errors
    /// Why the rules forbid it, in words; nothing changes.
    fn play(&mut self, m: Self::Move) -> Result<(), String>;

    /// Takes back the last move; `false` when there is none.
    fn undo(&mut self) -> bool;

    /// Moves played since the start, passes included.
    fn moves_played(&self) -> usize;

    /// Whether the rules have ended the game (Go: two passes in a row; Othello: no move for
    /// either side).
    fn is_over(&self) -> bool;

    /// The board, one string per row, top row first, one character per point: `X` Black,
    /// `O` White, `.` empty.
    fn rows(&self) -> Vec<String>;

    /// What each colour has taken from the other: Go's prisoners, Othello's discs turned
    /// over.
    fn captured(&self) -> ByColor<u32>;
}

/// A game the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameKind {
    #[default]
    Go,
    Othello,
}

impl GameKind {
    /// In the order `list_games` answers them.
    pub const ALL: [GameKind; 2] = [GameKind::Go, GameKind::Othello];

    /// The name GTP front ends use (Quarry and Edax send `Othello`).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Go => "Go",
            GameKind::Othello => "Othello",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game name other than `Go` or `Othello` (GTP's `unsupported game`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedGame;

impl fmt::Display for UnsupportedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unsupported game")
    }
}

impl std::error::Error for UnsupportedGame {}

/// Case-insensitive: `Othello`, `othello`, `go`; `Reversi` is Othello under its other name.
impl FromStr for GameKind {
    type Err = UnsupportedGame;
    fn from_str(s: &str) -> Result<GameKind, UnsupportedGame> {
        if s.eq_ignore_ascii_case("reversi") {
            return Ok(GameKind::Othello);
        }
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or(UnsupportedGame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_in_any_case() {
        assert_eq!("Othello".parse(), Ok(GameKind::Othello));
        assert_eq!("OTHELLO".parse(), Ok(GameKind::Othello));
        assert_eq!("reversi".parse(), Ok(GameKind::Othello));
        assert_eq!("go".parse(), Ok(GameKind::Go));
        assert_eq!("chess".parse::<GameKind>(), Err(UnsupportedGame));
    }
}
