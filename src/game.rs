//! The games one engine plays: `list_games` names them, `set_game` and `--game` choose one.

use std::fmt;
use std::str::FromStr;

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
