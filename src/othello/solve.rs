//! The exact endgame solver: the best move and the final disc difference with perfect play
//! on both sides, counted as published endgame suites count it (squares still empty when
//! the game ends go to the winner).
//!
//! Negamax with alpha-beta and principal-variation (null-window) search. Far from the end,
//! moves are tried fastest-first after the transposition table's move (the move that leaves
//! the opponent the fewest replies, corners counted twice, and the fewest empty squares next
//! to the mover's discs), positions are stored as bounds on the final score, and with a
//! high alpha the opponent's stable discs may cap the score below it (a cutoff). In the
//! last few empties nothing is stored or sorted: squares in regions with an odd number of
//! empties go first (parity), and the very last empty square is counted without making the
//! move.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::color::Color;

use super::bits::Bits;
use super::board::{Board, with_position};
use super::coord::{Move, Square};
use super::eval::{Masks, stable_discs};
use super::limits::{Budget, Limits};
use super::position::Pos;
use super::tt::{EndEntry, NO_MOVE, Table};

/// At most this many empties: no table, parity order.
const SHALLOW_EMPTIES: u32 = 6;
/// The solver's table: 2^20 entries of 16 bytes.
pub(crate) const TABLE_BITS: u32 = 20;
// Fastest-first ordering far from the end (lower keys first), per unit of each term.
/// Per reply the opponent has after the move.
const ORDER_MOBILITY: i32 = 16;
/// Per corner among those replies (counted on top).
const ORDER_CORNER_REPLY: i32 = 16;
/// Per empty square next to the mover's discs after the move (the opponent's later moves).
const ORDER_POTENTIAL: i32 = 4;
/// Taken off for a move on a corner.
const ORDER_CORNER: i32 = 12;
/// Stable discs are looked for when alpha is at least this (FFO #40 and #42: 5% fewer
/// nodes; at 0 the search costs more than it saves).
const STABILITY_ALPHA: i32 = 16;
/// Above every final score (676 squares at most).
pub(crate) const INFINITY: i32 = 1000;

/// The solver's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move (`Pass` when the side to move has no move; any best move when several
    /// tie: the first in the solver's order).
    pub best: Move,
    /// Final disc difference for the side to move, empties to the winner.
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl fmt::Display for Solution {
    /// `C7 +36`, `pass -4`, `A1 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.score > 0 {
            write!(f, "{} +{}", self.best, self.score)
        } else {
            write!(f, "{} {}", self.best, self.score)
        }
    }
}

/// Why there is no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// More empty squares than the limit allows.
    TooManyEmpties { empties: u32, limit: u32 },
    /// The time, node limit or interrupt flag stopped it first.
    Interrupted,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooManyEmpties { empties, limit } => {
                write!(f, "too many empty squares ({empties} > {limit})")
            }
            SolveError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Solves the position with `to_move` to play exactly, if it has at most `max_empties`
/// empty squares.
///
/// # Errors
/// `TooManyEmpties` above the limit (nothing is searched).
pub fn solve(board: &Board, to_move: Color, max_empties: u32) -> Result<Solution, SolveError> {
    solve_within(
        board,
        to_move,
        max_empties,
        &Limits::default(),
        &AtomicBool::new(false),
    )
}

/// [`solve`] within limits (time, nodes, an interrupt flag; depth is ignored).
///
/// # Errors
/// `TooManyEmpties` above the limit; `Interrupted` when a limit stops it.
pub fn solve_within(
    board: &Board,
    to_move: Color,
    max_empties: u32,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Solution, SolveError> {
    let empties = board.empties();
    if empties > max_empties {
        return Err(SolveError::TooManyEmpties {
            empties,
            limit: max_empties,
        });
    }
    let mut budget = Budget::new(limits, stop);
    let size = board.size();
    let mut table = Table::new(TABLE_BITS);
    let result = with_position!(board, to_move, |pos, shape| {
        Solver::new(shape, &mut table).root(&pos, -INFINITY, INFINITY, &mut budget)
    });
    let (best, score) = result.ok_or(SolveError::Interrupted)?;
    Ok(Solution {
        best: best.map_or(Move::Pass, |i| Move::Play(Square::from_index(i, size))),
        score,
        nodes: budget.nodes,
        elapsed: budget.elapsed(),
    })
}

/// The solver's state for one board size.
pub(crate) struct Solver<'t, B: Bits> {
    shape: &'static B::Shape,
    masks: Masks<B>,
    full: B,
    table: &'t mut Table<EndEntry>,
    /// Per ply, a buffer for the ordered moves (order key, square, flips).
    lists: Vec<Vec<(i32, usize, B)>>,
}

impl<'t, B: Bits> Solver<'t, B> {
    /// A solver using `table`, whose earlier entries it makes stale.
    pub fn new(shape: &'static B::Shape, table: &'t mut Table<EndEntry>) -> Solver<'t, B> {
        table.new_search();
        Solver {
            shape,
            masks: Masks::new(shape),
            full: B::full(shape),
            table,
            lists: Vec::new(),
        }
    }

    /// The best move (`None`: pass) and its score searched in the window `lo..hi`, or `None`
    /// if the budget ran out. A score strictly inside the window is exact; at or below `lo`
    /// it is an upper bound (every move is that bad, and the move is just the first tried),
    /// at or above `hi` a lower bound (the move reaches it). `(-1, 1)` asks only whether
    /// the position is won, drawn or lost, which is several times faster than the score.
    pub fn root(
        &mut self,
        pos: &Pos<B>,
        lo: i32,
        hi: i32,
        budget: &mut Budget,
    ) -> Option<(Option<usize>, i32)> {
        let moves = pos.moves(self.shape);
        if moves.is_empty() {
            let empties = pos.empties(self.shape).count();
            if pos.opponent_moves(self.shape).is_empty() {
                return Some((None, pos.final_score(empties)));
            }
            let score = -self.search(&pos.pass(), -hi, -lo, 1, budget);
            return (!budget.exhausted()).then_some((None, score));
        }
        let list = self.ordered(pos, moves, NO_MOVE, 0);
        let mut alpha = lo;
        let mut best = list[0].1;
        let mut best_score = -INFINITY;
        for (k, &(_, i, flips)) in list.iter().enumerate() {
            let child = pos.play(i, flips);
            let mut v = if k == 0 {
                -self.search(&child, -hi, -alpha, 1, budget)
            } else {
                -self.search(&child, -alpha - 1, -alpha, 1, budget)
            };
            if k > 0 && v > alpha && v < hi && !budget.exhausted() {
                v = -self.search(&child, -hi, -alpha, 1, budget);
            }
            if budget.exhausted() {
                return None;
            }
            if v > best_score {
                best_score = v;
                if v > alpha {
                    alpha = v;
                    best = i;
                }
            }
            if v >= hi {
                break;
            }
        }
        self.lists[0] = list;
        Some((Some(best), best_score))
    }

    /// The moves of `pos` in the order to try them, in the buffer of `ply`.
    fn ordered(
        &mut self,
        pos: &Pos<B>,
        moves: B,
        tt_move: u16,
        ply: usize,
    ) -> Vec<(i32, usize, B)> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        for i in moves.squares() {
            let flips = pos.flips(i, self.shape);
            let key = if i as u16 == tt_move {
                i32::MIN
            } else {
                let mine = pos.own | flips | B::single(i);
                let theirs = pos.opp.without(flips);
                let replies = B::moves(theirs, mine, self.shape);
                let empty_after = self.full.without(mine | theirs);
                // The opponent's potential mobility: empty squares next to my discs.
                let potential = (mine.neighbours(self.shape) & empty_after).count() as i32;
                ORDER_MOBILITY * replies.count() as i32
                    + ORDER_CORNER_REPLY * (replies & self.masks.corners).count() as i32
                    + ORDER_POTENTIAL * potential
                    - if (B::single(i) & self.masks.corners).is_empty() {
                        0
                    } else {
                        ORDER_CORNER
                    }
            };
            list.push((key, i, flips));
        }
        list.sort_unstable_by_key(|e| e.0);
        list
    }

    fn search(
        &mut self,
        pos: &Pos<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        budget: &mut Budget,
    ) -> i32 {
        if budget.tick() {
            return 0;
        }
        let empty = pos.empties(self.shape);
        let n = empty.count();
        if n <= SHALLOW_EMPTIES {
            return self.shallow(pos, empty, n, alpha, beta, false, budget);
        }
        // Stability cutoff: the opponent's stable discs stay theirs, which caps the score.
        // Only a high alpha can be below that cap, and finding stable discs costs.
        if alpha >= STABILITY_ALPHA {
            let stable = stable_discs(pos.opp, pos.own, &self.masks, self.shape).count() as i32;
            let cap = self.masks.squares as i32 - 2 * stable;
            if cap <= alpha {
                return cap;
            }
        }
        let moves = pos.moves(self.shape);
        if moves.is_empty() {
            if pos.opponent_moves(self.shape).is_empty() {
                return pos.final_score(n);
            }
            return -self.search(&pos.pass(), -beta, -alpha, ply + 1, budget);
        }
        let tag = self.table.tag(pos.key);
        let entry = *self.table.slot(pos.key);
        let tt_move = if entry.key == tag {
            let (lower, upper) = (entry.lower as i32, entry.upper as i32);
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            entry.best
        } else {
            NO_MOVE
        };
        let list = self.ordered(pos, moves, tt_move, ply);
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (k, &(_, i, flips)) in list.iter().enumerate() {
            let child = pos.play(i, flips);
            let mut v = if k == 0 {
                -self.search(&child, -beta, -alpha, ply + 1, budget)
            } else {
                -self.search(&child, -alpha - 1, -alpha, ply + 1, budget)
            };
            if k > 0 && v > alpha && v < beta && !budget.exhausted() {
                v = -self.search(&child, -beta, -alpha, ply + 1, budget);
            }
            if budget.exhausted() {
                self.lists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = i as u16;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        self.lists[ply] = list;
        let (mut lower, mut upper) = if best <= alpha_before {
            (-INFINITY, best)
        } else if best >= beta {
            (best, INFINITY)
        } else {
            (best, best)
        };
        // Bounds of the same position from other windows still hold: keep the tighter.
        let slot = self.table.slot(pos.key);
        if slot.key == tag {
            lower = lower.max(slot.lower as i32);
            upper = upper.min(slot.upper as i32);
        }
        *slot = EndEntry {
            key: tag,
            lower: lower as i16,
            upper: upper as i16,
            best: best_move,
        };
        best
    }

    /// The last few empties (`n` >= 1 of them, in `empty`): squares of odd regions first,
    /// no table, no keys.
    #[allow(clippy::too_many_arguments)]
    fn shallow(
        &mut self,
        pos: &Pos<B>,
        empty: B,
        n: u32,
        mut alpha: i32,
        beta: i32,
        passed: bool,
        budget: &mut Budget,
    ) -> i32 {
        if n == 1 {
            // `empty` holds one square.
            return last_square(pos, empty.first().unwrap_or(0), self.shape);
        }
        let mut odd = B::default();
        for &q in &self.masks.quadrants {
            if (empty & q).count() % 2 == 1 {
                odd |= q;
            }
        }
        let mut best = -INFINITY;
        // Only a square next to an opponent disc can flip anything.
        let candidates = empty & pos.opp.neighbours(self.shape);
        for group in [candidates & odd, candidates.without(odd)] {
            for i in group.squares() {
                let flips = pos.flips(i, self.shape);
                if flips.is_empty() {
                    continue;
                }
                if budget.tick() {
                    return 0;
                }
                let child = pos.play_unkeyed(i, flips);
                let rest = empty.without(B::single(i));
                let v = -self.shallow(&child, rest, n - 1, -beta, -alpha, false, budget);
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        if best > -INFINITY {
            best
        } else if passed {
            // Neither side can move: `pos` is the position after the other side's pass.
            pos.final_score(n)
        } else {
            -self.shallow(&pos.pass(), empty, n, -beta, -alpha, true, budget)
        }
    }
}

/// The final score with one empty square `i` left: whoever can play there does (the side to
/// move first); the score is counted without making the move.
#[inline]
fn last_square<B: Bits>(pos: &Pos<B>, i: usize, shape: &B::Shape) -> i32 {
    let diff = pos.disc_difference();
    let own_flips = pos.flips(i, shape).count() as i32;
    if own_flips > 0 {
        return diff + 2 * own_flips + 1;
    }
    let opp_flips = B::flips(pos.opp, pos.own, i, shape).count() as i32;
    if opp_flips > 0 {
        return diff - 2 * opp_flips - 1;
    }
    pos.final_score(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_above_the_limit() {
        let b = Board::new(8).unwrap();
        assert_eq!(
            solve(&b, Color::Black, 20),
            Err(SolveError::TooManyEmpties {
                empties: 60,
                limit: 20
            })
        );
    }

    #[test]
    fn solves_4x4_from_the_start() {
        // 4x4 Othello is a win for White with perfect play: 11-3 with two squares left
        // empty, which count for the winner (checked against plain minimax in the tests).
        let b = Board::new(4).unwrap();
        let s = solve(&b, Color::Black, 16).unwrap();
        assert_eq!(s.score, -10);
    }
}
