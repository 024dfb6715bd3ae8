//! Playouts: games finished from a position with fast moves, until two passes.
//!
//! - [`random_move`]: uniformly random legal moves that do not fill the mover's own eyes,
//!   the baseline for speed measurements;
//! - [`policy_move`]: the tree search's playout policy, a little tactics and shape before
//!   the random move (Pachi's "moggy" in miniature).
//!
//! Both refuse a capture that brings back a position of the playout ([`Recent`]).

use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};
use crate::rng::Rng;
use crate::search::params::Tunables;
use crate::search::patterns;

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
/// more kos on the board make them cycle forever (15% of 9x9 and 63% of 19x19 playouts hit
/// the move cap that way; a window of the last 8 positions still left 20% on 19x19, where
/// four kos give cycles of 100 moves and more).
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

/// A playout move with a little tactics (Pachi's "moggy" policy in miniature), tried in
/// this order:
/// 1. capture an opponent chain in atari at or next to the last move;
/// 2. save an own chain the last move put in atari: capture one of its attackers in atari,
///    or extend at its liberty when that gives it at least two liberties;
/// 3. with probability `t.pattern_reply_percent`, a move around the last one that fits a
///    3x3 shape pattern (`patterns`);
/// 4. a random legal move.
///
/// Moves of steps 3 and 4 fill no own eye shape and put no chain of two or more stones in
/// atari (one-stone throw-ins stay possible).
///
/// Random playouts otherwise let every wall die and every territory be invaded, which makes
/// their ownership useless for telling dead stones from live ones at the end of a game.
pub fn policy_move(
    board: &Board,
    c: Color,
    last: Option<Point>,
    rng: &mut Rng,
    recent: &Recent,
    t: &Tunables,
) -> Move {
    let playable = |p: Point| match board.playout_candidate(c, p) {
        None => false,
        Some(true) => !recent.contains(board.hash_after(c, p)),
        Some(false) => true,
    };
    if let Some(last) = last.filter(|&l| board.get(l).is_some()) {
        let geo = board.geometry();
        let around = std::iter::once(last).chain(geo.neighbours(last).iter().copied());
        // 1. Capture.
        let mut best: Option<(usize, Point)> = None;
        for q in around.clone() {
            if board.get(q) == Some(c.other()) && board.liberty_count(q) == 1 {
                let size = board.chain_len(q);
                if let Some(l) = board.first_liberty(q)
                    && best.is_none_or(|(s, _)| size > s)
                    && playable(l)
                {
                    best = Some((size, l));
                }
            }
        }
        if let Some((_, l)) = best {
            return Move::Play(l);
        }
        // 2. Save.
        for q in geo.neighbours(last).iter().copied() {
            if board.get(q) != Some(c) || board.liberty_count(q) != 1 {
                continue;
            }
            for s in board.chain_stones(q) {
                for &t in geo.neighbours(s) {
                    if board.get(t) == Some(c.other())
                        && board.liberty_count(t) == 1
                        && let Some(l) = board.first_liberty(t)
                        && playable(l)
                    {
                        return Move::Play(l);
                    }
                }
            }
            if let Some(l) = board.first_liberty(q)
                && board.liberties_after(c, l).is_none_or(|n| n >= 2)
                && playable(l)
            {
                return Move::Play(l);
            }
        }
    }
    let sensible = |p: Point| playable(p) && !board.is_chain_self_atari(c, p);
    // 3. Usually a shape reply next to the last move (a MoGo 3x3 pattern): fights stay
    // local and get answered as players answer them.
    if let Some(last) = last
        && rng.below(100) < t.pattern_reply_percent
    {
        let mut near = [Point::from_index(0); 8];
        let mut count = 0;
        for &q in board.geometry().ring(last).iter().flatten() {
            if board.get(q).is_none() && patterns::matches(board, q) {
                near[count] = q;
                count += 1;
            }
        }
        if let Some(p) = first_from_random_start(&near[..count], rng, &sensible) {
            return Move::Play(p);
        }
    }
    // 4. Random, without self-atari of a chain.
    first_from_random_start(board.empties(), rng, sensible).map_or(Move::Pass, Move::Play)
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

/// Plays `policy_move`s on `board`, like `random_playout`.
pub fn policy_playout(
    board: &mut Board,
    to_move: Color,
    rng: &mut Rng,
    recent: &mut Recent,
    t: &Tunables,
) -> PlayoutEnd {
    play_out(board, to_move, recent, |b, c, last, recent| {
        policy_move(b, c, last, rng, recent, t)
    })
}

/// The playout loop: `choose(board, colour, last move's point, recent)` picks each move.
#[inline]
fn play_out(
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
    use crate::geometry::{Geometry, Topology};

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
