//! What the policy's rules share: the small set of candidates a rule collects and draws
//! from, the dice that decide whether a rule fires, the test that a point may be played in a
//! playout, and the walks over the chains next to a chain.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::search::playout::Recent;
use crate::rng::Rng;

/// The most candidates one rule collects (more are dropped, which only narrows the choice).
const MAX_CANDIDATES: usize = 32;

/// A small set of candidate points, without allocation.
pub(super) struct Candidates {
    pub(super) points: [Point; MAX_CANDIDATES],
    pub(super) len: usize,
}

impl Candidates {
    pub(super) fn new() -> Candidates {
        Candidates {
            points: [Point::from_index(0); MAX_CANDIDATES],
            len: 0,
        }
    }

    pub(super) fn push(&mut self, p: Point) {
        if self.len < MAX_CANDIDATES && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    pub(super) fn pick(&self, rng: &mut Rng) -> Option<Point> {
        (self.len > 0).then(|| self.points[rng.below(self.len)])
    }
}

/// Whether a rule that fires `percent` of the time fires now. 0 and 100 draw nothing, so
/// that a rule switched off or always on leaves the RNG's sequence to the others.
#[inline]
pub(super) fn chance(rng: &mut Rng, percent: u32) -> bool {
    percent >= 100 || (percent > 0 && (rng.below(100) as u32) < percent)
}

/// Whether `c` may play the empty point `p` in a playout: legal on the board, not an own
/// true eye, and a capture brings back no position of the playout.
#[inline]
pub(super) fn playable(board: &Board, c: Color, p: Point, recent: &Recent) -> bool {
    match board.playout_candidate(c, p) {
        None => false,
        Some(true) => !recent.contains(board.hash_after(c, p)),
        Some(false) => true,
    }
}

/// Calls `f` with a stone of each opponent chain next to `c`'s chain on `own`, once per
/// chain while there are at most eight of them (a long chain touches the same neighbour
/// many times; past eight, some may come twice).
pub(super) fn for_each_opponent_chain_next_to(
    board: &Board,
    c: Color,
    own: Point,
    mut f: impl FnMut(Point),
) {
    let geo = board.geometry();
    let mut seen = SeenChains::<8>::new();
    for s in board.chain_stones(own) {
        for &t in geo.neighbours(s) {
            if board.get(t) != Some(c.other()) {
                continue;
            }
            if seen.first_visit(board.chain_head(t)) {
                f(t);
            }
        }
    }
}

/// The chains a rule has already looked at, by head, remembering the first `N`: past
/// them a chain may be looked at twice, which only repeats a candidate.
pub(super) struct SeenChains<const N: usize> {
    heads: [Point; N],
    len: usize,
}

impl<const N: usize> SeenChains<N> {
    pub(super) fn new() -> Self {
        SeenChains {
            heads: [Point::from_index(0); N],
            len: 0,
        }
    }

    /// Whether the chain with head `head` is met for the first time.
    pub(super) fn first_visit(&mut self, head: Point) -> bool {
        if self.heads[..self.len].contains(&head) {
            return false;
        }
        if self.len < N {
            self.heads[self.len] = head;
            self.len += 1;
        }
        true
    }
}

/// The capture of the opponent chain on `t`, in atari, when `c` may play it.
pub(super) fn push_capture(
    board: &Board,
    c: Color,
    t: Point,
    recent: &Recent,
    cands: &mut Candidates,
) {
    if let Some(lib) = board.first_liberty(t)
        && playable(board, c, lib, recent)
    {
        cands.push(lib);
    }
}
