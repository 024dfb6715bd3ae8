//! Rule 7 of the playout policy, the move when no other rule has one: random, but neither an
//! own true eye nor (most of the time) a bad self-atari, and drawn first from the open parts
//! of the board, where a random move is never wrong early in a playout.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::search::playout::Recent;
use crate::go::search::playout::candidates::{chance, playable};
use crate::go::search::playout::params::PolicyParams;
use crate::go::tactics::self_atari::is_bad_self_atari;
use crate::rng::Rng;

/// Rule 7: a random move. First a few draws of points whose whole 3x3 neighbourhood is
/// empty (quick, and never wrong early in a playout), then a scan from a random start for
/// the first point that is playable and not a bad self-atari (refused `self_atari_percent`
/// of the time).
pub(super) fn random_move(
    board: &Board,
    c: Color,
    rng: &mut Rng,
    recent: &Recent,
    params: &PolicyParams,
) -> Option<Point> {
    let empties = board.empties();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let geo = board.geometry();
    for _ in 0..params.fill_board_tries {
        let p = empties[rng.below(n)];
        if geo
            .ring(p)
            .iter()
            .all(|q| q.is_some_and(|q| board.get(q).is_none()))
        {
            return Some(p);
        }
    }
    let refuse_self_atari = chance(rng, params.self_atari_percent);
    let mut i = rng.below(n);
    for _ in 0..n {
        let p = empties[i];
        if playable(board, c, p, recent) && !(refuse_self_atari && is_bad_self_atari(board, c, p)) {
            return Some(p);
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
    None
}
