//! The two ways a simulation walks the tree, as Pachi swaps its tree policies
//! (`uct/policy/ucb1amaf.c` beside `ucb1.c`):
//!
//! - [`Rave`], the default: MoGo's and Pachi's search. A leaf is expanded once it has been
//!   visited often enough, its children start with the learnt weights' priors, the network
//!   gives its priors to the nodes the search returns to, children are chosen by urgency
//!   (win rate mixed with RAVE), and every simulation ends in a playout.
//! - [`Zero`]: AlphaGo Zero's search. Every leaf is expanded and valued by the network at
//!   its first visit, that value is the simulation's result (no playout), and children are
//!   chosen by PUCT over the network's policy.
//!
//! The search picks one when it is built ([`Strategy::new`]) and each thread's simulations
//! are compiled for it (`Worker` is generic over [`TreePolicy`]), so the descent asks
//! nothing at each node to know which search it is in.

use crate::go::network::evaluator::Evaluator;
use crate::go::search::params::Tunables;
use crate::go::search::priors::{Leaf, child_priors};
use crate::go::search::tree::{NodeId, ROOT, Selection, Tree};
use crate::rng::Rng;

/// What sets one search apart from the other as a simulation walks down the tree.
pub(crate) trait TreePolicy: Copy {
    /// Whether `leaf` is ready for children (the arena's room aside).
    fn ready_to_expand(&self, tree: &Tree, leaf: NodeId) -> bool;

    /// Whether the expanded `node` earns the network's priors (and value) now.
    fn earns_net_priors(&self, tree: &Tree, node: NodeId) -> bool;

    /// Whether the network's value of `node`, just evaluated, is the simulation's result:
    /// the walk ends there, without a playout.
    fn net_value_ends_walk(&self, node: NodeId) -> bool;

    /// The priors (virtual visits, virtual wins) of the side to move at `leaf` playing each
    /// of its moves, into `out`.
    fn child_priors(&self, leaf: &Leaf<'_>, out: &mut Vec<(f32, f32)>);

    /// The child of the expanded `node` to walk into.
    fn select(&self, tree: &Tree, node: NodeId) -> Option<NodeId>;

    /// The child of the root to walk into under KataGo's wide root noise (`noise` > 0).
    fn select_wide(&self, tree: &Tree, noise: f32, rng: &mut Rng) -> Option<NodeId>;
}

/// The wide root's bonus to one child's value: half the time, `noise` times half the size
/// of a standard normal draw (KataGo's utility bonus, which is twice a win rate's).
fn wide_root_bonus(noise: f32, rng: &mut Rng) -> f32 {
    if rng.below(2) == 0 {
        return 0.0;
    }
    // Box and Muller's draw; 1 - unit() keeps the logarithm's argument above 0.
    let (u, v) = (1.0 - rng.unit(), rng.unit());
    let normal = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
    noise * 0.5 * normal.abs() as f32
}

/// The search a [`Tunables`] and a network ask for, chosen once per search.
#[derive(Clone, Copy)]
pub(crate) enum Strategy<'t> {
    Rave(Rave<'t>),
    Zero(Zero),
}

impl<'t> Strategy<'t> {
    /// The zero search where the network's value is a simulation's whole result
    /// (`net_value_mix` 1) and there is a network to give it; otherwise RAVE with playouts
    /// (which also blends the value in at a `net_value_mix` between 0 and 1).
    pub(crate) fn new(t: &'t Tunables, network: Option<&Evaluator>) -> Strategy<'t> {
        if network.is_some() && t.net_value_mix >= 1.0 {
            Strategy::Zero(Zero {
                c_puct: t.puct,
                fpu_reduction: t.fpu_reduction,
                prior_even: t.prior_even,
            })
        } else {
            Strategy::Rave(Rave {
                t,
                selection: Selection {
                    rave_equiv: t.rave_equiv,
                    crit_rave: t.crit_rave,
                    crit_min_visits: t.crit_min_visits,
                },
            })
        }
    }
}

/// MoGo's and Pachi's search: urgency with RAVE, playouts to the end of the game.
#[derive(Clone, Copy)]
pub(crate) struct Rave<'t> {
    t: &'t Tunables,
    selection: Selection,
}

impl TreePolicy for Rave<'_> {
    /// After `expand_visits`, more as the arena fills.
    fn ready_to_expand(&self, tree: &Tree, leaf: NodeId) -> bool {
        tree.visits(leaf) > self.t.expand_threshold(tree.fill())
    }

    /// At `net_min_visits`: an evaluation costs as much as tens of playouts, so only the
    /// nodes the search returns to earn it.
    fn earns_net_priors(&self, tree: &Tree, node: NodeId) -> bool {
        tree.visits(node) >= self.t.net_min_visits
    }

    /// Never: the value enters as the node's virtual visits, or blended with the playout's
    /// result (`net_value_mix`), and the playout still decides.
    fn net_value_ends_walk(&self, _: NodeId) -> bool {
        false
    }

    /// The learnt weights' (or the hand-set bonuses').
    fn child_priors(&self, leaf: &Leaf<'_>, out: &mut Vec<(f32, f32)>) {
        child_priors(leaf, self.t, out);
    }

    fn select(&self, tree: &Tree, node: NodeId) -> Option<NodeId> {
        tree.select(node, &self.selection)
    }

    /// The value's noise only: the policy is in the children's priors already.
    fn select_wide(&self, tree: &Tree, noise: f32, rng: &mut Rng) -> Option<NodeId> {
        tree.select_with(ROOT, &self.selection, || wide_root_bonus(noise, rng))
    }
}

/// AlphaGo Zero's search: PUCT over the network's policy, the value head's win rate for a
/// result.
#[derive(Clone, Copy)]
pub(crate) struct Zero {
    c_puct: f32,
    fpu_reduction: f32,
    prior_even: f32,
}

impl TreePolicy for Zero {
    /// At its first visit: the evaluation that values a leaf also gives its children their
    /// policy, so the children must be there.
    fn ready_to_expand(&self, _: &Tree, _: NodeId) -> bool {
        true
    }

    fn earns_net_priors(&self, _: &Tree, _: NodeId) -> bool {
        true
    }

    /// Below the root: a walk ended at the root would back up nothing.
    fn net_value_ends_walk(&self, node: NodeId) -> bool {
        node != ROOT
    }

    /// Even ones: PUCT reads the network's policy alone, so the learnt weights' priors
    /// would go unread.
    fn child_priors(&self, leaf: &Leaf<'_>, out: &mut Vec<(f32, f32)>) {
        out.clear();
        out.resize(leaf.moves.len(), (self.prior_even, self.prior_even / 2.0));
    }

    /// PUCT with Leela Zero's first-play urgency (`puct`, `fpu_reduction`).
    fn select(&self, tree: &Tree, node: NodeId) -> Option<NodeId> {
        tree.select_puct(node, self.c_puct, self.fpu_reduction)
    }

    fn select_wide(&self, tree: &Tree, noise: f32, rng: &mut Rng) -> Option<NodeId> {
        let power = 1.0 / (1.0 + 4.0 * noise);
        tree.select_puct_with(ROOT, self.c_puct, self.fpu_reduction, power, || {
            wide_root_bonus(noise, rng)
        })
    }
}
