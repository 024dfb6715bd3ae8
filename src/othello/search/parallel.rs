//! The exact solver on several threads: young brothers wait (Feldmann's YBWC). At a
//! null-window node with enough empties, once its first move is searched and has not cut
//! off, the other moves are shared with whichever threads are idle: each takes the next
//! move not yet taken, the node's own thread too, until the moves run out or one of them
//! cuts off, which stops the others (their unfinished searches are dropped unstored). The
//! threads share the transposition table, which is how a thread benefits from what another
//! found.
//!
//! A helper is a thread started for one split and ended with it (a split costs tens of
//! microseconds, so only nodes with `SPLIT_EMPTIES` or more empties split, whose searches
//! take milliseconds); it may split again below when threads are idle. A split's own
//! thread, once no moves are left to take, lends its core to the helpers' splits while it
//! waits for them. Node counts are the sum over threads, and vary from run to run.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::othello::bits::Bits;
use crate::othello::position::Pos;
use crate::othello::search::endgame::{Child, Solver};
use crate::othello::search::limits::Budget;

/// Nodes with fewer empties are searched by one thread.
const SPLIT_EMPTIES: u32 = 12;

impl<B: Bits> Solver<'_, B> {
    /// Searches `rest`, the moves of `pos` after its first, against `alpha` on this thread
    /// and idle ones: the best value and move among them, or `None` when no thread was idle
    /// (the caller goes on alone). The value is meaningless when the search halted.
    pub fn split(
        &mut self,
        pos: &Pos<B>,
        rest: &[Child<B>],
        alpha: i32,
        n: u32,
        budget: &mut Budget,
    ) -> Option<(i32, u16)> {
        let pool = self.pool?;
        if n < SPLIT_EMPTIES || rest.len() < 2 {
            return None;
        }
        let helpers = pool.reserve(rest.len() - 1);
        if helpers == 0 {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let next = AtomicUsize::new(0);
        let found = Mutex::new((i32::MIN, u16::MAX));
        let helper_nodes = AtomicU64::new(0);
        let mut aborts = self.aborts.clone();
        aborts.push(stop.clone());
        let proto = budget.helper();
        // The moves, taken in order by whichever thread is free; a fail high stops them all.
        let work = |solver: &mut Solver<B>, budget: &mut Budget| {
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= rest.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let c = rest[k];
                let child = pos.play_unkeyed(c.square, c.flips);
                let v = -solver.nws(&child, -alpha - 1, n - 1, budget);
                if solver.halted(budget) {
                    break;
                }
                if let Ok(mut f) = found.lock()
                    && v > f.0
                {
                    *f = (v, c.square as u16);
                }
                if v > alpha {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        };
        self.aborts.push(stop.clone());
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                let (work, helper_nodes) = (&work, &helper_nodes);
                let mut solver = self.helper(aborts.clone());
                let mut b = proto.helper();
                scope.spawn(move || {
                    work(&mut solver, &mut b);
                    helper_nodes.fetch_add(b.nodes, Ordering::Relaxed);
                    pool.release();
                });
            }
            work(self, budget);
            // No moves left to take: until the helpers finish theirs, this thread's core
            // is free for their splits below (a helpful master, in the YBWC literature).
            pool.release();
        });
        pool.resume();
        self.aborts.pop();
        self.aborted = self.aborts.iter().any(|a| a.load(Ordering::Relaxed));
        budget.nodes += helper_nodes.load(Ordering::Relaxed);
        let found = found.into_inner().unwrap_or((i32::MIN, u16::MAX));
        Some(found)
    }
}
