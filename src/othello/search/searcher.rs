//! The searcher, the default player: iterative deepening over a negamax alpha-beta search
//! with principal-variation (null-window) search, a transposition table keyed by the
//! Zobrist key, move ordering, the evaluation of [`eval`](crate::othello::search::eval), and the exact
//! solver for the last empties.
//!
//! Move ordering at a node: the table's move, then the two killer moves of the ply, then by
//! history counts, square class (corners first, X- and C-squares of empty corners last)
//! and, with depth left, by the opponent's mobility after the move (fewest first).
//!
//! Time: each completed iteration is reported and kept; the running one is abandoned when
//! the hard limit comes (the clock is read every 1024 nodes), and no iteration starts once
//! half the budget is spent. With few enough empties the iterations stop at a fifth and the
//! exact solver gets the rest, if it can be expected to finish; with two empties more, a
//! win/loss/draw solve instead. A finished solve decides the move (a proven loss leaves the
//! iterations' move, which keeps the best chances); an unfinished one changes nothing.
//! A pass is not a ply: it costs no depth (it is forced, so it cannot repeat).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::color::Color;

use crate::othello::bits::Bits;
use crate::othello::board::{Board, with_position};
use crate::othello::coord::{Move, Square};
use crate::othello::position::Pos;
use crate::othello::search::endgame::{self, Solver};
use crate::othello::search::eval::{Evaluation, Masks, evaluate_with};
use crate::othello::search::limits::{Budget, Limits};
use crate::othello::search::solve;
use crate::othello::search::tt::{Bound, EndTable, MidEntry, NO_MOVE, Table};

/// Tunables of the searcher, with why each has its value.
pub mod tuning {
    /// Table size: 2^20 entries of 16 bytes (16 MB), room for a few seconds of search.
    pub const TABLE_BITS: u32 = 20;
    /// No iteration starts once this fraction of the budget is spent: the next one would
    /// take several times as long as the last and be abandoned.
    pub const START_FRACTION: f64 = 0.5;
    /// In the endgame the iterations stop at this fraction, leaving the rest to the solver.
    pub const ENDGAME_START_FRACTION: f64 = 0.2;
    /// Without time or node limits (analysis until interrupted), the iterations before a
    /// solve go this deep.
    pub const ENDGAME_ITERATIONS_UNPACED: u32 = 8;
    /// With this many empties more than the exact solver's, a win/loss/draw solve is tried
    /// (a null window around 0) ...
    pub const WLD_EXTRA_EMPTIES: u32 = 2;
    /// ... as it takes about this fraction of the exact solver's time (measured in nodes on
    /// FFO #40-44: doc/othello.md#measurements).
    pub const WLD_TIME_FRACTION: f64 = 0.3;
    /// The exact solver is tried from this many empties on 8x8 (when the time allows: see
    /// `SOLVE_SECONDS_AT_LIMIT`) ...
    pub const SOLVE_EMPTIES_8X8: u32 = 20;
    /// ... and on other sizes, where the multi-word board is slower per node but branches
    /// less (measured on 10x10: doc/othello.md#measurements).
    pub const SOLVE_EMPTIES_OTHER: u32 = 16;
    /// The solver's expected time at the empties above, in seconds (measured on 8x8 random
    /// positions: doc/othello.md#measurements); each empty square fewer divides it by 3.
    pub const SOLVE_SECONDS_AT_LIMIT: f64 = 1.5;
    /// The deepest iteration.
    pub const MAX_DEPTH: u32 = 64;
}

/// A score above every evaluation: a finished game scores this plus 100 times its final disc
/// difference (negated for a loss; a draw scores 0).
const WIN: i32 = 1_000_000;
const INFINITY: i32 = 2 * WIN;
/// A pass in a principal variation.
const PASS_CODE: u16 = u16::MAX - 1;

/// A game-theoretic result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    fn of(score: i32) -> Outcome {
        match score {
            s if s > 0 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}

/// What one completed iteration (or the solver) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Plies searched (for an exact result: the empties).
    pub depth: u32,
    /// For the side to move, in hundredths of a disc; when `exact`, the final disc
    /// difference (empties to the winner) times 100.
    pub score: i32,
    /// The game was searched to its end (the solver, or an iteration that saw every end).
    pub exact: bool,
    /// Nodes so far in this move's search.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, starting with the move to play.
    pub pv: Vec<Move>,
    /// The result with perfect play, when proved (by a search to the end, the exact solver,
    /// or the win/loss/draw solver, whose score then stays the evaluation's).
    pub outcome: Option<Outcome>,
    /// Every move at the root with its score in this iteration, best first: exact for the
    /// best move, an upper bound for the others (a null-window search showed them no
    /// better). Empty for the solver's result and for a forced pass.
    pub moves: Vec<(Move, i32)>,
}

impl SearchInfo {
    /// The best move (`Pass` when there is none to play).
    pub fn best(&self) -> Move {
        self.pv.first().copied().unwrap_or(Move::Pass)
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The searcher: keeps its tables between moves (allocated once).
pub struct Searcher {
    table: Table<MidEntry>,
    /// The solver's table. Allocated with the searcher, not at the first endgame: filling
    /// 16 MB inside a move's time cost tens of milliseconds on a loaded machine.
    end_table: EndTable,
    /// The exact solver is tried at or below this many empties (`None`: by board size).
    pub solve_empties: Option<u32>,
    /// The evaluation at the leaves, and of the solver's estimates (the solver orders its
    /// moves with the hand-written one).
    pub evaluation: Evaluation,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            table: Table::new(tuning::TABLE_BITS),
            end_table: EndTable::new(solve::TABLE_BITS),
            solve_empties: None,
            evaluation: Evaluation::default(),
        }
    }

    /// Chooses a move for `color` (who must be to move), within `limits` and until `stop` is
    /// set; `report` sees every completed iteration. Returns the last complete result; the
    /// move is `Pass` only when `color` has no legal move. Equal calls give equal answers
    /// when only node or depth limits apply (the table is cleared each time).
    ///
    /// With a depth limit the solver is not used (the limit is the search asked for).
    pub fn choose(
        &mut self,
        board: &Board,
        color: Color,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchInfo {
        let mut budget = Budget::new(limits, stop);
        self.table.new_search();
        let solve_empties = self.solve_empties.unwrap_or(if board.size() == 8 {
            tuning::SOLVE_EMPTIES_8X8
        } else {
            tuning::SOLVE_EMPTIES_OTHER
        });
        let table = &mut self.table;
        let end_table = &mut self.end_table;
        let size = board.size();
        let evaluation = &self.evaluation;
        with_position!(board, color, |pos, shape| {
            let mut search = Search::new(shape, table, size, evaluation);
            search.run(&pos, limits, solve_empties, end_table, &mut budget, report)
        })
    }
}

/// One move's search over one representation.
struct Search<'t, B: Bits> {
    shape: &'static B::Shape,
    masks: Masks<B>,
    table: &'t mut Table<MidEntry>,
    size: usize,
    evaluation: &'t Evaluation,
    /// Per square: a static ordering bonus (corners high, X- and C-squares low).
    square_class: Vec<i32>,
    /// Per square: the corner it is an X- or C-square of, if any.
    corner_of: Vec<Option<usize>>,
    history: Vec<i32>,
    killers: Vec<[u16; 2]>,
    /// Triangular principal-variation table: `pv[ply]` is the line from `ply`.
    pv: Vec<Vec<u16>>,
    lists: Vec<Vec<(i32, usize, B)>>,
}

impl<'t, B: Bits> Search<'t, B> {
    fn new(
        shape: &'static B::Shape,
        table: &'t mut Table<MidEntry>,
        size: usize,
        evaluation: &'t Evaluation,
    ) -> Self {
        let masks = Masks::<B>::new(shape);
        let squares = size * size;
        let mut square_class = vec![0; squares];
        let mut corner_of = vec![None; squares];
        for i in 0..squares {
            let (x, y) = (i % size, i / size);
            if x == 0 || y == 0 || x == size - 1 || y == size - 1 {
                square_class[i] = 20;
            }
            for (k, &(corner, xs, cs)) in masks.corner_groups.iter().enumerate() {
                if corner.contains(i) {
                    square_class[i] = 400;
                } else if xs.contains(i) {
                    square_class[i] = -300;
                    corner_of[i] = Some(k);
                } else if cs.contains(i) {
                    square_class[i] = -60;
                    corner_of[i] = Some(k);
                }
            }
        }
        Search {
            shape,
            masks,
            table,
            size,
            evaluation,
            square_class,
            corner_of,
            history: vec![0; squares],
            killers: vec![[NO_MOVE; 2]; tuning::MAX_DEPTH as usize * 2 + 8],
            pv: vec![Vec::new(); tuning::MAX_DEPTH as usize * 2 + 8],
            lists: Vec::new(),
        }
    }

    fn run(
        &mut self,
        pos: &Pos<B>,
        limits: &Limits,
        solve_empties: u32,
        end_table: &mut EndTable,
        budget: &mut Budget,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchInfo {
        let empties = pos.empties(self.shape).count();
        let moves = pos.moves(self.shape);
        let mut info = SearchInfo {
            depth: 0,
            score: 0,
            exact: false,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            outcome: None,
            moves: Vec::new(),
        };
        if moves.is_empty() {
            info.pv.push(Move::Pass);
            return info;
        }
        // The exact solver if it fits the time, else the win/loss/draw one if that fits.
        let solvable = limits.max_depth.is_none();
        let exact_solve = solvable
            && empties <= solve_empties
            && solver_fits(empties, self.size, 1.0, limits, budget);
        let wld_solve = solvable
            && !exact_solve
            && empties <= solve_empties + tuning::WLD_EXTRA_EMPTIES
            && solver_fits(
                empties,
                self.size,
                tuning::WLD_TIME_FRACTION,
                limits,
                budget,
            );
        let endgame = exact_solve || wld_solve;
        let start_fraction = if endgame {
            tuning::ENDGAME_START_FRACTION
        } else {
            tuning::START_FRACTION
        };
        // Before any iteration completes, the best-ordered move stands.
        let mut root = self.order(pos, moves, NO_MOVE, 0, 2);
        info.pv.push(Move::Play(self.square(root[0].1)));
        let max_depth = limits.max_depth.unwrap_or(tuning::MAX_DEPTH).max(1);
        for depth in 1..=max_depth {
            let Some(score) = self.root_iteration(pos, &mut root, depth, budget) else {
                break;
            };
            info = SearchInfo {
                depth,
                score: to_report(score),
                // A terminal score short of that depth proves a win or a loss, not its size.
                exact: depth >= empties,
                nodes: budget.nodes,
                elapsed: budget.elapsed(),
                pv: self.pv[0].iter().map(|&c| self.decode(c)).collect(),
                outcome: (depth >= empties).then(|| Outcome::of(score)),
                moves: root
                    .iter()
                    .map(|&(v, i, _)| (Move::Play(self.square(i)), to_report(v)))
                    .collect(),
            };
            report(&info);
            let allowed = allowed_seconds(limits, budget);
            let spent = allowed
                .is_some_and(|t| budget.elapsed().as_secs_f64() >= t * start_fraction)
                || limits
                    .max_nodes
                    .is_some_and(|n| budget.nodes as f64 >= n as f64 * start_fraction);
            // Without time or node limits nothing else would hand over to the solver.
            let unpaced = allowed.is_none() && limits.max_nodes.is_none();
            let handover = endgame && unpaced && depth >= tuning::ENDGAME_ITERATIONS_UNPACED;
            if info.exact || spent || handover || (root.len() == 1 && allowed.is_some()) {
                break;
            }
        }
        if endgame && !info.exact && !budget.exhausted() {
            end_table.new_search();
            // The leaves' evaluation makes the solver's estimates (its root guess, probcut);
            // the solver orders its moves with the hand-written terms whatever this is.
            let mut solver = Solver::<B>::new(self.shape, end_table, self.evaluation.clone());
            let (lo, hi) = if exact_solve {
                (-endgame::INFINITY, endgame::INFINITY)
            } else {
                (-1, 1)
            };
            if let Some((best, score)) = solver.root(pos, lo, hi, budget, &mut |_| {}) {
                let best = best.map_or(Move::Pass, |i| Move::Play(self.square(i)));
                // The solver knows the best move and its value, not the line after it.
                let pv = if info.best() == best {
                    info.pv.clone()
                } else {
                    vec![best]
                };
                let outcome = Outcome::of(score);
                if exact_solve {
                    info = SearchInfo {
                        depth: empties,
                        score: score * 100,
                        exact: true,
                        nodes: budget.nodes,
                        elapsed: budget.elapsed(),
                        pv,
                        outcome: Some(outcome),
                        moves: Vec::new(),
                    };
                } else {
                    info.outcome = Some(outcome);
                    // A move that secures a win or a draw replaces the iterations' move; when
                    // every move loses, the evaluation's choice keeps the best chances.
                    if outcome != Outcome::Loss {
                        info.pv = pv;
                    }
                }
                report(&info);
            }
        }
        info.nodes = budget.nodes;
        info.elapsed = budget.elapsed();
        info
    }

    fn square(&self, i: usize) -> Square {
        Square::from_index(i, self.size)
    }

    fn decode(&self, code: u16) -> Move {
        if code == PASS_CODE {
            Move::Pass
        } else {
            Move::Play(self.square(code as usize))
        }
    }

    /// One iteration at the root; `None` if the budget ran out. Reorders `root` best first.
    fn root_iteration(
        &mut self,
        pos: &Pos<B>,
        root: &mut [(i32, usize, B)],
        depth: u32,
        budget: &mut Budget,
    ) -> Option<i32> {
        let mut alpha = -INFINITY;
        let mut best = 0;
        for (k, entry) in root.iter_mut().enumerate() {
            let (_, i, flips) = *entry;
            let child = pos.play(i, flips);
            let mut v = if k == 0 {
                -self.negamax(&child, depth - 1, 1, -INFINITY, -alpha, budget)
            } else {
                -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha, budget)
            };
            if k > 0 && v > alpha && !budget.exhausted() {
                v = -self.negamax(&child, depth - 1, 1, -INFINITY, -alpha, budget);
            }
            if budget.exhausted() {
                return None;
            }
            // Moves that failed low keep their bound as a sort key, below the best.
            entry.0 = v;
            if v > alpha {
                alpha = v;
                best = k;
                self.set_pv(0, i as u16);
            }
        }
        // Best first, the rest by their (bound) scores, ties in the previous order.
        root[..=best].rotate_right(1);
        root[1..].sort_by_key(|e| -e.0);
        Some(alpha)
    }

    fn set_pv(&mut self, ply: usize, first: u16) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(first);
        line.extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        pos: &Pos<B>,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        self.pv[ply].clear();
        if budget.tick() {
            return 0;
        }
        let moves = pos.moves(self.shape);
        if moves.is_empty() {
            let replies = pos.opponent_moves(self.shape);
            if replies.is_empty() {
                let final_score = pos.final_score(pos.empties(self.shape).count());
                return final_score * 100 + final_score.signum() * WIN;
            }
            let v = -self.negamax(&pos.pass(), depth, ply + 1, -beta, -alpha, budget);
            self.set_pv(ply, PASS_CODE);
            return v;
        }
        if depth == 0 || ply + 2 >= self.pv.len() {
            let replies = pos.opponent_moves(self.shape);
            return evaluate_with(
                self.evaluation,
                pos,
                moves,
                replies,
                &self.masks,
                self.shape,
            )
            .clamp(1 - WIN, WIN - 1);
        }
        let is_pv = beta - alpha > 1;
        let tag = self.table.tag(pos.key);
        let entry = *self.table.slot(pos.key);
        let mut tt_move = NO_MOVE;
        if entry.key == tag {
            tt_move = entry.best;
            if !is_pv && entry.depth as u32 >= depth {
                let s = entry.score;
                match entry.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let list = self.order(pos, moves, tt_move, ply, depth);
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (k, &(_, i, flips)) in list.iter().enumerate() {
            let child = pos.play(i, flips);
            let mut v = if k == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, budget)
            } else {
                -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha, budget)
            };
            if k > 0 && v > alpha && v < beta && !budget.exhausted() {
                v = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, budget);
            }
            if budget.exhausted() {
                self.lists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = i as u16;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, i as u16);
                }
                if v >= beta {
                    let killers = &mut self.killers[ply];
                    if killers[0] != i as u16 {
                        killers[1] = killers[0];
                        killers[0] = i as u16;
                    }
                    // Saturating: an analysis left running for minutes must not overflow it.
                    self.history[i] = self.history[i].saturating_add((depth * depth) as i32);
                    break;
                }
            }
        }
        self.lists[ply] = list;
        let bound = if best <= alpha_before {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        *self.table.slot(pos.key) = MidEntry {
            key: tag,
            score: best,
            best: best_move,
            depth: depth.min(255) as u8,
            bound,
        };
        best
    }

    /// The moves of `pos`, best-looking first, in the buffer of `ply`.
    fn order(
        &mut self,
        pos: &Pos<B>,
        moves: B,
        tt_move: u16,
        ply: usize,
        depth: u32,
    ) -> Vec<(i32, usize, B)> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let occupied = pos.own | pos.opp;
        let killers = self.killers[ply];
        for i in moves.squares() {
            let flips = pos.flips(i, self.shape);
            let mut value = if i as u16 == tt_move {
                1 << 30
            } else if i as u16 == killers[0] {
                1 << 20
            } else if i as u16 == killers[1] {
                1 << 19
            } else {
                self.history[i].min(1 << 18)
            };
            // X- and C-squares lose their penalty once their corner is taken.
            let corner_taken = self.corner_of[i]
                .is_some_and(|k| !(self.masks.corner_groups[k].0 & occupied).is_empty());
            value += if corner_taken {
                0
            } else {
                self.square_class[i]
            };
            if depth >= 2 {
                let own_after = pos.own | flips | B::single(i);
                let replies = B::moves(pos.opp.without(flips), own_after, self.shape);
                value -= 40 * replies.count() as i32
                    + 200 * (replies & self.masks.corners).count() as i32;
            }
            list.push((-value, i, flips));
        }
        list.sort_by_key(|e| e.0);
        list
    }
}

/// Whether the exact solver can be expected to finish within the time allowed (always, with
/// no time limit): its time grows about threefold per empty square.
fn solver_fits(empties: u32, size: usize, fraction: f64, limits: &Limits, budget: &Budget) -> bool {
    let Some(allowed) = allowed_seconds(limits, budget) else {
        return true;
    };
    let reference = if size == 8 {
        tuning::SOLVE_EMPTIES_8X8
    } else {
        tuning::SOLVE_EMPTIES_OTHER
    };
    let expected =
        fraction * tuning::SOLVE_SECONDS_AT_LIMIT * 3f64.powi(empties as i32 - reference as i32);
    expected <= allowed * (1.0 - tuning::ENDGAME_START_FRACTION)
}

/// The seconds this move may take from its start: the budget or the time to the deadline,
/// whichever is less; `None` without either.
fn allowed_seconds(limits: &Limits, budget: &Budget) -> Option<f64> {
    let by_budget = limits.budget.map(|b| b.as_secs_f64());
    let by_deadline = limits
        .deadline
        .map(|d| d.saturating_duration_since(budget.start).as_secs_f64());
    match (by_budget, by_deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A search score as reported: terminal scores become the disc difference times 100.
fn to_report(score: i32) -> i32 {
    if score >= WIN {
        score - WIN
    } else if score <= -WIN {
        score + WIN
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(board: &Board, color: Color, limits: Limits) -> SearchInfo {
        Searcher::new().choose(board, color, &limits, &AtomicBool::new(false), &mut |_| {})
    }

    #[test]
    fn takes_a_free_corner() {
        // Black to move can take a1 (over b2 towards c3).
        let mut b = Board::empty(8).unwrap();
        b.set(Square::new(1, 1), Some(Color::White));
        b.set(Square::new(2, 2), Some(Color::Black));
        b.set(Square::new(3, 3), Some(Color::White));
        b.set(Square::new(4, 4), Some(Color::Black));
        b.set(Square::new(3, 4), Some(Color::White));
        // (Deeper, c5 first keeps a1 for later: also fine, so only the shallow look is pinned.)
        let r = choose(&b, Color::Black, Limits::depth(1));
        assert_eq!(r.best(), Move::Play(Square::new(0, 0)), "{r:?}");
    }

    #[test]
    fn equal_calls_give_equal_answers() {
        let b = Board::new(8).unwrap();
        let a = choose(&b, Color::Black, Limits::nodes(3000));
        let c = choose(&b, Color::Black, Limits::nodes(3000));
        assert_eq!(a.pv, c.pv);
        assert!(a.depth >= 3, "{a:?}");
    }

    #[test]
    fn reports_every_iteration() {
        let b = Board::new(6).unwrap();
        let mut depths = Vec::new();
        let limits = Limits::depth(4);
        Searcher::new().choose(
            &b,
            Color::Black,
            &limits,
            &AtomicBool::new(false),
            &mut |i| {
                depths.push(i.depth);
                assert!(!i.pv.is_empty());
            },
        );
        assert_eq!(depths, [1, 2, 3, 4]);
    }

    #[test]
    fn a_side_without_moves_passes() {
        let mut b = Board::empty(4).unwrap();
        b.set(Square::new(0, 0), Some(Color::White));
        b.set(Square::new(1, 0), Some(Color::Black));
        assert_eq!(
            choose(&b, Color::Black, Limits::depth(3)).best(),
            Move::Pass
        );
    }

    #[test]
    fn the_endgame_is_exact() {
        // The 4x4 start: 12 empties, solved (White wins by 10 counting empties).
        let b = Board::new(4).unwrap();
        let r = choose(&b, Color::Black, Limits::nodes(1_000_000));
        assert!(r.exact);
        assert_eq!(r.score, -1000);
    }

    #[test]
    fn win_loss_draw_beyond_the_exact_limit() {
        use crate::othello::{Game, random_move, solve};
        use crate::rng::Rng;
        let mut rng = Rng::new(9);
        let mut checked = 0;
        while checked < 6 {
            let mut g = Game::new(8).unwrap();
            while g.board().empties() > 14 && !g.is_over() {
                let m =
                    random_move(g.board(), g.to_move(), &mut rng).map_or(Move::Pass, Move::Play);
                g.play(m).unwrap();
            }
            if g.is_over() || !g.board().has_moves(g.to_move()) {
                continue;
            }
            let mut searcher = Searcher::new();
            // Exact up to 12 empties, so 14 gets the win/loss/draw solve.
            searcher.solve_empties = Some(12);
            let c = g.to_move();
            // A fifth of the nodes for the iterations (not enough to reach the end), the rest
            // for the solve.
            let limits = Limits::nodes(400_000);
            let r = searcher.choose(g.board(), c, &limits, &AtomicBool::new(false), &mut |_| {});
            let truth = solve(g.board(), c, 64).unwrap().score;
            // The iterations may reach the end first (then the result is exact).
            if r.exact {
                assert_eq!(r.score, truth * 100);
            }
            assert_eq!(r.outcome, Some(Outcome::of(truth)), "{r:?}");
            if truth >= 0 {
                let mut after = g.clone();
                after.play(r.best()).unwrap();
                let value = -solve(after.board(), after.to_move(), 64).unwrap().score;
                assert_eq!(Outcome::of(value), Outcome::of(truth));
            }
            checked += 1;
        }
    }

    #[test]
    fn stops_at_the_interrupt() {
        let b = Board::new(8).unwrap();
        let r = Searcher::new().choose(
            &b,
            Color::Black,
            &Limits::default(),
            &AtomicBool::new(true),
            &mut |_| {},
        );
        // Nothing completed, yet a legal move comes back.
        assert!(
            b.legal_moves(Color::Black)
                .contains(&r.best().square().unwrap())
        );
    }
}
