//! The exact solver's search above the last few empties: principal-variation search at the
//! root's line, null-window search everywhere else, over a shared transposition table.
//!
//! At a node with `n` empties, in this order:
//! - stability cutoff: with a high enough alpha, the opponent's stable discs cap the score,
//!   and the cap may already be no better than alpha;
//! - the table: bounds that decide the window (only bounds as sure as the search: see
//!   [`EXACT`]), else the move that was best;
//! - in a selective search (`solve`'s passes before the exact one), at a null-window node:
//!   probcut, a shallow search with the solve's evaluation (the learnt tables by default)
//!   that lands far enough from alpha (tried on a side only when the static evaluation is
//!   not far on the other);
//! - enhanced transposition cutoff (from `ETC_EMPTIES` up): a child whose stored bound
//!   already refutes alpha ends the node before any child is searched;
//! - move ordering: the table's move, then, far from the end, by a shallow search of each
//!   child with the hand-written evaluation (deeper the more empties: Buro's and Edax's way of
//!   bringing the evaluation's knowledge into the solver), nearer the end fastest-first
//!   (the fewest replies left to the opponent, corners weighing more);
//! - the children, the first with the whole window and the rest with a null one, searched
//!   again on a fail high at a principal-variation node.
//!
//! Below `HASH_EMPTIES` the search goes on in `last_empties` (parity order, no table).
//!
//! Nodes, as Edax counts them: every position the search enters (the root, each child,
//! each position after a pass, down to the positions with one empty square, whose score is
//! counted without playing the last move), and every position of the shallow searches that
//! order moves. Table probes (those of enhanced transposition cutoffs too) are not nodes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

use crate::othello::bits::Bits;
use crate::othello::position::Pos;
use crate::othello::search::eval::{Evaluation, Masks, evaluate, evaluate_with, stable_discs};
use crate::othello::search::limits::Budget;
use crate::othello::search::tt::{EXACT, EndEntry, EndTable, NO_MOVE};

/// Above every final score (676 squares at most).
pub(crate) const INFINITY: i32 = 1000;
/// Below this many empties the table is not used (`last_empties`).
pub(crate) const HASH_EMPTIES: u32 = 7;
/// From this many empties, enhanced transposition cutoffs.
const ETC_EMPTIES: u32 = 9;
/// From this many empties, moves are ordered by shallow searches with the evaluation.
const EVAL_SORT_EMPTIES: u32 = 14;
/// From this many empties, a selective search's null-window nodes try probcut.
const PROBCUT_EMPTIES: u32 = 12;
// Fastest-first ordering (lower keys first), per unit of each term.
/// Per reply the opponent has after the move.
const ORDER_MOBILITY: i32 = 16;
/// Per corner among those replies (counted on top).
const ORDER_CORNER_REPLY: i32 = 16;
/// Per empty square next to the mover's discs after the move (the opponent's later moves).
const ORDER_POTENTIAL: i32 = 4;
/// Taken off for a move on a corner.
const ORDER_CORNER: i32 = 12;
/// With evaluation ordering: per reply the opponent has (on top of the evaluation, in
/// hundredths of a disc).
const EVAL_ORDER_MOBILITY: i32 = 200;

/// The seed of the position hash.
const HASH_SEED: u64 = 0x534f_4c56_4552_3031; // "SOLVER01"

/// A move at a node, with the key it is ordered by (lower first), its flips and, where
/// the table is used, the hash of the position after it (0 otherwise).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child<B> {
    pub key: i32,
    pub square: usize,
    pub flips: B,
    pub hash: u64,
}

/// The threads of one solve: how many cores are idle. A thread waiting for a split's helpers
/// to finish counts as idle (its core is), so the count may dip below zero for a moment
/// when it takes its core back while another thread holds it.
pub(crate) struct Pool {
    idle: AtomicIsize,
}

impl Pool {
    /// A pool for `threads` threads in all (the first is the caller's).
    pub fn new(threads: usize) -> Pool {
        Pool {
            idle: AtomicIsize::new(threads.saturating_sub(1) as isize),
        }
    }

    /// Takes up to `want` idle cores; how many it got.
    pub fn reserve(&self, want: usize) -> usize {
        let mut idle = self.idle.load(Ordering::Relaxed);
        loop {
            let take = idle.clamp(0, want as isize);
            if take == 0 {
                return 0;
            }
            match self.idle.compare_exchange_weak(
                idle,
                idle - take,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return take as usize,
                Err(now) => idle = now,
            }
        }
    }

    /// Gives one core back.
    pub fn release(&self) {
        self.idle.fetch_add(1, Ordering::AcqRel);
    }

    /// Takes one core back, whether or not one is idle.
    pub fn resume(&self) {
        self.idle.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The solver's state in one thread, for one board size.
pub(crate) struct Solver<'t, B: Bits> {
    pub shape: &'static B::Shape,
    pub masks: Masks<B>,
    pub full: B,
    pub table: &'t EndTable,
    /// The evaluation of the estimates: the root's guess and probcut (moves are ordered
    /// with the hand-written one: [`Leaves`]).
    pub(super) evaluation: Evaluation,
    /// The threads this solve may share work with (`None`: one thread).
    pub(super) pool: Option<&'t Pool>,
    /// Per number of empties, a buffer for the ordered moves (a pass keeps the empties, but
    /// the side that passed has no list).
    lists: Vec<Vec<Child<B>>>,
    /// The stop flags of the parallel splits this thread works under: any set unwinds it.
    pub(super) aborts: Vec<Arc<AtomicBool>>,
    pub(super) aborted: bool,
    /// Nodes at the last look at `aborts`.
    abort_check: u64,
    /// [`EXACT`], or a selective search's probcut confidence (tenths of the standard
    /// deviation of the evaluation's error the cut leaves as margin).
    pub(super) confidence: u8,
}

/// The hash of a position, for the table: both index and check key (two positions share
/// it with odds of 2^-64).
#[inline]
pub(crate) fn position_hash<B: Bits>(own: B, opp: B) -> u64 {
    mix(own.fold() ^ mix(opp.fold() ^ HASH_SEED))
}

/// MurmurHash3's finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z ^= z >> 33;
    z = z.wrapping_mul(0xff51_afd7_ed55_8ccd);
    z ^= z >> 33;
    z = z.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    z ^ (z >> 33)
}

impl<'t, B: Bits> Solver<'t, B> {
    pub fn new(
        shape: &'static B::Shape,
        table: &'t EndTable,
        evaluation: Evaluation,
    ) -> Solver<'t, B> {
        Solver {
            shape,
            masks: Masks::new(shape),
            full: B::full(shape),
            table,
            evaluation,
            pool: None,
            lists: Vec::new(),
            aborts: Vec::new(),
            aborted: false,
            abort_check: 0,
            confidence: EXACT,
        }
    }

    /// A solver for a helper thread of a split: this one's table, evaluation, threads and
    /// confidence, working under `aborts`.
    pub fn helper(&self, aborts: Vec<Arc<AtomicBool>>) -> Solver<'t, B> {
        let mut s = Solver::new(self.shape, self.table, self.evaluation.clone());
        s.pool = self.pool;
        s.confidence = self.confidence;
        s.aborts = aborts;
        s
    }

    /// Counts a node; true when the search must unwind (the budget, or a split's stop).
    #[inline]
    pub fn tick(&mut self, budget: &mut Budget) -> bool {
        if budget.tick() {
            return true;
        }
        if !self.aborts.is_empty() && budget.nodes >= self.abort_check + 256 {
            self.abort_check = budget.nodes;
            self.aborted = self.aborts.iter().any(|a| a.load(Ordering::Relaxed));
        }
        self.aborted
    }

    /// Whether the search is unwinding.
    #[inline]
    pub fn halted(&self, budget: &Budget) -> bool {
        self.aborted || budget.exhausted()
    }

    /// The final score of `pos` with `n` empties, by principal-variation search in the window
    /// `alpha..beta`: exact inside it, a bound at or outside it.
    pub fn pvs(
        &mut self,
        pos: &Pos<B>,
        mut alpha: i32,
        beta: i32,
        n: u32,
        budget: &mut Budget,
    ) -> i32 {
        if n < HASH_EMPTIES {
            return self.shallow(pos, n, alpha, beta, budget);
        }
        if self.tick(budget) {
            return 0;
        }
        if let Some(cap) = self.stability_cap(pos, alpha, n) {
            return cap;
        }
        let key = position_hash(pos.own, pos.opp);
        let stored = self.table.probe(key, key);
        let tt_move = match stored.map(|e| e.settles(self.confidence, alpha, beta)) {
            Some(Ok(v)) => return v,
            Some(Err(m)) => m,
            None => NO_MOVE,
        };
        let moves = pos.moves(self.shape);
        if moves.is_empty() {
            if pos.opponent_moves(self.shape).is_empty() {
                return pos.final_score(n);
            }
            return -self.pvs(&pos.pass(), -beta, -alpha, n, budget);
        }
        let list = self.ordered(pos, moves, tt_move, n, budget);
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (k, c) in list.iter().enumerate() {
            let child = pos.play_unkeyed(c.square, c.flips);
            let mut v = if k == 0 {
                -self.pvs(&child, -beta, -alpha, n - 1, budget)
            } else {
                -self.nws(&child, -alpha - 1, n - 1, budget)
            };
            if k > 0 && v > alpha && v < beta && !self.halted(budget) {
                v = -self.pvs(&child, -beta, -alpha, n - 1, budget);
            }
            if self.halted(budget) {
                self.lists[n as usize] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = c.square as u16;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        self.lists[n as usize] = list;
        self.store(key, stored, n, alpha_before, beta, best, best_move);
        best
    }

    /// Whether the final score of `pos` (`n` empties) is above `alpha`: a null-window search,
    /// whose answer is a lower bound above alpha and an upper bound at or below it.
    pub fn nws(&mut self, pos: &Pos<B>, alpha: i32, n: u32, budget: &mut Budget) -> i32 {
        if n < HASH_EMPTIES {
            return self.shallow(pos, n, alpha, alpha + 1, budget);
        }
        if self.tick(budget) {
            return 0;
        }
        if let Some(cap) = self.stability_cap(pos, alpha, n) {
            return cap;
        }
        let key = position_hash(pos.own, pos.opp);
        let stored = self.table.probe(key, key);
        let tt_move = match stored.map(|e| e.settles(self.confidence, alpha, alpha + 1)) {
            Some(Ok(v)) => return v,
            Some(Err(m)) => m,
            None => NO_MOVE,
        };
        if self.confidence != EXACT
            && n >= PROBCUT_EMPTIES
            && let Some(v) = self.probcut(pos, alpha, n, budget)
        {
            return v;
        }
        let moves = pos.moves(self.shape);
        if moves.is_empty() {
            if pos.opponent_moves(self.shape).is_empty() {
                return pos.final_score(n);
            }
            return -self.nws(&pos.pass(), -alpha - 1, n, budget);
        }
        let list = self.ordered(pos, moves, tt_move, n, budget);
        if n >= ETC_EMPTIES
            && let Some(v) = self.etc(&list, alpha)
        {
            self.lists[n as usize] = list;
            self.store(key, stored, n, alpha, alpha + 1, v, NO_MOVE);
            return v;
        }
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (k, c) in list.iter().enumerate() {
            // Young brothers wait: once the first move has not cut off, the others may be
            // shared with idle threads.
            if k == 1
                && let Some((v, m)) = self.split(pos, &list[1..], alpha, n, budget)
            {
                if self.halted(budget) {
                    self.lists[n as usize] = list;
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = m;
                }
                break;
            }
            let child = pos.play_unkeyed(c.square, c.flips);
            let v = -self.nws(&child, -alpha - 1, n - 1, budget);
            if self.halted(budget) {
                self.lists[n as usize] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = c.square as u16;
                if v > alpha {
                    break;
                }
            }
        }
        self.lists[n as usize] = list;
        self.store(key, stored, n, alpha, alpha + 1, best, best_move);
        best
    }

    /// Enhanced transposition cutoff: a child stored with an upper bound below `-alpha` is a
    /// move above alpha, found without searching.
    fn etc(&self, list: &[Child<B>], alpha: i32) -> Option<i32> {
        list.iter().find_map(|c| {
            let e = self.table.probe(c.hash, c.hash)?;
            (e.confidence >= self.confidence && -e.upper > alpha).then_some(-e.upper)
        })
    }

    /// The opponent's stable discs stay theirs whatever is played: a cap on the score of
    /// `pos` (`n` empties). Only a high alpha can be at or above it, and finding stable discs
    /// costs, so it is looked for only then.
    #[inline]
    pub(super) fn stability_cap(&self, pos: &Pos<B>, alpha: i32, n: u32) -> Option<i32> {
        let squares = self.masks.squares as i32;
        if alpha < stability_threshold(n, squares) {
            return None;
        }
        let stable = stable_discs(pos.opp, pos.own, &self.masks, self.shape).count() as i32;
        let cap = squares - 2 * stable;
        (cap <= alpha).then_some(cap)
    }

    /// Stores what a search of window `alpha..beta` found, tightened by what was stored.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        stored: Option<EndEntry>,
        n: u32,
        alpha: i32,
        beta: i32,
        best: i32,
        best_move: u16,
    ) {
        let (mut lower, mut upper) = if best <= alpha {
            (-INFINITY, best)
        } else if best >= beta {
            (best, INFINITY)
        } else {
            (best, best)
        };
        let mut best_move = best_move;
        if let Some(e) = stored {
            if e.confidence > self.confidence {
                // Surer bounds stay.
                return;
            }
            // Selective bounds may contradict each other: then the new ones stand alone.
            if e.confidence == self.confidence && e.lower.max(lower) <= e.upper.min(upper) {
                lower = lower.max(e.lower);
                upper = upper.min(e.upper);
            }
            if best_move == NO_MOVE {
                best_move = e.best;
            }
        }
        self.table.store(
            key,
            key,
            EndEntry {
                lower,
                upper,
                best: best_move,
                empties: n,
                confidence: self.confidence,
            },
        );
    }

    /// The moves of `pos` (`n` empties) in the order to try them, in the buffer of `n`.
    pub fn ordered(
        &mut self,
        pos: &Pos<B>,
        moves: B,
        tt_move: u16,
        n: u32,
        budget: &mut Budget,
    ) -> Vec<Child<B>> {
        let n = n as usize;
        if self.lists.len() <= n {
            self.lists.resize_with(n + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[n]);
        list.clear();
        let depth = eval_sort_depth(n as u32);
        // Children with table entries have them fetched first, all at once, so that the
        // ordering's work below (and the other children's fetches) overlaps the waits.
        let children_probe = n as u32 > HASH_EMPTIES;
        for i in moves.squares() {
            let flips = pos.flips(i, self.shape);
            let mut hash = 0;
            if children_probe {
                let child = pos.play_unkeyed(i, flips);
                hash = position_hash(child.own, child.opp);
                self.table.prefetch(hash);
            }
            list.push(Child {
                key: 0,
                square: i,
                flips,
                hash,
            });
        }
        for c in list.iter_mut() {
            let (i, flips) = (c.square, c.flips);
            c.key = if i as u16 == tt_move {
                i32::MIN
            } else if let Some(d) = depth {
                let child = pos.play_unkeyed(i, flips);
                let replies = child.moves(self.shape);
                let v = -self.eval_search(
                    &child,
                    d,
                    -INFINITY * 100,
                    INFINITY * 100,
                    Leaves::Ordering,
                    budget,
                );
                -v + EVAL_ORDER_MOBILITY * replies.count() as i32
            } else {
                self.fastest_first_key(pos, i, flips)
            };
        }
        list.sort_unstable_by_key(|c| c.key);
        list
    }

    /// Probcut (Buro's, as Edax cuts its endgame): when a shallow search with the
    /// evaluation puts the score of `pos` (`n` empties) far enough from `alpha`, the
    /// selective search takes it as a bound without searching on. How far: the confidence
    /// times the spread [`probcut_sigma`].
    ///
    /// A side is tried only when the static evaluation is not already far on the other
    /// side of alpha (Edax's gate): such a shallow search seldom crosses the margin.
    fn probcut(&mut self, pos: &Pos<B>, alpha: i32, n: u32, budget: &mut Budget) -> Option<i32> {
        let depth = (n / 5).clamp(1, 6);
        let confidence = self.confidence as f64 / 10.0;
        let margin = confidence * probcut_sigma(n);
        // Discs to the evaluation's hundredths.
        let to_eval = |discs: f64| (discs * 100.0).round() as i32;
        let squares = self.masks.squares as i32;
        let estimate = self.eval_search(
            pos,
            0,
            -INFINITY * 100,
            INFINITY * 100,
            Leaves::Estimate,
            budget,
        );
        let gate = to_eval(confidence * PROBCUT_GATE);
        if alpha < squares && estimate >= to_eval((alpha + 1) as f64) - gate {
            let high = to_eval((alpha + 1) as f64 + margin);
            if self.eval_search(pos, depth, high - 1, high, Leaves::Estimate, budget) >= high {
                return Some(alpha + 1);
            }
        }
        if alpha > -squares && estimate <= to_eval(alpha as f64) + gate {
            let low = to_eval(alpha as f64 - margin);
            if self.eval_search(pos, depth, low, low + 1, Leaves::Estimate, budget) <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Fastest first: the move that leaves the opponent the fewest replies (corners counted
    /// twice) and the fewest empty squares next to the mover's discs.
    #[inline]
    pub(super) fn fastest_first_key(&self, pos: &Pos<B>, i: usize, flips: B) -> i32 {
        let mine = pos.own | flips | B::single(i);
        let theirs = pos.opp.without(flips);
        let replies = B::moves(theirs, mine, self.shape);
        let empty_after = self.full.without(mine | theirs);
        let potential = (mine.neighbours(self.shape) & empty_after).count() as i32;
        ORDER_MOBILITY * replies.count() as i32
            + ORDER_CORNER_REPLY * (replies & self.masks.corners).count() as i32
            + ORDER_POTENTIAL * potential
            - if (B::single(i) & self.masks.corners).is_empty() {
                0
            } else {
                ORDER_CORNER
            }
    }

    /// A `depth`-ply alpha-beta search with a midgame evaluation (hundredths of a disc),
    /// `leaves` saying which; a finished game scores its disc difference, as the evaluation
    /// counts.
    pub(super) fn eval_search(
        &mut self,
        pos: &Pos<B>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        leaves: Leaves,
        budget: &mut Budget,
    ) -> i32 {
        if self.tick(budget) {
            return 0;
        }
        let moves = pos.moves(self.shape);
        let replies = pos.opponent_moves(self.shape);
        if moves.is_empty() && replies.is_empty() {
            let n = pos.empties(self.shape).count();
            return 100 * pos.final_score(n);
        }
        if depth == 0 {
            return match leaves {
                Leaves::Ordering => evaluate(pos, moves, replies, &self.masks, self.shape),
                Leaves::Estimate => evaluate_with(
                    &self.evaluation,
                    pos,
                    moves,
                    replies,
                    &self.masks,
                    self.shape,
                ),
            };
        }
        if moves.is_empty() {
            return -self.eval_search(&pos.pass(), depth, -beta, -alpha, leaves, budget);
        }
        let mut best = -INFINITY * 100;
        for i in moves.squares() {
            let flips = pos.flips(i, self.shape);
            let child = pos.play_unkeyed(i, flips);
            let v = -self.eval_search(&child, depth - 1, -beta, -alpha, leaves, budget);
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }
}

/// The shallow search's depth for ordering the moves of a node with `n` empties (`None`:
/// fastest first). The thresholds took the fewest nodes on FFO #36-38 of those tried around
/// them (doc/othello.md#measurements).
#[inline]
fn eval_sort_depth(n: u32) -> Option<u32> {
    if n < EVAL_SORT_EMPTIES {
        None
    } else if n < 16 {
        Some(0)
    } else if n < 22 {
        Some(1)
    } else {
        Some(2)
    }
}

/// The spread (discs) probcut's margins are counted in at `n` empties. The fitted spread
/// of the exact score about the shallow search's value is wider (`probcut_fit` below
/// measures it), but these searches only order the exact one's moves, and the narrower
/// margin orders better: 4 + n/10 took the fewest nodes on the harder FFO positions with
/// either evaluation (doc/othello.md#measurements).
#[inline]
fn probcut_sigma(n: u32) -> f64 {
    4.0 + 0.1 * n as f64
}

/// How far (discs, times the confidence) the static evaluation may lie on the wrong side of
/// alpha for probcut still to try that side (Edax's gate): 4 took the fewest nodes on FFO
/// #20-52 of the gates tried (doc/othello.md#measurements). The nodes it saves are few
/// (probcut's own searches are a small share of them); the rest comes from the cuts it no
/// longer makes (wrong ones, presumably), which change the moves the table holds for the
/// exact search.
const PROBCUT_GATE: f64 = 4.0;

/// Which evaluation a shallow search scores its leaves with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leaves {
    /// Move ordering: the hand-written terms, whatever the solve's evaluation. Their
    /// mobility terms order for small proofs; the learnt tables, closer estimates, order
    /// worse (far more nodes on FFO #20-39: doc/othello.md#measurements).
    Ordering,
    /// The root's guess and probcut, which want the closest estimate of the score: the
    /// solve's evaluation.
    Estimate,
}

/// Alpha from which the stability cutoff is tried at a node with `n` empties: on 8x8 about
/// twice the empties (Edax's thresholds have that shape). Few discs are stable while many
/// squares are empty, so a cap reaches down to alpha only when alpha is high.
#[inline]
fn stability_threshold(n: u32, squares: i32) -> i32 {
    let n = n as i32;
    let on_eight = if n < 10 {
        2 * n - 2
    } else if n <= 24 {
        2 * n
    } else {
        n + 24
    };
    (on_eight * squares / 64).min(squares)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::othello::{Game, Limits, Move};
    use crate::rng::Rng;

    /// The recipe of probcut's margins: positions of games played by a 1-ply search with
    /// some random moves, each solved exactly and searched with the evaluation at depths
    /// 1-6; per empties and depth, the least-squares line from the shallow value (discs) to
    /// the exact score, and the spread of the exact score about it.
    /// `cargo test --release --lib probcut_fit -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn probcut_fit() {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(2026);
        let evaluation = match std::env::var("FIT_EVAL").as_deref() {
            Ok("learnt") => Evaluation::learnt(),
            _ => Evaluation::Hand,
        };
        let counts: Vec<(u32, usize)> = std::env::var("FIT_COUNTS")
            .ok()
            .map(|v| {
                v.split(',')
                    .filter_map(|p| {
                        let (a, b) = p.split_once(':')?;
                        Some((a.parse().ok()?, b.parse().ok()?))
                    })
                    .collect()
            })
            .unwrap_or(vec![
                (12, 150),
                (14, 150),
                (16, 150),
                (18, 150),
                (20, 100),
                (22, 60),
            ]);
        // The 1-ply player's depth-0 searches use neither the table nor the solver's state.
        let order_table = EndTable::new(4);
        let mut orderer = Solver::<u64>::new(&(), &order_table, evaluation.clone());
        for (n, count) in counts {
            // Per depth 1..=6: (shallow value in discs, exact score).
            let mut rows: Vec<Vec<(f64, f64)>> = vec![Vec::new(); 7];
            let mut found = 0;
            while found < count {
                let mut g = Game::new(8).unwrap();
                while g.board().empties() > n && !g.is_over() {
                    let moves = g.legal_moves();
                    let m = if moves == [Move::Pass] || rng.unit() < 0.2 {
                        moves[rng.below(moves.len())]
                    } else {
                        let mut budget = Budget::new(&Limits::default(), &stop);
                        *moves
                            .iter()
                            .max_by_key(|&&m| {
                                let mut after = g.clone();
                                after.play(m).unwrap();
                                let pos = after.board().pos8(after.to_move());
                                -orderer.eval_search(
                                    &pos,
                                    0,
                                    -INFINITY * 100,
                                    INFINITY * 100,
                                    Leaves::Estimate,
                                    &mut budget,
                                ) + (rng.below(200) as i32)
                            })
                            .unwrap()
                    };
                    g.play(m).unwrap();
                }
                if g.is_over() || g.board().empties() != n || g.legal_moves() == [Move::Pass] {
                    continue;
                }
                found += 1;
                let pos = g.board().pos8(g.to_move());
                let table = EndTable::new(20);
                let mut solver = Solver::<u64>::new(&(), &table, evaluation.clone());
                let mut budget = Budget::new(&Limits::default(), &stop);
                let exact = solver
                    .aspirated_root(&pos, &mut budget, &mut |_| {})
                    .unwrap()
                    .1 as f64;
                for (d, r) in rows.iter_mut().enumerate().skip(1) {
                    let v = solver.eval_search(
                        &pos,
                        d as u32,
                        -INFINITY * 100,
                        INFINITY * 100,
                        Leaves::Estimate,
                        &mut budget,
                    );
                    r.push((v as f64 / 100.0, exact));
                }
            }
            for (d, r) in rows.iter().enumerate().skip(1) {
                let m = r.len() as f64;
                let (sx, sy) = r.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
                let (mx, my) = (sx / m, sy / m);
                let sxx: f64 = r.iter().map(|&(x, _)| (x - mx) * (x - mx)).sum();
                let sxy: f64 = r.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
                let a = sxy / sxx;
                let b = my - a * mx;
                let res: f64 = r.iter().map(|&(x, y)| (y - a * x - b).powi(2)).sum::<f64>() / m;
                // With the slope fixed at 1: the spread of exact - shallow.
                let diff: f64 = r.iter().map(|&(x, y)| (y - x).powi(2)).sum::<f64>() / m;
                println!(
                    "n {n:2} depth {d}: exact = {a:.3} x shallow {b:+.2}, sigma {:.2}; slope 1: rms {:.2} ({} positions)",
                    res.sqrt(),
                    diff.sqrt(),
                    r.len()
                );
            }
        }
    }
}
