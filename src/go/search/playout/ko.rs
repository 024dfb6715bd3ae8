//! Rule 0 of the playout policy, the ko: once a recent ko's ban has lifted, its point is
//! played, by the side that took it to fill it and (`ko_moves` 2) by the other to retake it.
//! Random moves meet that point by chance only, so without the rule a playout's ko goes to
//! whoever took it first.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::search::playout::Recent;
use crate::go::search::playout::candidates::{chance, playable};
use crate::go::search::playout::last_moves::Last;
use crate::go::search::playout::params::PolicyParams;
use crate::go::tactics::self_atari::is_bad_self_atari;
use crate::rng::Rng;

/// Rule 0: the point of a recent ko whose ban has lifted.
pub(super) fn ko_move(
    params: &PolicyParams,
    board: &Board,
    c: Color,
    last: &Last,
    rng: &mut Rng,
    recent: &Recent,
) -> Option<Point> {
    let ko = last.ko?;
    let in_window = (1..=params.ko_moves).contains(&ko.moves_since);
    // A newer ko's ban is the board's; this rule is for the moves after one lifts.
    if !in_window || board.ko().is_some() || !chance(rng, params.ko_percent) {
        return None;
    }
    let p = ko.point;
    (board.get(p).is_none() && playable(board, c, p, recent) && !is_bad_self_atari(board, c, p))
        .then_some(p)
}
