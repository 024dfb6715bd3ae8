//! The exact endgame solver: the best move and the final disc difference with perfect play
//! on both sides, counted as published endgame suites count it (squares still empty when
//! the game ends go to the winner).
//!
//! This file holds the entry points and the root; the search is in `endgame` (null-window
//! and principal-variation search over the table) and `last_empties` (the last few empties).

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::color::Color;

use crate::othello::bits::Bits;
use crate::othello::board::{Board, with_position};
use crate::othello::coord::{Move, Square};
use crate::othello::position::Pos;
use crate::othello::search::endgame::{INFINITY, Leaves, Pool, Solver, position_hash};
use crate::othello::search::eval::Evaluation;
use crate::othello::search::limits::{Budget, Limits};
use crate::othello::search::tt::{EXACT, EndTable, NO_MOVE};

/// The searcher's solver table: 2^20 entries of 16 bytes (its solves take seconds at most).
pub(crate) const TABLE_BITS: u32 = 20;
/// The table of a solve on its own ([`solve_with`]): 2^23 entries, 128 MB, for solves of
/// minutes.
pub const SOLVE_TABLE_BITS: u32 = 23;

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

/// How a solve on its own runs.
#[derive(Clone)]
pub struct SolveOptions {
    /// Threads searching (one: deterministic node counts).
    pub threads: usize,
    /// The table holds 2^table_bits entries of 16 bytes.
    pub table_bits: u32,
    /// The evaluation of the solver's estimates: the root's guess and probcut's shallow
    /// searches (the learnt tables by default; moves are ordered by the hand-written terms
    /// whatever this says).
    pub evaluation: Evaluation,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            threads: 1,
            table_bits: SOLVE_TABLE_BITS,
            evaluation: Evaluation::learnt(),
        }
    }
}

/// Where a long solve stands: one report per root move searched.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub empties: u32,
    /// The move just searched, and what it was found to be worth: exact, or a bound
    /// (`at_most`: no better than the best so far, or than the window searched; `at_least`:
    /// above the window, so at least that).
    pub searched: Move,
    pub value: i32,
    pub at_most: bool,
    pub at_least: bool,
    /// The best move so far and its score.
    pub best: Move,
    pub best_score: i32,
    /// Moves searched of all.
    pub done: usize,
    pub moves: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

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
    solve_with(
        board,
        to_move,
        max_empties,
        limits,
        stop,
        &SolveOptions::default(),
        &mut |_| {},
    )
}

/// [`solve_within`] with threads and table size chosen, and a report after each root move.
///
/// # Errors
/// `TooManyEmpties` above the limit; `Interrupted` when a limit stops it.
pub fn solve_with(
    board: &Board,
    to_move: Color,
    max_empties: u32,
    limits: &Limits,
    stop: &AtomicBool,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
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
    let table = take_table(options.table_bits);
    let pool = Pool::new(options.threads.max(1));
    let result = with_position!(board, to_move, |pos, shape| {
        let mut solver = Solver::new(shape, &table, options.evaluation.clone());
        if options.threads > 1 {
            solver.pool = Some(&pool);
        }
        solver.aspirated_root(&pos, &mut budget, progress)
    });
    give_back(table);
    let (best, score) = result.ok_or(SolveError::Interrupted)?;
    Ok(Solution {
        best: best.map_or(Move::Pass, |i| Move::Play(Square::from_index(i, size))),
        score,
        nodes: budget.nodes,
        elapsed: budget.elapsed(),
    })
}

/// The root's first window: the guess plus or minus this many discs. Final scores are even
/// (on boards of an even number of squares), so 1 asks only whether the score is the guess:
/// the smallest proof when the guess is right, and after the selective passes it mostly is
/// (the widths tried, in the passes and in the exact search: doc/othello.md#measurements).
const ASPIRATION_WIDTH: i32 = 1;
/// The depth of the guess's search (the fewest nodes on FFO #20-39 of 2, 4 and 6 plies,
/// chosen with a width of 8: doc/othello.md#measurements).
const GUESS_DEPTH: u32 = 4;
/// From this many empties, selective passes come before the exact search.
const SELECTIVE_EMPTIES: u32 = 18;
/// Their confidences, in tenths of probcut's spread: Edax's first four (73%, 87%, 95% and
/// 98% sure, were the evaluation's error normal with that spread).
const SELECTIVE_CONFIDENCES: [u8; 4] = [11, 15, 20, 26];

/// The tables of finished solves, kept for the next: the kernel zeroes a fresh table's
/// memory as the search first touches it, system time a kept table does not cost
/// (doc/othello.md#measurements), while a kept one is made stale at once
/// ([`EndTable::new_search`]).
/// A stale entry reads as absent and is replaced first, as an empty slot is, so a solve
/// searches the same nodes in a kept table as in a fresh one (until the 255 searches after
/// which a table's date comes round again: then only which entries make way may differ).
static SPARE_TABLES: Mutex<Vec<EndTable>> = Mutex::new(Vec::new());
/// At most this many kept (one solve at a time is the rule; tests run a few at once).
const SPARE_TABLES_KEPT: usize = 2;

fn take_table(bits: u32) -> EndTable {
    let mut spare = SPARE_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let entries = EndTable::new_entries(bits);
    match spare.iter().position(|t| t.entries() == entries) {
        Some(k) => {
            let mut table = spare.swap_remove(k);
            table.new_search();
            table
        }
        None => EndTable::new(bits),
    }
}

fn give_back(table: EndTable) {
    let mut spare = SPARE_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if spare.len() < SPARE_TABLES_KEPT {
        spare.push(table);
    }
}

/// Solves in a table the caller keeps ([`EndTable::new`]), without limits: what the table
/// learnt of positions solved before stays (bounds on final scores are facts), so the
/// positions of one game solve in turn for little more than the first. (Node counts then
/// depend on what came before; [`solve_with`] starts afresh each time.)
pub fn solve_in(
    table: &EndTable,
    board: &Board,
    to_move: Color,
    evaluation: &Evaluation,
) -> Solution {
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(&Limits::default(), &stop);
    let size = board.size();
    let result = with_position!(board, to_move, |pos, shape| {
        Solver::new(shape, table, evaluation.clone()).aspirated_root(&pos, &mut budget, &mut |_| {})
    });
    // Nothing stops a search without limits.
    let (best, score) = result.unwrap_or((None, 0));
    Solution {
        best: best.map_or(Move::Pass, |i| Move::Play(Square::from_index(i, size))),
        score,
        nodes: budget.nodes,
        elapsed: budget.elapsed(),
    }
}

impl<B: Bits> Solver<'_, B> {
    /// `root` over the whole range of scores, searched first in a window of
    /// `ASPIRATION_WIDTH` around a guess (a `GUESS_DEPTH`-ply search with the evaluation);
    /// a score outside it is a bound, and the search is done again on that side. The narrow
    /// window cuts more, and the second search finds the first one's work in the table.
    pub fn aspirated_root(
        &mut self,
        pos: &Pos<B>,
        budget: &mut Budget,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<(Option<usize>, i32)> {
        let guess = self.eval_search(
            pos,
            GUESS_DEPTH,
            -INFINITY * 100,
            INFINITY * 100,
            Leaves::Estimate,
            budget,
        );
        // Hundredths of a disc, rounded to an even number of discs, as final scores are on
        // boards of an even number of squares.
        let mut guess = 2 * (guess as f64 / 200.0).round() as i32;
        if pos.empties(self.shape).count() >= SELECTIVE_EMPTIES {
            guess = self.selective_passes(pos, guess, &SELECTIVE_CONFIDENCES, budget)?;
        }
        self.aspirated(pos, guess, budget, progress)
    }

    /// Edax's way into a deep solve: the whole search first with probcut at rising
    /// confidences, each pass leaving in the table the moves the next one (and at last the
    /// exact search) tries first, and its score as the next one's guess. Their bounds
    /// settle nothing in a surer search. `None` if the budget ran out.
    pub(super) fn selective_passes(
        &mut self,
        pos: &Pos<B>,
        mut guess: i32,
        confidences: &[u8],
        budget: &mut Budget,
    ) -> Option<i32> {
        for &confidence in confidences {
            self.confidence = confidence;
            let found = self.aspirated(pos, guess, budget, &mut |_| {});
            self.confidence = EXACT;
            guess = found?.1;
        }
        Some(guess)
    }

    /// `root` in a window of `ASPIRATION_WIDTH` around `guess`, then on the side the score
    /// fell if outside it.
    fn aspirated(
        &mut self,
        pos: &Pos<B>,
        guess: i32,
        budget: &mut Budget,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<(Option<usize>, i32)> {
        // A selective pass's score may be odd (probcut answers alpha + 1): then the window
        // holds the two even scores beside it.
        let width = ASPIRATION_WIDTH + guess.rem_euclid(2);
        let (mut lo, mut hi) = (guess - width, guess + width);
        let mut tries = 0;
        loop {
            let (best, score) = self.root(pos, lo, hi, budget, progress)?;
            tries += 1;
            // A selective search's bounds may contradict each other: its score is a guess.
            if self.confidence != EXACT && tries >= 2 {
                return Some((best, score));
            }
            if score <= lo && lo > -INFINITY {
                (lo, hi) = (-INFINITY, score + 1);
            } else if score >= hi && hi < INFINITY {
                (lo, hi) = (score - 1, INFINITY);
            } else {
                return Some((best, score));
            }
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
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<(Option<usize>, i32)> {
        let n = pos.empties(self.shape).count();
        let moves = pos.moves(self.shape);
        if moves.is_empty() {
            if self.tick(budget) {
                return None;
            }
            if pos.opponent_moves(self.shape).is_empty() {
                return Some((None, pos.final_score(n)));
            }
            let score = -self.pvs(&pos.pass(), -hi, -lo, n, budget);
            return (!self.halted(budget)).then_some((None, score));
        }
        if self.tick(budget) {
            return None;
        }
        let key = position_hash(pos.own, pos.opp);
        let tt_move = self.table.probe(key, key).map_or(NO_MOVE, |e| e.best);
        let list = self.ordered(pos, moves, tt_move, n, budget);
        let mut alpha = lo;
        let mut best = list[0].square;
        let mut best_score = -INFINITY;
        let size = B::size(self.shape);
        let to_move = |i: usize| Move::Play(Square::from_index(i, size));
        for (k, c) in list.iter().enumerate() {
            let alpha_before = alpha;
            let child = pos.play_unkeyed(c.square, c.flips);
            let mut v = if k == 0 {
                -self.pvs(&child, -hi, -alpha, n - 1, budget)
            } else {
                -self.nws(&child, -alpha - 1, n - 1, budget)
            };
            if k > 0 && v > alpha && v < hi && !self.halted(budget) {
                v = -self.pvs(&child, -hi, -alpha, n - 1, budget);
            }
            if self.halted(budget) {
                return None;
            }
            if v > best_score {
                best_score = v;
                if v > alpha {
                    alpha = v;
                    best = c.square;
                }
            }
            progress(&Progress {
                empties: n,
                searched: to_move(c.square),
                value: v,
                at_most: v <= alpha_before,
                at_least: v >= hi,
                best: to_move(best),
                best_score,
                done: k + 1,
                moves: list.len(),
                nodes: budget.nodes,
                elapsed: budget.elapsed(),
            });
            if v >= hi {
                break;
            }
        }
        Some((Some(best), best_score))
    }
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
    fn selective_passes_leave_the_exact_score_as_it_was() {
        let stop = AtomicBool::new(false);
        let mut rng = crate::rng::Rng::new(7);
        let mut solved = 0;
        while solved < 6 {
            let mut g = crate::othello::Game::new(8).unwrap();
            while g.board().empties() > 14 && !g.is_over() {
                let moves = g.legal_moves();
                g.play(moves[rng.below(moves.len())]).unwrap();
            }
            if g.is_over() {
                continue;
            }
            solved += 1;
            let pos = g.board().pos8(g.to_move());
            let score = |selective: bool| {
                let table = EndTable::new(16);
                let mut solver = Solver::<u64>::new(&(), &table, Evaluation::Hand);
                let mut budget = Budget::new(&Limits::default(), &stop);
                let mut guess = 0;
                if selective {
                    guess = solver
                        .selective_passes(&pos, 0, &SELECTIVE_CONFIDENCES, &mut budget)
                        .unwrap();
                }
                solver
                    .aspirated(&pos, guess, &mut budget, &mut |_| {})
                    .unwrap()
                    .1
            };
            assert_eq!(score(true), score(false), "{}", g.board());
        }
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
