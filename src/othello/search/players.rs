//! The simple players: the classic greedy rule and uniform random moves. (The strong one is
//! the [`Searcher`](crate::othello::Searcher).)

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::rng::Rng;

use crate::othello::board::Board;
use crate::othello::coord::Square;

/// The classic greedy rule, exactly: the legal move that turns the most discs over; among
/// equals the smallest row (top first), then the smallest column. `None`: `color` must pass.
pub fn greedy_move(board: &Board, color: Color) -> Option<Square> {
    let mut best: Option<(u32, Square)> = None;
    // Legal moves come in reading order, so keeping the first of equals is the tie-break.
    for s in board.legal_moves(color) {
        let n = board.flip_count(color, s);
        if best.is_none_or(|(m, _)| n > m) {
            best = Some((n, s));
        }
    }
    best.map(|(_, s)| s)
}

/// A uniformly random legal move. `None`: `color` must pass.
pub fn random_move(board: &Board, color: Color, rng: &mut Rng) -> Option<Square> {
    let moves = board.legal_moves(color);
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// Which player chooses the moves (`--player` in Othello mode).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PlayerKind {
    /// The searcher (the default).
    #[default]
    Searcher,
    Greedy,
    Random,
}

impl PlayerKind {
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Searcher => "searcher",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Random => "random",
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name is not `searcher`, `greedy` or `random`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UnknownPlayer;

impl fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown player (searcher, greedy or random)")
    }
}

impl std::error::Error for UnknownPlayer {}

impl FromStr for PlayerKind {
    type Err = UnknownPlayer;
    fn from_str(s: &str) -> Result<PlayerKind, UnknownPlayer> {
        [PlayerKind::Searcher, PlayerKind::Greedy, PlayerKind::Random]
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownPlayer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_breaks_ties_top_row_first() {
        // From the start every move flips one disc: d3 is the first in reading order.
        let b = Board::new(8).unwrap();
        assert_eq!(greedy_move(&b, Color::Black), Square::parse("d3", 8).ok());
        assert_eq!(greedy_move(&b, Color::White), Square::parse("e3", 8).ok());
    }

    #[test]
    fn random_moves_are_legal_and_seeded() {
        let b = Board::new(8).unwrap();
        let mut r1 = Rng::new(3);
        let mut r2 = Rng::new(3);
        for _ in 0..20 {
            let m = random_move(&b, Color::Black, &mut r1);
            assert_eq!(m, random_move(&b, Color::Black, &mut r2));
            assert!(b.is_legal(Color::Black, m.unwrap()));
        }
    }

    #[test]
    fn player_names_parse() {
        assert_eq!("Greedy".parse(), Ok(PlayerKind::Greedy));
        assert_eq!("searcher".parse(), Ok(PlayerKind::Searcher));
        assert_eq!("gnugo".parse::<PlayerKind>(), Err(UnknownPlayer));
    }
}
