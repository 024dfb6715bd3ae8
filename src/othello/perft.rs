//! Perft: the number of move sequences of a given length, to check the rules against the
//! published 8x8 counts and against the naive implementation in the tests.
//!
//! Conventions (those of the published 8x8 table): a pass is a move, played when and only
//! when the side to move has no disc move; after two passes in a row the game is over and
//! no sequence goes on. So a position where neither side can move still has one sequence of
//! one ply (the pass) and one of two (pass, pass), but none of three.

use crate::color::Color;

use crate::othello::bits::Bits;
use crate::othello::board::{Board, with_position};
use crate::othello::position::Pos;

/// Perft of the position `board` with `to_move` to play, `passes` (0..=2) passes having
/// just been played.
pub fn perft_board(board: &Board, to_move: Color, depth: u32, passes: u32) -> u64 {
    with_position!(board, to_move, |pos, shape| perft_pos(
        &pos, shape, depth, passes
    ))
}

/// Perft on a search position. The last ply is counted, not played ("bulk counting").
pub(crate) fn perft_pos<B: Bits>(pos: &Pos<B>, shape: &B::Shape, depth: u32, passes: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if passes >= 2 {
        return 0;
    }
    let moves = pos.moves(shape);
    if moves.is_empty() {
        return perft_pos(&pos.pass(), shape, depth - 1, passes + 1);
    }
    if depth == 1 {
        return moves.count() as u64;
    }
    moves
        .squares()
        .map(|i| perft_pos(&pos.play(i, pos.flips(i, shape)), shape, depth - 1, 0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_plies_of_8x8() {
        let b = Board::new(8).unwrap();
        let counts: Vec<u64> = (0..=5)
            .map(|d| perft_board(&b, Color::Black, d, 0))
            .collect();
        assert_eq!(counts, [1, 4, 12, 56, 244, 1396]);
    }

    #[test]
    fn a_finished_game_has_two_passes_left() {
        let mut b = Board::empty(4).unwrap();
        b.set(crate::othello::Square::new(0, 0), Some(Color::Black));
        for (d, n) in [(1, 1), (2, 1), (3, 0)] {
            assert_eq!(perft_board(&b, Color::White, d, 0), n, "depth {d}");
        }
        assert_eq!(perft_board(&b, Color::White, 1, 2), 0);
    }
}
