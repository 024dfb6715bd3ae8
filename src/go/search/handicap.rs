//! Handicap games searched as strong players play them: a dynamic komi.
//!
//! Counted as it stands, a 6-stone game is lost for White from the first move: nearly
//! every simulation ends in a loss, every move looks as bad as every other, and a search
//! that cannot tell moves apart plays at random and resigns. Given the stones, Black's
//! simulations all win, and a search that sees no move lose plays slack. Monte-Carlo
//! engines answer both the same way (Pachi's `dynkomi`): the search counts its simulations
//! with extra komi for White, a share of what the stones are worth, fading to nothing over
//! the opening; the game goes on being counted with the real komi. White then plays for
//! the moves that win back the most, Black for those that keep its lead.
//!
//! While the extra komi is in force the value head, which has learnt the game at the real
//! komi (its training komi run from 5.5 to 8.5: far from a handicap's 40 points), gives
//! no virtual visits, the playouts value the nodes alone; and nobody resigns.

use crate::go::game::Game;
use crate::go::search::params::Tunables;

/// White's extra komi in the search of `game` now: `handicap_komi` points a handicap stone
/// at the start, falling in a straight line to 0 after `handicap_komi_fade` times the
/// board's points of moves. 0 in an even game.
pub(crate) fn dynamic_komi(game: &Game, t: &Tunables) -> f64 {
    let stones = game.handicap_stones();
    if stones == 0 || t.handicap_komi <= 0.0 {
        return 0.0;
    }
    let fade = f64::from(t.handicap_komi_fade) * game.geometry().num_points() as f64;
    let played = game.moves().count() as f64;
    let left = (1.0 - played / fade.max(1.0)).max(0.0);
    f64::from(t.handicap_komi) * stones as f64 * left
}

/// A game from `stones` of GNU Go's fixed handicap stones on a `size` board (none: an
/// empty board), Chinese rules, komi 7.5, White to move after two or more stones.
#[cfg(test)]
pub(crate) fn handicap_game(size: usize, stones: usize) -> Game {
    use crate::color::Color;
    use crate::go::board::Board;
    use crate::go::geometry::{Geometry, Topology};
    use crate::go::rules::Rules;
    let geo = Geometry::get(size, Topology::Plane).unwrap();
    let mut cells = vec![None; geo.num_points()];
    for p in crate::go::handicap::fixed(geo, stones).unwrap_or_default() {
        cells[p.index()] = Some(Color::Black);
    }
    let board = Board::from_stones(geo, &cells).unwrap();
    let to_move = if stones > 1 {
        Color::White
    } else {
        Color::Black
    };
    Game::with_position(board, to_move, Rules::default(), 7.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::go::point::Move;

    #[test]
    fn extra_komi_fades_over_the_opening_and_is_none_in_an_even_game() {
        let t = Tunables {
            handicap_komi: 7.0,
            handicap_komi_fade: 0.5,
            ..Tunables::default()
        };
        let mut g = handicap_game(19, 6);
        assert_eq!(dynamic_komi(&g, &t), 42.0);
        // Half of the 180.5 moves it fades over.
        let mut c = Color::White;
        for _ in 0..90 {
            g.play(c, Move::Pass).unwrap();
            c = c.other();
        }
        let half = dynamic_komi(&g, &t);
        assert!((half - 42.0 * (1.0 - 90.0 / 180.5)).abs() < 1e-9, "{half}");
        for _ in 0..91 {
            g.play(c, Move::Pass).unwrap();
            c = c.other();
        }
        assert_eq!(dynamic_komi(&g, &t), 0.0);
        assert_eq!(dynamic_komi(&handicap_game(19, 0), &t), 0.0);
        let off = Tunables {
            handicap_komi: 0.0,
            ..Tunables::default()
        };
        assert_eq!(dynamic_komi(&handicap_game(19, 9), &off), 0.0);
    }
}
