//! Perft: counting legal move sequences, to check the rules against known counts.

use crate::go::game::Game;
use crate::go::point::Move;

/// The number of legal move sequences of exactly `depth` plies from the current position.
///
/// The colours alternate starting with [`Game::to_move`]; every ply is a play legal under the
/// game's rules or a pass, which is always legal. No ply follows two consecutive passes (those
/// already at the end of the game's history included), so a sequence that ends by two passes
/// before `depth` plies is not counted, while one whose last two plies are passes is.
/// `perft(game, 0)` is 1.
///
/// The game is played forward with [`Game::play`] and restored with [`Game::undo`]; it is
/// unchanged on return. At the last ply legal moves are only counted with
/// [`Game::is_legal`], not played.
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.consecutive_passes() >= 2 {
        return 0;
    }
    let c = game.to_move();
    let geo = game.geometry();
    if depth == 1 {
        // The pass is always legal.
        return 1 + geo
            .points()
            .filter(|&p| game.is_legal(c, Move::Play(p)))
            .count() as u64;
    }
    let mut total = 0;
    for m in geo.points().map(Move::Play).chain([Move::Pass]) {
        if game.play(c, m).is_ok() {
            total += perft(game, depth - 1);
            // Cannot fail: the play just above put an entry on the history.
            game.undo().expect("undo after a successful play");
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Rules;

    #[test]
    fn counts_the_first_plies_of_the_smallest_board() {
        let mut g = Game::new(2, Rules::default(), 0.0).unwrap();
        assert_eq!(
            (0..=3).map(|d| perft(&mut g, d)).collect::<Vec<_>>(),
            [1, 5, 21, 68]
        );
        assert_eq!(g.history_len(), 0);
    }

    #[test]
    fn nothing_follows_two_passes() {
        let mut g = Game::new(2, Rules::default(), 0.0).unwrap();
        g.play(crate::Color::Black, Move::Pass).unwrap();
        g.play(crate::Color::White, Move::Pass).unwrap();
        assert_eq!(perft(&mut g, 0), 1);
        assert_eq!(perft(&mut g, 3), 0);
    }
}
