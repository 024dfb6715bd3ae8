//! How long a search may run: a time budget, a hard deadline, node and depth caps, and an
//! interrupt flag, checked every few thousand nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Nodes between two looks at the clock and the interrupt flag. A node costs well under a
/// microsecond on 8x8 and a few on 26x26, so a check comes every few milliseconds at worst.
const CHECK_EVERY: u64 = 1024;

/// What the caller allows one move's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The time to spend on this move. Iterative deepening starts no new iteration once half
    /// of it is gone (a fifth, when the exact solver is to have the rest), and aborts the
    /// running one when it is all gone.
    pub budget: Option<Duration>,
    /// A moment the search never runs past, whatever the budget (the clock's hard limit).
    /// Without a budget, the time to it counts as the budget.
    pub deadline: Option<Instant>,
    /// The deepest iteration (plies); deterministic, for tests and `reg_genmove`.
    pub max_depth: Option<u32>,
    /// Nodes over the whole move; deterministic too. Paces iterations as the budget does
    /// (none starts past half of them, or a fifth before a solve).
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// A time budget for the move and nothing else.
    pub fn time(budget: Duration) -> Limits {
        Limits {
            budget: Some(budget),
            ..Limits::default()
        }
    }

    /// Searches `depth` plies (then stops: no time limit).
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: Some(depth),
            ..Limits::default()
        }
    }

    /// At most `nodes` nodes (no time limit).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// The running count of nodes against the limits. `exhausted` turns true once and stays.
pub(crate) struct Budget<'a> {
    pub start: Instant,
    /// The moment the running iteration is aborted.
    hard: Option<Instant>,
    max_nodes: u64,
    stop: &'a AtomicBool,
    pub nodes: u64,
    next_check: u64,
    exhausted: bool,
}

impl<'a> Budget<'a> {
    /// A budget for a helper thread of this search: the same clock, deadline and interrupt
    /// flag, its own node count (added to this one's when the helper is done), no node cap.
    pub fn helper(&self) -> Budget<'a> {
        Budget {
            start: self.start,
            hard: self.hard,
            max_nodes: u64::MAX,
            stop: self.stop,
            nodes: 0,
            next_check: CHECK_EVERY,
            exhausted: self.exhausted,
        }
    }

    pub fn new(limits: &Limits, stop: &'a AtomicBool) -> Budget<'a> {
        let start = Instant::now();
        let by_budget = limits.budget.map(|b| start + b);
        let hard = match (by_budget, limits.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget {
            start,
            hard,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            stop,
            nodes: 0,
            next_check: CHECK_EVERY,
            exhausted: false,
        }
    }

    /// Counts a node; true when the search must unwind now.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check || self.nodes >= self.max_nodes {
            self.next_check = self.nodes + CHECK_EVERY;
            self.check();
        }
        self.exhausted
    }

    fn check(&mut self) {
        if self.nodes >= self.max_nodes
            || self.stop.load(Ordering::Relaxed)
            || self.hard.is_some_and(|h| Instant::now() >= h)
        {
            self.exhausted = true;
        }
    }

    #[inline]
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ticks until the budget says stop; `None` if it has not after `limit` nodes.
    fn nodes_until_exhausted(budget: &mut Budget, limit: u64) -> Option<u64> {
        (1..=limit).find(|_| budget.tick())
    }

    // The search unwinds as soon as `tick` says so (`search::tests::stops_at_the_interrupt`),
    // so these bound how far past its time it can run in nodes, not in wall time: a
    // wall-time bound fails whenever the machine is busy, whatever the search does.
    #[test]
    fn a_spent_budget_or_a_passed_deadline_stops_at_the_next_clock_check() {
        let stop = AtomicBool::new(false);
        for limits in [
            Limits::time(Duration::ZERO),
            Limits {
                deadline: Some(Instant::now()),
                ..Limits::default()
            },
            Limits {
                budget: Some(Duration::from_secs(3600)),
                deadline: Some(Instant::now()),
                ..Limits::default()
            },
        ] {
            let mut budget = Budget::new(&limits, &stop);
            assert_eq!(
                nodes_until_exhausted(&mut budget, 10 * CHECK_EVERY),
                Some(CHECK_EVERY),
                "{limits:?}"
            );
            assert!(budget.tick() && budget.exhausted(), "it stays exhausted");
        }
    }

    #[test]
    fn time_left_node_caps_and_the_interrupt() {
        let stop = AtomicBool::new(false);
        let mut budget = Budget::new(&Limits::time(Duration::from_secs(3600)), &stop);
        assert_eq!(nodes_until_exhausted(&mut budget, 10 * CHECK_EVERY), None);
        let mut budget = Budget::new(&Limits::nodes(1500), &stop);
        assert_eq!(
            nodes_until_exhausted(&mut budget, 10 * CHECK_EVERY),
            Some(1500)
        );
        let mut budget = Budget::new(&Limits::default(), &stop);
        assert_eq!(nodes_until_exhausted(&mut budget, 3 * CHECK_EVERY), None);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(
            nodes_until_exhausted(&mut budget, 3 * CHECK_EVERY),
            Some(CHECK_EVERY)
        );
    }
}
