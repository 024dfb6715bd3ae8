//! The search tree: one arena of nodes shared by every search thread.
//!
//! - A node is a move and its statistics: real visits and wins, RAVE (all-moves-as-first)
//!   visits and wins, and the prior's virtual visits and wins it started with. Win counts
//!   are from the point of view of the player who made the move into the node. A playout
//!   may count as part of a win (the score's share of its value), so real wins are kept in
//!   fixed point, [`REWARD_UNIT`] to a whole win.
//! - A node's children lie side by side in the arena; expanding a node allocates them at
//!   once. Threads share the arena without locks: every field is an atomic, a node's
//!   children are published by a release store of its state, and a thread that finds a
//!   node being expanded by another simply plays out from it.
//! - A thread walking down adds a visit to every node it passes before its playout ends
//!   (a *virtual loss*), so other threads see the path as less attractive and spread out;
//!   the result then adds the win where it is due. With one thread this is exactly the
//!   plain algorithm.
//! - RAVE statistics are updated with plain loads and stores: a rare lost update among
//!   thousands does not matter, and atomic additions on every child of every node of the
//!   path would cost more than the playout.
//! - Between moves the subtree of the position reached is copied into a fresh arena
//!   ([`Tree::subtree`]), so the search goes on from what it already knows.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

use crate::go::point::{Move, Point};

/// The move of a pass node.
const PASS: u32 = u32::MAX;

const LEAF: u32 = 0;
const EXPANDING: u32 = 1;
const EXPANDED: u32 = 2;
/// A node after which the game is over (two passes): never expanded.
const TERMINAL: u32 = 3;

/// A whole win in a node's real wins: fine enough for a score bonus of a few hundredths,
/// and a 64-bit count of them does not overflow in any search.
const REWARD_UNIT: f64 = 65536.0;

/// Index of a node in its tree's arena.
pub type NodeId = u32;

pub const ROOT: NodeId = 0;

/// All atomics, so that a zeroed allocation is a valid arena of empty leaves.
struct Node {
    mv: AtomicU32,
    /// Prior virtual visits and wins, as `f32` bits.
    prior_visits: AtomicU32,
    prior_wins: AtomicU32,
    visits: AtomicU32,
    /// In [`REWARD_UNIT`]s.
    wins: AtomicU64,
    rave_visits: AtomicU32,
    rave_wins: AtomicU32,
    /// Who held the node's point when its playouts ended, in half shares (2 held, 1
    /// neither, 0 the other side): by the player who moved into the node, and by the
    /// playout's winner. The criticality's counts.
    mover_holds: AtomicU32,
    winner_holds: AtomicU32,
    first_child: AtomicU32,
    children: AtomicU32,
    state: AtomicU32,
    /// 0 until a thread claims the node to give its children the network's priors; then
    /// [`NET_CLAIMED`], or past it the value head's win rate for the player who moved into
    /// the node, in fixed point ([`Tree::set_net_value`]).
    net: AtomicU32,
    /// The network's policy for the node's move, as `f32` bits (0 without the network):
    /// PUCT's prior.
    policy: AtomicU32,
}

const NET_CLAIMED: u32 = 1;
/// The value head's win rate is kept in millionths above [`NET_CLAIMED`].
const NET_VALUE_UNIT: f32 = 1e6;

/// A child to create: its move and its prior (virtual visits, virtual wins).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewChild {
    pub mv: Move,
    pub prior_visits: f32,
    pub prior_wins: f32,
}

/// What a node holds, read at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub mv: Move,
    pub visits: u32,
    /// Whole wins, with the playouts' fractions.
    pub wins: f64,
    pub rave_visits: u32,
    pub rave_wins: u32,
    pub prior_visits: f32,
    pub prior_wins: f32,
    /// The network's policy for the move (0 without it).
    pub policy: f32,
    /// In half shares, as in the node.
    pub mover_holds: u32,
    pub winner_holds: u32,
}

impl Stats {
    /// The win rate with the prior's virtual games, what urgency starts from.
    pub fn value(&self) -> f32 {
        (self.wins as f32 + self.prior_wins) / (self.visits as f32 + self.prior_visits).max(1e-6)
    }

    /// How much holding the node's point goes with winning, over its real visits: the
    /// covariance of "the winner holds it" against what the holder and the win rates
    /// alone predict, from -0.5 to 0.5 (Pachi's `tree_node_criticality`, with a point
    /// nobody holds counted as half held by each).
    pub fn criticality(&self) -> f32 {
        if self.visits == 0 {
            return 0.0;
        }
        let n = self.visits as f32;
        let mover_holds = self.mover_holds as f32 / (2.0 * n);
        let winner_holds = self.winner_holds as f32 / (2.0 * n);
        let mover_wins = (self.wins as f32 / n).clamp(0.0, 1.0);
        let expected = mover_holds * mover_wins + (1.0 - mover_holds) * (1.0 - mover_wins);
        winner_holds - expected
    }

    /// The win rate of the real visits alone (the prior's when there are none).
    pub fn winrate(&self) -> f64 {
        if self.visits == 0 {
            (self.prior_wins / self.prior_visits.max(1e-6)) as f64
        } else {
            self.wins / self.visits as f64
        }
    }
}

/// The arena. Its capacity is fixed when it is made; a full tree stops growing and the
/// search goes on refining the nodes it has.
pub struct Tree {
    nodes: Box<[Node]>,
    used: AtomicUsize,
}

fn encode(m: Move) -> u32 {
    match m {
        Move::Pass => PASS,
        Move::Play(p) => p.index() as u32,
    }
}

fn decode(v: u32) -> Move {
    if v == PASS {
        Move::Pass
    } else {
        Move::Play(Point::from_index(v as usize))
    }
}

/// An arena of `capacity` zeroed nodes, or of fewer where the system will not give that
/// much: a memory limit larger than the machine can serve is no reason to abort a search.
fn zeroed_nodes(capacity: usize) -> Box<[Node]> {
    let mut capacity = capacity.max(1);
    loop {
        let layout = match std::alloc::Layout::array::<Node>(capacity) {
            Ok(layout) => layout,
            Err(_) => {
                capacity /= 2;
                continue;
            }
        };
        // A zeroed allocation: the system hands out untouched pages, so a large arena costs
        // memory only as nodes are used.
        // SAFETY: the layout's size is not zero (at least one node of 64 bytes).
        let nodes = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Node>();
        if !nodes.is_null() {
            // SAFETY: allocated by the global allocator with the layout of a `[Node]` of
            // `capacity` elements, as a `Box<[Node]>` frees it; a `Node` is nothing but
            // atomic integers, for which all-zero bits are a valid value (0, a leaf without
            // children).
            return unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(nodes, capacity)) };
        }
        if capacity == 1 {
            std::alloc::handle_alloc_error(layout);
        }
        log::warn!("tree: no memory for {capacity} nodes, trying half as many");
        capacity /= 2;
    }
}

impl Tree {
    /// The memory of one node.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

    /// A tree of one root node (whose move is meaningless) with room for `capacity` nodes
    /// (fewer if the system cannot give them).
    pub fn new(capacity: usize) -> Tree {
        let nodes = zeroed_nodes(capacity);
        nodes[0].mv.store(PASS, Ordering::Relaxed);
        Tree {
            nodes,
            used: AtomicUsize::new(1),
        }
    }

    /// Nodes in use.
    pub fn node_count(&self) -> usize {
        self.used.load(Ordering::Relaxed).min(self.nodes.len())
    }

    /// The share of the arena in use, from 0 to 1.
    pub fn fill(&self) -> f32 {
        self.node_count() as f32 / self.nodes.len() as f32
    }

    /// Whether `count` more nodes fit. An expansion that would not fit is not worth its
    /// priors' work.
    pub fn has_room(&self, count: usize) -> bool {
        self.used.load(Ordering::Relaxed) + count <= self.nodes.len()
    }

    #[inline]
    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn stats(&self, id: NodeId) -> Stats {
        let n = self.node(id);
        Stats {
            mv: decode(n.mv.load(Ordering::Relaxed)),
            visits: n.visits.load(Ordering::Relaxed),
            wins: n.wins.load(Ordering::Relaxed) as f64 / REWARD_UNIT,
            rave_visits: n.rave_visits.load(Ordering::Relaxed),
            rave_wins: n.rave_wins.load(Ordering::Relaxed),
            prior_visits: f32::from_bits(n.prior_visits.load(Ordering::Relaxed)),
            prior_wins: f32::from_bits(n.prior_wins.load(Ordering::Relaxed)),
            policy: f32::from_bits(n.policy.load(Ordering::Relaxed)),
            mover_holds: n.mover_holds.load(Ordering::Relaxed),
            winner_holds: n.winner_holds.load(Ordering::Relaxed),
        }
    }

    pub fn mv(&self, id: NodeId) -> Move {
        decode(self.node(id).mv.load(Ordering::Relaxed))
    }

    pub fn visits(&self, id: NodeId) -> u32 {
        self.node(id).visits.load(Ordering::Relaxed)
    }

    /// The children of an expanded node (empty for a leaf or a node being expanded).
    #[inline]
    pub fn children(&self, id: NodeId) -> std::ops::Range<NodeId> {
        let n = self.node(id);
        if n.state.load(Ordering::Acquire) != EXPANDED {
            return 0..0;
        }
        let first = n.first_child.load(Ordering::Relaxed);
        first..first + n.children.load(Ordering::Relaxed)
    }

    pub fn is_expanded(&self, id: NodeId) -> bool {
        self.node(id).state.load(Ordering::Acquire) == EXPANDED
    }

    pub fn is_terminal(&self, id: NodeId) -> bool {
        self.node(id).state.load(Ordering::Relaxed) == TERMINAL
    }

    /// Marks a leaf as the end of the game: it is never expanded.
    pub fn set_terminal(&self, id: NodeId) {
        let _ = self.node(id).state.compare_exchange(
            LEAF,
            TERMINAL,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Claims a leaf for expansion: `true` for the one thread that gets to expand it.
    pub fn begin_expand(&self, id: NodeId) -> bool {
        self.node(id)
            .state
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Gives a claimed leaf its children. When the arena is full the node goes back to
    /// being a leaf, claimable again (and `false` is returned).
    pub fn finish_expand(&self, id: NodeId, children: &[NewChild]) -> bool {
        let n = self.node(id);
        let count = children.len();
        let first = self.used.fetch_add(count, Ordering::Relaxed);
        if count == 0 || first + count > self.nodes.len() {
            // Nothing was handed out that anyone will read: a full arena stays full.
            n.state.store(LEAF, Ordering::Release);
            return false;
        }
        for (i, c) in children.iter().enumerate() {
            let child = &self.nodes[first + i];
            child.mv.store(encode(c.mv), Ordering::Relaxed);
            child
                .prior_visits
                .store(c.prior_visits.to_bits(), Ordering::Relaxed);
            child
                .prior_wins
                .store(c.prior_wins.to_bits(), Ordering::Relaxed);
        }
        n.first_child.store(first as u32, Ordering::Relaxed);
        n.children.store(count as u32, Ordering::Relaxed);
        n.state.store(EXPANDED, Ordering::Release);
        true
    }

    /// Claims an expanded node for the network's priors: `true` for the one thread that
    /// gets to give them, once in the node's life (a kept subtree remembers).
    pub fn claim_net(&self, id: NodeId) -> bool {
        self.node(id)
            .net
            .compare_exchange(0, NET_CLAIMED, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Records the value head's win rate at a claimed node, for the player who moved into it.
    pub fn set_net_value(&self, id: NodeId, win: f32) {
        let v = NET_CLAIMED + 1 + (win.clamp(0.0, 1.0) * NET_VALUE_UNIT) as u32;
        self.node(id).net.store(v, Ordering::Relaxed);
    }

    /// The value head's win rate at `id` for the player who moved into it, once recorded.
    pub fn net_value(&self, id: NodeId) -> Option<f32> {
        let v = self.node(id).net.load(Ordering::Relaxed);
        (v > NET_CLAIMED).then(|| (v - NET_CLAIMED - 1) as f32 / NET_VALUE_UNIT)
    }

    /// Sets the network's policy for a node's move.
    pub fn set_policy(&self, id: NodeId, p: f32) {
        self.node(id).policy.store(p.to_bits(), Ordering::Relaxed);
    }

    /// Replaces a node's prior.
    pub fn set_prior(&self, id: NodeId, visits: f32, wins: f32) {
        let n = self.node(id);
        n.prior_visits.store(visits.to_bits(), Ordering::Relaxed);
        n.prior_wins.store(wins.to_bits(), Ordering::Relaxed);
    }

    /// Adds a prior to a node's (the root's tactical bonus, given after expansion).
    pub fn add_prior(&self, id: NodeId, visits: f32, wins: f32) {
        let n = self.node(id);
        let v = f32::from_bits(n.prior_visits.load(Ordering::Relaxed)) + visits;
        let w = f32::from_bits(n.prior_wins.load(Ordering::Relaxed)) + wins;
        n.prior_visits.store(v.to_bits(), Ordering::Relaxed);
        n.prior_wins.store(w.to_bits(), Ordering::Relaxed);
    }

    /// The child of `id` to walk into: the highest urgency, mixing each child's value with
    /// its RAVE win rate, the RAVE share fading as real visits grow.
    #[inline]
    pub fn select(&self, id: NodeId, how: &Selection) -> Option<NodeId> {
        self.select_with(id, how, || 0.0)
    }

    /// [`select`](Tree::select) with `bonus()` added to each child's urgency (the wide root's
    /// noise).
    #[inline]
    pub fn select_with(
        &self,
        id: NodeId,
        how: &Selection,
        mut bonus: impl FnMut() -> f32,
    ) -> Option<NodeId> {
        let mut best = None;
        let mut best_urgency = f32::MIN;
        for c in self.children(id) {
            let s = self.stats(c);
            let u = urgency(&s, how) + bonus();
            if u > best_urgency {
                best_urgency = u;
                best = Some(c);
            }
        }
        best
    }

    /// The child of `id` to walk into by PUCT (AlphaGo Zero's rule): the mean result of its
    /// real visits plus `c_puct * policy * sqrt(parent visits) / (1 + visits)`. A child not
    /// yet visited starts from the visited children's mean less `fpu_reduction` times the
    /// square root of their policy share (Leela Zero's first-play urgency): the more of the
    /// policy the search has already looked at, the less an unexplored move is presumed.
    pub fn select_puct(&self, id: NodeId, c_puct: f32, fpu_reduction: f32) -> Option<NodeId> {
        self.select_puct_with(id, c_puct, fpu_reduction, 1.0, || 0.0)
    }

    /// [`select_puct`](Tree::select_puct) with each child's policy raised to `policy_power`
    /// and `bonus()` added to its value (the wide root's noise).
    #[inline]
    pub fn select_puct_with(
        &self,
        id: NodeId,
        c_puct: f32,
        fpu_reduction: f32,
        policy_power: f32,
        mut bonus: impl FnMut() -> f32,
    ) -> Option<NodeId> {
        let (mut visits, mut wins, mut seen_policy) = (0u32, 0.0f64, 0.0f32);
        for c in self.children(id) {
            let s = self.stats(c);
            if s.visits > 0 {
                visits += s.visits;
                wins += s.wins;
                seen_policy += s.policy;
            }
        }
        let mean = if visits == 0 {
            0.5
        } else {
            (wins / visits as f64) as f32
        };
        let first_play = mean - fpu_reduction * seen_policy.sqrt();
        let explore = c_puct * (visits.max(1) as f32).sqrt();
        let mut best = None;
        let mut best_urgency = f32::MIN;
        for c in self.children(id) {
            let s = self.stats(c);
            let q = if s.visits == 0 {
                first_play
            } else {
                (s.wins / s.visits as f64) as f32
            };
            let policy = if policy_power == 1.0 {
                s.policy
            } else {
                s.policy.powf(policy_power)
            };
            let u = q + bonus() + explore * policy / (1.0 + s.visits as f32);
            if u > best_urgency {
                best_urgency = u;
                best = Some(c);
            }
        }
        best
    }

    /// A thread passes through `id` on its way down (the visit counts before the result is
    /// known: the virtual loss).
    #[inline]
    pub fn enter(&self, id: NodeId) {
        self.node(id).visits.fetch_add(1, Ordering::Relaxed);
    }

    /// A playout through `id` (entered before) was worth `reward` (0 to 1) to the player who
    /// moved into it.
    #[inline]
    pub fn reward(&self, id: NodeId, reward: f32) {
        let units = (reward.clamp(0.0, 1.0) as f64 * REWARD_UNIT) as u64;
        self.node(id).wins.fetch_add(units, Ordering::Relaxed);
    }

    /// A RAVE result for `id`, counted `weight` times.
    #[inline]
    pub fn rave(&self, id: NodeId, won: bool, weight: u32) {
        let n = self.node(id);
        n.rave_visits.store(
            n.rave_visits.load(Ordering::Relaxed) + weight,
            Ordering::Relaxed,
        );
        if won {
            n.rave_wins.store(
                n.rave_wins.load(Ordering::Relaxed) + weight,
                Ordering::Relaxed,
            );
        }
    }

    /// Who held the point of `id`'s move when a playout through it ended, in half shares
    /// (2 held, 1 neither, 0 the other side): by the player who moved into `id`, and by
    /// the playout's winner. Plain loads and stores, as for RAVE.
    #[inline]
    pub fn holders(&self, id: NodeId, mover: u32, winner: u32) {
        let n = self.node(id);
        for (count, add) in [(&n.mover_holds, mover), (&n.winner_holds, winner)] {
            count.store(count.load(Ordering::Relaxed) + add, Ordering::Relaxed);
        }
    }

    /// The child of `id` playing `m`, if `id` is expanded and has one.
    pub fn child(&self, id: NodeId, m: Move) -> Option<NodeId> {
        let code = encode(m);
        self.children(id)
            .find(|&c| self.node(c).mv.load(Ordering::Relaxed) == code)
    }

    /// The most visited child of `id`.
    pub fn most_visited(&self, id: NodeId) -> Option<NodeId> {
        self.children(id).max_by_key(|&c| self.visits(c))
    }

    /// The most visited line from `id` down (the move into `id` first), at most `max`
    /// moves, stopping at nodes without visits.
    pub fn principal_variation(&self, id: NodeId, max: usize) -> Vec<Move> {
        let mut pv = vec![self.mv(id)];
        let mut node = id;
        while pv.len() < max {
            match self.most_visited(node) {
                Some(c) if self.visits(c) > 0 => {
                    pv.push(self.mv(c));
                    node = c;
                }
                _ => break,
            }
        }
        pv
    }

    /// A new tree of capacity `capacity` holding a copy of the subtree under `id`, `id`
    /// becoming its root (with its statistics). Children the `keep` test refuses are left
    /// out at the root (moves illegal in the real game, such as superko repetitions).
    /// `None` when the subtree does not fit.
    pub fn subtree(
        &self,
        id: NodeId,
        capacity: usize,
        keep: impl Fn(Move) -> bool,
    ) -> Option<Tree> {
        let new = Tree::new(capacity);
        copy_node(self.node(id), new.node(ROOT));
        // Breadth first: (old node, new node) pairs whose children are still to copy.
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((id, ROOT, true));
        while let Some((old, new_id, at_root)) = queue.pop_front() {
            let kids: Vec<NodeId> = self
                .children(old)
                .filter(|&c| !at_root || keep(self.mv(c)))
                .collect();
            if kids.is_empty() {
                let st = self.node(old).state.load(Ordering::Relaxed);
                new.node(new_id).state.store(
                    if st == TERMINAL { TERMINAL } else { LEAF },
                    Ordering::Relaxed,
                );
                continue;
            }
            let first = new.used.fetch_add(kids.len(), Ordering::Relaxed);
            if first + kids.len() > new.nodes.len() {
                return None;
            }
            for (i, &k) in kids.iter().enumerate() {
                copy_node(self.node(k), new.node((first + i) as NodeId));
                queue.push_back((k, (first + i) as NodeId, false));
            }
            let n = new.node(new_id);
            n.first_child.store(first as u32, Ordering::Relaxed);
            n.children.store(kids.len() as u32, Ordering::Relaxed);
            n.state.store(EXPANDED, Ordering::Release);
        }
        Some(new)
    }
}

/// Copies a node's move and statistics (not its children).
fn copy_node(from: &Node, to: &Node) {
    for (a, b) in [
        (&from.mv, &to.mv),
        (&from.prior_visits, &to.prior_visits),
        (&from.prior_wins, &to.prior_wins),
        (&from.visits, &to.visits),
        (&from.rave_visits, &to.rave_visits),
        (&from.rave_wins, &to.rave_wins),
        (&from.mover_holds, &to.mover_holds),
        (&from.winner_holds, &to.winner_holds),
        (&from.net, &to.net),
        (&from.policy, &to.policy),
    ] {
        b.store(a.load(Ordering::Relaxed), Ordering::Relaxed);
    }
    to.wins
        .store(from.wins.load(Ordering::Relaxed), Ordering::Relaxed);
    let st = from.state.load(Ordering::Relaxed);
    to.state.store(
        if st == TERMINAL { TERMINAL } else { LEAF },
        Ordering::Relaxed,
    );
}

/// How [`Tree::select`] weighs a child.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// Visits at which a child's own statistics weigh as much as its RAVE statistics.
    pub rave_equiv: f32,
    /// Virtual RAVE wins for criticality, as a share of the RAVE visits per unit of it.
    pub crit_rave: f32,
    /// Real visits before criticality counts.
    pub crit_min_visits: u32,
}

/// Urgency: the value mixed with the RAVE win rate, `beta` the RAVE share
/// (Gelly and Silver's formula with an equivalence parameter). Past `crit_min_visits`
/// the RAVE statistics gain `crit_rave * criticality * rave_visits` virtual wins (as
/// many visits). A negative criticality takes wins and visits away, and can take the
/// RAVE rate below 0: as in Pachi, a point whose holder tends to lose is pushed down.
#[inline]
fn urgency(s: &Stats, how: &Selection) -> f32 {
    let value = s.value();
    if s.rave_visits == 0 {
        return value;
    }
    let n = s.visits as f32 + s.prior_visits;
    let mut r = s.rave_visits as f32;
    let mut rave_wins = s.rave_wins as f32;
    if how.crit_rave > 0.0 && s.visits > how.crit_min_visits {
        let virtual_wins = how.crit_rave * s.criticality() * r;
        r += virtual_wins;
        rave_wins += virtual_wins;
    }
    let beta = r / (r + n + n * r / how.rave_equiv);
    (1.0 - beta) * value + beta * rave_wins / r
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Selection = Selection {
        rave_equiv: 1000.0,
        crit_rave: 0.0,
        crit_min_visits: 0,
    };

    fn child(i: usize, pv: f32, pw: f32) -> NewChild {
        NewChild {
            mv: Move::Play(Point::from_index(i)),
            prior_visits: pv,
            prior_wins: pw,
        }
    }

    #[test]
    fn expands_selects_and_copies_a_subtree() {
        let t = Tree::new(100);
        assert!(t.begin_expand(ROOT));
        assert!(!t.begin_expand(ROOT), "one thread expands");
        assert!(t.finish_expand(ROOT, &[child(1, 10.0, 5.0), child(2, 10.0, 8.0)]));
        let kids: Vec<NodeId> = t.children(ROOT).collect();
        assert_eq!(kids.len(), 2);
        assert_eq!(t.select(ROOT, &PLAIN), Some(kids[1]), "the better prior");
        // Real results change the choice.
        for _ in 0..30 {
            t.enter(kids[1]);
        }
        for _ in 0..30 {
            t.enter(kids[0]);
            t.reward(kids[0], 1.0);
        }
        assert_eq!(t.select(ROOT, &PLAIN), Some(kids[0]));
        assert!(t.begin_expand(kids[0]));
        assert!(t.finish_expand(kids[0], &[child(3, 1.0, 0.5)]));
        let sub = t.subtree(kids[0], 10, |_| true).expect("fits");
        assert_eq!(sub.stats(ROOT).visits, 30);
        assert_eq!(sub.children(ROOT).len(), 1);
        assert_eq!(
            sub.mv(sub.children(ROOT).start),
            Move::Play(Point::from_index(3))
        );
        // The root filter drops children.
        let none = t.subtree(kids[0], 10, |_| false).expect("fits");
        assert!(!none.is_expanded(ROOT));
    }

    fn stats(visits: u32, wins: f64, mover_holds: u32, winner_holds: u32) -> Stats {
        Stats {
            mv: Move::Pass,
            visits,
            wins,
            rave_visits: 0,
            rave_wins: 0,
            prior_visits: 0.0,
            prior_wins: 0.0,
            policy: 0.0,
            mover_holds,
            winner_holds,
        }
    }

    #[test]
    fn criticality_is_how_much_holding_the_point_goes_with_winning() {
        // 100 playouts, half won; the mover holds the point in exactly the ones it won.
        assert_eq!(stats(100, 50.0, 100, 200).criticality(), 0.5);
        // ... in exactly the ones it lost: the winner never holds it.
        assert_eq!(stats(100, 50.0, 100, 0).criticality(), -0.5);
        // The mover always holds it, whoever wins: nothing to learn from it.
        assert_eq!(stats(100, 50.0, 200, 100).criticality(), 0.0);
        // Nobody ever holds it.
        assert_eq!(stats(100, 30.0, 100, 100).criticality(), 0.0);
        // Held a quarter of the time independently of a 40% win rate: 0.4*0.25 + 0.6*0.75.
        let independent = stats(100, 40.0, 50, 2 * 55).criticality();
        assert!(independent.abs() < 1e-6, "{independent}");
        assert_eq!(stats(0, 0.0, 0, 0).criticality(), 0.0);
    }

    #[test]
    fn criticality_lifts_a_child_only_past_its_visits() {
        let mut critical = stats(3000, 1500.0, 3000, 6000);
        critical.rave_visits = 1000;
        critical.rave_wins = 500;
        let mut plain = critical;
        plain.mover_holds = 6000;
        plain.winner_holds = 3000;
        let with = Selection {
            crit_rave: 1.1,
            crit_min_visits: 2000,
            ..PLAIN
        };
        assert_eq!(urgency(&critical, &PLAIN), urgency(&plain, &PLAIN));
        assert_eq!(urgency(&plain, &with), urgency(&plain, &PLAIN));
        assert!(urgency(&critical, &with) > urgency(&critical, &PLAIN) + 0.01);
        let early = Selection {
            crit_min_visits: 5000,
            ..with
        };
        assert_eq!(urgency(&critical, &early), urgency(&critical, &PLAIN));
        // A negative criticality pushes the child down, at the largest weight too (where
        // few RAVE visits are left).
        let mut losing = stats(3000, 1500.0, 3000, 0);
        losing.rave_visits = 1000;
        losing.rave_wins = 100;
        let heavy = Selection {
            crit_rave: 1.9,
            ..with
        };
        for how in [with, heavy] {
            let u = urgency(&losing, &how);
            assert!(u.is_finite() && u < urgency(&losing, &PLAIN) - 0.05, "{u}");
        }
    }

    #[test]
    fn keeps_the_value_heads_win_rate_once_claimed() {
        let t = Tree::new(10);
        assert_eq!(t.net_value(ROOT), None);
        assert!(t.claim_net(ROOT));
        assert_eq!(t.net_value(ROOT), None, "claimed, not yet valued");
        for win in [0.0, 0.25, 1.0] {
            t.set_net_value(ROOT, win);
            assert!((t.net_value(ROOT).unwrap() - win).abs() < 1e-6);
        }
        assert!(!t.claim_net(ROOT), "a valued node stays claimed");
        let copy = t.subtree(ROOT, 10, |_| true).expect("fits");
        assert_eq!(copy.net_value(ROOT), Some(1.0));
    }

    #[test]
    fn puct_follows_the_policy_then_the_results() {
        let t = Tree::new(10);
        assert!(t.begin_expand(ROOT));
        assert!(t.finish_expand(ROOT, &[child(1, 0.0, 0.0), child(2, 0.0, 0.0)]));
        let kids: Vec<NodeId> = t.children(ROOT).collect();
        t.set_policy(kids[0], 0.3);
        t.set_policy(kids[1], 0.7);
        assert_eq!(
            t.select_puct(ROOT, 1.0, 0.2),
            Some(kids[1]),
            "the policy first"
        );
        // The favourite loses three times: the unvisited child, starting from that mean
        // less the reduction, now leads on its exploration term.
        for _ in 0..3 {
            t.enter(kids[1]);
        }
        assert_eq!(t.select_puct(ROOT, 1.0, 0.2), Some(kids[0]));
        // The first child wins: it stays the choice.
        for _ in 0..3 {
            t.enter(kids[0]);
            t.reward(kids[0], 1.0);
        }
        assert_eq!(t.select_puct(ROOT, 1.0, 0.2), Some(kids[0]));
        let copy = t.subtree(ROOT, 10, |_| true).expect("fits");
        assert_eq!(copy.stats(copy.children(ROOT).start).policy, 0.3);
    }

    #[test]
    fn a_full_arena_leaves_the_node_a_leaf() {
        let t = Tree::new(2);
        assert!(t.begin_expand(ROOT));
        assert!(!t.finish_expand(ROOT, &[child(1, 1.0, 0.5), child(2, 1.0, 0.5)]));
        assert!(!t.is_expanded(ROOT));
        assert_eq!(t.children(ROOT).len(), 0);
    }
}
