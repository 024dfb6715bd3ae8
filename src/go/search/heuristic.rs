//! The heuristic move chooser: ladder-aware tactics first, then a shape/territory choice.
//!
//! # Priority
//! 1. **Capture** an opponent chain in atari, preferring the capture that saves own chains in
//!    atari next to it, then the largest. A capture that walks into a snapback (the capturing
//!    chain is left in atari and the opponent retakes more) is not a capture.
//! 2. **Save** an own chain in atari when reading says it can really be saved: the saving
//!    move comes from `defend`, so extending into a working ladder (a wasted move) is never
//!    chosen, and capturing an attacker is chosen where that is the escape. Between 1 and 2
//!    the larger number of stones wins (a capture counts its stones plus the own stones it
//!    saves); on a tie the capture.
//! 3. **Attack**: atari an opponent chain with two liberties when the strict ladder works,
//!    otherwise any attack that reading proves (a net, a snapback); or **defend** an own chain
//!    with two liberties that the opponent could take that way. The larger chain first; on a
//!    tie the attack.
//! 4. Every other move must not be a self-atari (unless it captures or is a real snapback),
//!    must not extend an own chain that reading gave up in 2, and must not be an own
//!    one-point eye (**never fill own eyes**; true eyes are refused in 1-3 too).
//! 5. Among those: a **shape/territory** choice by a simple score: the third and fourth lines
//!    on a plane, open areas while the board is empty, contested points near both colours,
//!    pressure on weak opponent chains, liberties of the new stone; settled areas (empty
//!    regions reached by one colour only, small enough to be someone's territory, and points
//!    deep in one colour's sphere) are left alone. A new stone that a ladder would take is
//!    refused. The seeded RNG only breaks near-ties.
//! 6. **Pass** when nothing is left.
//!
//! Every candidate is checked with `Game::is_legal` (superko included), so the move is legal
//! under the game's rules; the result is a pure function of the game, colour and RNG state,
//! so `reg_genmove` with the fixed seed is deterministic.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::game::Game;
use crate::go::geometry::{Geometry, Topology};
use crate::go::point::{Move, Point};
use crate::go::score::settled_points;
use crate::go::tactics::chains::{chain_heads, is_snapback, liberties_after};
use crate::go::tactics::{Budget, Outcome, attack, defend, ladder_attack};
use crate::rng::Rng;

// Tunables.

/// Nodes each reading query of the heuristic player may use: it asks a few per weak chain.
pub const MOVEGEN_NODES: u32 = 10_000;
/// Seed of GTP's `reg_genmove` (GNU Go seeds it with 0).
pub const REG_GENMOVE_SEED: u64 = 0;
/// An empty region reached by one colour only and at most this many points per board line
/// counts as that colour's territory.
const TERRITORY_POINTS_PER_LINE: usize = 2;
/// Candidates of step 5 checked for a ladder on the new stone, best first.
const LADDER_CHECKS: usize = 12;

/// Why the move was chosen: which step of the priority list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reason {
    Capture,
    Save,
    Attack,
    Defend,
    Shape,
    Pass,
}

/// A chosen move and the reason for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Choice {
    pub mv: Move,
    pub reason: Reason,
}

/// The move `color` should play in `game`; see the module documentation for the priorities.
pub fn genmove(game: &Game, color: Color, rng: &mut Rng) -> Move {
    choose(game, color, rng).mv
}

/// Like [`genmove`], with the reason.
pub fn choose(game: &Game, color: Color, rng: &mut Rng) -> Choice {
    let found = tactics(game, color);
    if let Some(choice) = found.best() {
        return choice;
    }
    // Steps 4 and 5.
    match shape_move(game, color, rng, &found.hopeless, &found.dead) {
        Some(p) => Choice {
            mv: Move::Play(p),
            reason: Reason::Shape,
        },
        None => Choice {
            mv: Move::Pass,
            reason: Reason::Pass,
        },
    }
}

/// What reading finds on the chains with one or two liberties, for `color` to move: each
/// move with the number of stones it takes or keeps.
#[derive(Default, Debug)]
pub struct Tactics {
    /// Captures of opponent chains in atari (stones taken plus own stones freed).
    pub captures: Vec<(usize, Point)>,
    /// Moves that save an own chain in atari, as reading finds them.
    pub saves: Vec<(usize, Point)>,
    /// Moves that capture an opponent chain of two liberties (ladder, net, snapback).
    pub attacks: Vec<(usize, Point)>,
    /// Moves that save an own chain of two liberties that the opponent could take.
    pub defences: Vec<(usize, Point)>,
    /// Liberties of own chains that reading gave up: extending there is a wasted move.
    hopeless: Vec<Point>,
    /// Opponent stones that are as good as captured: they give no influence.
    dead: Vec<Point>,
}

impl Tactics {
    /// Steps 1 to 3 of the module documentation: the tactical move [`choose`] plays, if
    /// reading found any.
    pub fn best(&self) -> Option<Choice> {
        let best = |v: &[(usize, Point)]| {
            v.iter()
                .copied()
                .max_by_key(|&(n, p)| (n, std::cmp::Reverse(p)))
        };
        let choice = |p, reason| {
            Some(Choice {
                mv: Move::Play(p),
                reason,
            })
        };
        // Steps 1 and 2: the larger of the best capture and the best save; a tie to the
        // capture.
        match (best(&self.captures), best(&self.saves)) {
            (Some((c, p)), s) if s.is_none_or(|(n, _)| c >= n) => {
                return choice(p, Reason::Capture);
            }
            (_, Some((_, p))) => return choice(p, Reason::Save),
            _ => {}
        }
        // Step 3, the same between attacks and defences.
        match (best(&self.attacks), best(&self.defences)) {
            (Some((a, p)), d) if d.is_none_or(|(n, _)| a >= n) => choice(p, Reason::Attack),
            (_, Some((_, p))) => choice(p, Reason::Defend),
            _ => None,
        }
    }

    /// Every capture, save, attack and defence found.
    pub fn moves(&self) -> impl Iterator<Item = Point> + '_ {
        [&self.captures, &self.saves, &self.attacks, &self.defences]
            .into_iter()
            .flatten()
            .map(|&(_, p)| p)
    }
}

/// The tactical moves of `color` in `game` (what steps 1 to 3 of the module documentation
/// choose from), each legal and none an own true eye.
pub fn tactics(game: &Game, color: Color) -> Tactics {
    let b = game.board();
    let budget = Budget::with_nodes(MOVEGEN_NODES);
    let legal = |p: Point| game.is_legal(color, Move::Play(p)) && !b.is_true_eye(color, p);
    let mut t = Tactics::default();
    for head in chain_heads(b) {
        let Some(owner) = b.get(head) else { continue };
        let size = b.chain_len(head);
        match (owner == color, b.liberty_count(head)) {
            (false, 1) => {
                let Some(p) = b.first_liberty(head) else {
                    continue;
                };
                if legal(p) && !walks_into_snapback(b, color, p) {
                    t.captures
                        .push((size + saved_by_capture(b, color, head), p));
                }
                t.dead.extend(b.chain_stones(head));
            }
            (true, 1) => match defend(b, head, budget) {
                (Outcome::Win | Outcome::KoWin, Some(p)) if legal(p) => t.saves.push((size, p)),
                _ => t.hopeless.extend(b.first_liberty(head)),
            },
            (false, 2) => {
                let found = match ladder_attack(b, head) {
                    (Outcome::Win, Some(p)) => Some(p),
                    _ => match attack(b, head, budget) {
                        (Outcome::Win, Some(p)) => Some(p),
                        _ => None,
                    },
                };
                if let Some(p) = found.filter(|&p| legal(p)) {
                    t.attacks.push((size, p));
                }
            }
            (true, 2) if attack(b, head, budget).0 == Outcome::Win => {
                if let (Outcome::Win, Some(p)) = defend(b, head, budget)
                    && legal(p)
                {
                    t.defences.push((size, p));
                }
            }
            _ => {}
        }
    }
    t
}

/// Own stones in atari next to the opponent chain on `head`: capturing it saves them.
fn saved_by_capture(b: &Board, color: Color, head: Point) -> usize {
    let mut saved = 0;
    let mut seen = Vec::new();
    for e in crate::go::tactics::chains::adjacent_enemies(b, head) {
        if b.get(e) == Some(color) && b.liberty_count(e) == 1 && !seen.contains(&e) {
            seen.push(e);
            saved += b.chain_len(e);
        }
    }
    saved
}

/// Whether capturing at `p` leaves the capturing chain in atari where the opponent retakes
/// more than was taken (a snapback), so that the capture loses stones.
fn walks_into_snapback(b: &Board, color: Color, p: Point) -> bool {
    let mut after = b.clone();
    let taken = after.play_unchecked(color, Move::Play(p)).captured as usize;
    after.get(p) == Some(color) && after.liberty_count(p) == 1 && after.chain_len(p) > taken
}

/// Step 5: the best-scoring acceptable point, or `None` when none is left.
fn shape_move(
    game: &Game,
    color: Color,
    rng: &mut Rng,
    hopeless: &[Point],
    dead: &[Point],
) -> Option<Point> {
    let b = game.board();
    let geo = b.geometry();
    let settled = settled_points(b, TERRITORY_POINTS_PER_LINE * b.size());
    let stones = b.stone_count(Color::Black) + b.stone_count(Color::White);
    let opening = stones * 8 < geo.num_points();
    let live = |q: Point| b.get(q).filter(|_| !dead.contains(&q));
    let mut scored: Vec<(f64, Point)> = Vec::new();
    for &p in b.empties() {
        if settled[p.index()]
            || hopeless.contains(&p) && !b.captures_something(color, p)
            || b.is_eye_shape(color, p)
            || !game.is_legal(color, Move::Play(p))
        {
            continue;
        }
        let libs = liberties_after(b, color, p, 4);
        if libs <= 1 && !b.captures_something(color, p) && !is_snapback(b, color, p) {
            continue;
        }
        // Stones nearby, by colour: the point's sphere.
        let (mut own, mut opp, mut nearest) = (0usize, 0usize, usize::MAX);
        for q in geo.points() {
            let Some(c) = live(q) else { continue };
            let d = distance(geo, p, q);
            nearest = nearest.min(d);
            if d <= 2 {
                if c == color {
                    own += 1;
                } else {
                    opp += 1;
                }
            }
        }
        // Deep in one colour's sphere: own territory, or a hopeless invasion.
        if (opp == 0 && own >= 3) || (own == 0 && opp >= 4) {
            continue;
        }
        let mut score = line_score(geo, p) + 0.5 * libs as f64;
        if opening {
            score += nearest.min(4) as f64;
        } else if own > 0 && opp > 0 {
            score += 2.0;
        }
        for &q in geo.neighbours(p) {
            if let Some(c) = live(q) {
                let l = b.liberty_count(q);
                if c != color && l <= 3 && libs >= 3 {
                    score += 1.5; // pressure on a weak opponent chain
                } else if c == color && l == 2 && libs >= 3 {
                    score += 1.5; // more room for a weak own chain
                }
            }
        }
        score += 0.25 * rng.unit();
        scored.push((score, p));
    }
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let first = scored.first().map(|&(_, p)| p);
    // Refuse a new stone that a ladder would take; if every checked one would, keep the best.
    for &(_, p) in scored.iter().take(LADDER_CHECKS) {
        if liberties_after(b, color, p, 3) != 2 {
            return Some(p);
        }
        let mut after = b.clone();
        after.play_unchecked(color, Move::Play(p));
        if after.get(p) == Some(color) && !ladder_attack(&after, p).0.succeeds() {
            return Some(p);
        }
    }
    first
}

/// Manhattan distance, wrapping on a torus.
fn distance(geo: &Geometry, p: Point, q: Point) -> usize {
    let (px, py) = geo.xy(p);
    let (qx, qy) = geo.xy(q);
    let (dx, dy) = (px.abs_diff(qx), py.abs_diff(qy));
    match geo.topology() {
        Topology::Plane => dx + dy,
        Topology::Torus => dx.min(geo.size() - dx) + dy.min(geo.size() - dy),
    }
}

/// Which line the point is on: the third and fourth lines are best on a plane (the centre
/// on small boards); a torus has no lines.
fn line_score(geo: &Geometry, p: Point) -> f64 {
    if geo.topology() == Topology::Torus {
        return 0.0;
    }
    let n = geo.size();
    let (x, y) = geo.xy(p);
    let line = x.min(y).min(n - 1 - x).min(n - 1 - y);
    if n < 9 {
        return line as f64;
    }
    match line {
        0 => -4.0,
        1 => -1.0,
        2 => 3.0,
        3 if n >= 13 => 3.0,
        _ => 1.0,
    }
}
