//! Playouts: games finished from a position with fast moves, until two passes.
//!
//! - [`random_move`]: uniformly random legal moves that do not fill the mover's own eyes,
//!   the baseline for speed measurements;
//! - the playout loop that the policy's playouts (`policy::policy_playout`) share.
//!
//! Both refuse a capture that brings back a position of the playout ([`Recent`]).
//!
//! This file holds the loop and the light playouts; the [`policy`] the tree search plays its
//! playouts with builds on it, and `replies` holds the last good replies it learns.

mod atari;
mod candidates;
mod ko;
pub(crate) mod last_moves;
mod nakade;
pub(crate) mod params;
pub mod policy;
mod quick_ladder;
mod random;
mod replies;
mod two_libs;

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::{Move, Point};
use crate::rng::Rng;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Moves played, passes included.
    pub moves: usize,
    /// Whether it stopped at the move cap rather than at two passes.
    pub capped: bool,
}

/// The move cap is `MOVE_CAP_PER_POINT` moves per point plus `MOVE_CAP_EXTRA`: a safety net
/// only, since the superko check below already rules out cycles. Tiny boards need the extra:
/// a 2x2 game fills and empties its four points many times.
pub const MOVE_CAP_PER_POINT: usize = 3;
pub const MOVE_CAP_EXTRA: usize = 64;

/// The move cap for playouts on `board`.
pub fn move_cap(board: &Board) -> usize {
    MOVE_CAP_PER_POINT * board.geometry().num_points() + MOVE_CAP_EXTRA
}

/// The positions a playout has passed through, so that a capture may not repeat one
/// (positional superko). Random players retake kos at once: with the ko point alone, two or
/// more kos on the board make them cycle until the move cap, and a window of the last few
/// positions misses the long cycles of several kos (how often: doc/benchmarks.md).
///
/// An open-addressing set of hashes sized for a playout's move cap. It remembers which
/// slots it filled, so a reset costs one write per position rather than a full memset.
#[derive(Clone, Debug)]
pub struct Recent {
    slots: Vec<u64>,
    mask: usize,
    used: Vec<u32>,
}

impl Recent {
    /// A set for a playout from `board`, holding `board`'s position.
    pub fn new(board: &Board) -> Recent {
        let mut set = Recent {
            slots: Vec::new(),
            mask: 0,
            used: Vec::new(),
        };
        set.reset(board);
        set
    }

    /// Forgets every position but `board`'s, ready for a playout from it.
    pub fn reset(&mut self, board: &Board) {
        let capacity = (2 * move_cap(board)).next_power_of_two();
        if self.slots.len() != capacity {
            self.slots = vec![0; capacity];
            self.mask = capacity - 1;
        } else {
            for &i in &self.used {
                self.slots[i as usize] = 0;
            }
        }
        self.used.clear();
        self.push(board.hash());
    }

    /// Adds a position. Zero marks a free slot, so the (empty-board) hash 0 is stored as 1:
    /// a collision that costs at most one wrongly refused move per 2^64.
    #[inline]
    pub fn push(&mut self, hash: u64) {
        let hash = hash.max(1);
        let mut i = (hash as usize) & self.mask;
        loop {
            let slot = self.slots[i];
            if slot == hash {
                return;
            }
            if slot == 0 {
                self.slots[i] = hash;
                self.used.push(i as u32);
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    #[inline]
    pub fn contains(&self, hash: u64) -> bool {
        let hash = hash.max(1);
        let mut i = (hash as usize) & self.mask;
        loop {
            match self.slots[i] {
                0 => return false,
                s if s == hash => return true,
                _ => i = (i + 1) & self.mask,
            }
        }
    }
}

/// A uniformly random legal move for `c` that does not fill one of its own one-point eyes
/// and does not capture back into a position in `recent` (positional superko), or a pass when there is none.
/// Suicide is never chosen, whatever the rules allow: it is never a useful random move.
#[inline]
pub fn random_move(board: &Board, c: Color, rng: &mut Rng, recent: &Recent) -> Move {
    first_from_random_start(board.empties(), rng, |p| {
        match board.playout_candidate(c, p) {
            None => false,
            // Only a capture can bring back an earlier position.
            Some(true) => !recent.contains(board.hash_after(c, p)),
            Some(false) => true,
        }
    })
    .map_or(Move::Pass, Move::Play)
}

/// The first of `points` that passes `accept`, scanning from a random start so that every
/// acceptable point is equally likely to be met first.
#[inline]
fn first_from_random_start(
    points: &[Point],
    rng: &mut Rng,
    mut accept: impl FnMut(Point) -> bool,
) -> Option<Point> {
    let n = points.len();
    if n == 0 {
        return None;
    }
    let mut i = rng.below(n);
    for _ in 0..n {
        let p = points[i];
        if accept(p) {
            return Some(p);
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
    None
}

/// Plays random moves on `board`, starting with `to_move`, until two consecutive passes or
/// the move cap. `recent` is reset here; it is passed in so its buffers are reused.
pub fn random_playout(
    board: &mut Board,
    to_move: Color,
    rng: &mut Rng,
    recent: &mut Recent,
) -> PlayoutEnd {
    play_out(board, to_move, recent, |b, c, _, recent| {
        random_move(b, c, rng, recent)
    })
}

/// The playout loop: `choose(board, colour, last move's point, recent)` picks each move.
#[inline]
pub(crate) fn play_out(
    board: &mut Board,
    to_move: Color,
    recent: &mut Recent,
    mut choose: impl FnMut(&Board, Color, Option<Point>, &Recent) -> Move,
) -> PlayoutEnd {
    let cap = move_cap(board);
    recent.reset(board);
    let mut c = to_move;
    let mut passes = 0;
    let mut last = None;
    for moves in 0..cap {
        let m = choose(board, c, last, recent);
        board.play_unchecked(c, m);
        recent.push(board.hash());
        last = m.point();
        passes = if m == Move::Pass { passes + 1 } else { 0 };
        if passes == 2 {
            return PlayoutEnd {
                moves: moves + 1,
                capped: false,
            };
        }
        c = c.other();
    }
    PlayoutEnd {
        moves: cap,
        capped: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};

    #[test]
    fn playouts_end_by_passes_and_leave_a_consistent_board() {
        for topology in [Topology::Plane, Topology::Torus] {
            for size in [2, 3, 5, 9, 19] {
                let geo = Geometry::get(size, topology).unwrap();
                let mut rng = Rng::new(size as u64);
                let mut recent = Recent::new(&Board::new(geo));
                let mut capped = 0;
                for _ in 0..(if size > 9 { 3 } else { 20 }) {
                    let mut b = Board::new(geo);
                    let end = random_playout(&mut b, Color::Black, &mut rng, &mut recent);
                    b.check_consistency().unwrap();
                    assert!(end.moves > 0);
                    capped += end.capped as usize;
                }
                assert_eq!(capped, 0, "{size}x{size} {topology}: playouts hit the cap");
            }
        }
    }
}
