//! One simulation of the tree search, run by each search thread with its own scratch space
//! (a board, the playout policy with its ladder boards, a random generator): down the tree
//! by the search's tree policy (`strategy`: RAVE's urgency or PUCT), expansion of the leaf,
//! a playout (or the network's value at the leaf), and the result back up with RAVE.

use std::collections::HashSet;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use crate::color::Color;
use crate::go::board::Board;
use crate::go::network::evaluator::Evaluator;
use crate::go::point::{Move, Point};
use crate::go::score;
use crate::go::search::avoid::AvoidMoves;
use crate::go::search::dead_stones::{holder_at_end, owner_at_end};
use crate::go::search::params::Tunables;
use crate::go::search::playout::last_moves::Last;
use crate::go::search::playout::policy::Policy;
use crate::go::search::playout::{Recent, move_cap};
use crate::go::search::priors::{Leaf, NetScratch, net_priors};
use crate::go::search::strategy::{Strategy, TreePolicy};
use crate::go::search::tally::Tally;
use crate::go::search::tree::{NewChild, NodeId, ROOT, Tree};
use crate::rng::Rng;

/// "Not played in this simulation", in the RAVE bookkeeping.
const NO_PLY: u32 = u32::MAX;

/// What the threads of one search share: the tree and the root position.
pub(crate) struct Shared<'g> {
    pub(crate) tree: Tree,
    /// The colour to move at the root.
    pub(crate) color: Color,
    pub(crate) board: Board,
    /// Positions of the game so far: a capture in the tree may not bring one back.
    pub(crate) history: HashSet<u64>,
    /// The game's komi with White's handicap bonus: what the count gives White and the
    /// network is told.
    pub(crate) komi: f64,
    /// What the playouts are counted with: `komi` plus a handicap game's dynamic komi.
    pub(crate) playout_komi: f64,
    /// The virtual visits a node gains at the value head's win rate when its children get
    /// the network's priors (`Tunables::net_value_visits_for`; 0 under a dynamic komi).
    pub(crate) value_visits: f32,
    /// Passes at the end of the game's history (one means a pass now ends the game).
    pub(crate) passes: usize,
    pub(crate) last: Last,
    /// Each point's mean owner after playouts from the root (+1 Black, -1 White), when the
    /// priors' weights use it.
    pub(crate) owner: Option<Vec<f32>>,
    /// The same counted over the search's own playouts, when `prior_owner_live_min` asks
    /// for it.
    pub(crate) live_owner: Option<LiveOwnership>,
    pub(crate) tunables: &'g Tunables,
    /// The network giving the priors of the nodes the search returns to, if any.
    pub(crate) network: Option<&'g Evaluator>,
    /// The search the tunables and the network ask for; each thread's [`Worker`] is built
    /// for it.
    pub(crate) strategy: Strategy<'g>,
    /// What an analysis learns of the score and the owners under each root move; `None`
    /// for a search that only chooses a move.
    pub(crate) tally: Option<Tally>,
    /// The moves an analysis keeps out of the tree, if any.
    pub(crate) avoid: Option<AvoidMoves>,
}

/// Who held each point at the end of the search's playouts, so far. The root's estimate
/// plays from the root with the policy alone; the search's playouts start from the lines
/// the tree prefers, and learn, as the tree does, which threats and captures change an
/// area's owner (Pachi's priors read such a map, refreshed by every simulation).
pub(crate) struct LiveOwnership {
    /// Per point: playouts Black held it less those White held it. Plain loads and stores,
    /// as for RAVE: with threads a count can be lost, which an average does not feel.
    sums: Vec<AtomicI32>,
    playouts: AtomicU32,
    /// How many playouts the root's estimate stands for, its weight in the pool.
    root_playouts: f32,
}

impl LiveOwnership {
    pub(crate) fn new(points: usize, root_playouts: usize) -> LiveOwnership {
        LiveOwnership {
            sums: (0..points).map(|_| AtomicI32::new(0)).collect(),
            playouts: AtomicU32::new(0),
            root_playouts: root_playouts as f32,
        }
    }

    /// Counts the holders of a finished playout's board.
    fn record(&self, board: &Board) {
        for p in board.geometry().points() {
            let owner = owner_at_end(board, p) as i32;
            if owner != 0 {
                let sum = &self.sums[p.index()];
                sum.store(sum.load(Ordering::Relaxed) + owner, Ordering::Relaxed);
            }
        }
        let n = &self.playouts;
        n.store(n.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// The root's estimate `root` and the search's playouts pooled, into `out`; false (and
    /// `out` untouched) while fewer than `min` playouts are counted.
    fn estimate(&self, root: &[f32], min: u32, out: &mut Vec<f32>) -> bool {
        let playouts = self.playouts.load(Ordering::Relaxed);
        if playouts < min {
            return false;
        }
        let weight = self.root_playouts;
        let total = weight + playouts as f32;
        out.clear();
        out.extend(
            root.iter()
                .zip(&self.sums)
                .map(|(&r, s)| (r * weight + s.load(Ordering::Relaxed) as f32) / total),
        );
        true
    }
}

/// The pass child: it starts unattractive (`prior_pass_share`) and earns its visits
/// through real playouts, unless it is the only move.
pub(crate) fn pass_child(t: &Tunables, only_move: bool) -> NewChild {
    let share = if only_move { 1.0 } else { t.prior_pass_share };
    NewChild {
        mv: Move::Pass,
        prior_visits: t.prior_even,
        prior_wins: t.prior_even * share,
    }
}

/// One thread's scratch space, for the search's tree policy `P`.
pub(crate) struct Worker<'s, 'g, P> {
    shared: &'s Shared<'g>,
    tree_policy: P,
    board: Board,
    policy: Policy,
    rng: Rng,
    recent: Recent,
    path: Vec<NodeId>,
    path_hashes: Vec<u64>,
    /// The simulation's moves, in the tree and in the playout, for the policy's replies.
    moves_played: Vec<Move>,
    /// Scratch for RAVE: each point's first ply from a depth of the path on
    /// ([`walk_first_plays`]).
    first_ply: Vec<u32>,
    children: Vec<NewChild>,
    /// Scratch for an expansion: the moves and their priors.
    moves: Vec<Point>,
    priors: Vec<(f32, f32)>,
    /// Scratch for an expansion: the pooled ownership estimate.
    owner: Vec<f32>,
    net: NetScratch,
    /// The slot of the analysis's tally this thread writes.
    slot: usize,
}

impl<'s, 'g, P: TreePolicy> Worker<'s, 'g, P> {
    /// `tree_policy`: the one `shared.strategy` holds; `slot`: the thread's number, its
    /// slot in the tally.
    pub(crate) fn new(
        shared: &'s Shared<'g>,
        tree_policy: P,
        seed: u64,
        slot: usize,
    ) -> Worker<'s, 'g, P> {
        let n = shared.board.geometry().num_points();
        Worker {
            shared,
            tree_policy,
            board: shared.board.clone(),
            policy: Policy::new(shared.tunables.policy),
            rng: Rng::new(seed),
            recent: Recent::new(&shared.board),
            path: Vec::new(),
            path_hashes: Vec::new(),
            moves_played: Vec::new(),
            first_ply: vec![NO_PLY; n],
            children: Vec::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            owner: Vec::new(),
            net: NetScratch::default(),
            slot,
        }
    }

    /// One simulation: down the tree, a playout, the result back up.
    pub(crate) fn simulate(&mut self) {
        let shared = self.shared;
        let tree = &shared.tree;
        let t = shared.tunables;
        let tree_policy = self.tree_policy;
        self.board.clone_from(&shared.board);
        self.path.clear();
        self.path.push(ROOT);
        self.path_hashes.clear();
        self.moves_played.clear();
        tree.enter(ROOT);
        let mut c = shared.color;
        let mut node = ROOT;
        let mut passes = shared.passes;
        let mut last = shared.last;
        let mut leaf_value = None;
        loop {
            if tree.is_terminal(node) {
                break;
            }
            if !tree.is_expanded(node) {
                let ready = tree_policy.ready_to_expand(tree, node)
                    && tree.has_room(self.board.empties().len() + 1);
                if !ready || !tree.begin_expand(node) {
                    break;
                }
                self.expand(node, c, last);
                if !tree.is_expanded(node) {
                    break;
                }
            }
            if let Some(net) = shared.network
                && tree_policy.earns_net_priors(tree, node)
                && tree.claim_net(node)
                && let Some(e) = net_priors(
                    net,
                    tree,
                    node,
                    &self.board,
                    c,
                    last,
                    passes > 0,
                    shared.komi as f32,
                    shared.value_visits,
                    t,
                    &mut self.net,
                )
            {
                if let Some(tally) = &shared.tally {
                    tally.record_net(self.slot, self.root_move(), c, &e);
                }
                // For the player who moved into the node, as its wins are counted.
                let value = 1.0 - e.win;
                if t.net_value_mix > 0.0 {
                    tree.set_net_value(node, value);
                }
                if tree_policy.net_value_ends_walk(node) {
                    leaf_value = Some(value);
                    break;
                }
            }
            let chosen = if node == ROOT && t.wide_root_noise > 0.0 {
                tree_policy.select_wide(tree, t.wide_root_noise, &mut self.rng)
            } else {
                tree_policy.select(tree, node)
            };
            let Some(child) = chosen else {
                break;
            };
            tree.enter(child);
            let m = tree.mv(child);
            self.board.play_unchecked(c, m);
            self.path_hashes.push(self.board.hash());
            self.moves_played.push(m);
            passes = if m == Move::Pass { passes + 1 } else { 0 };
            last = last.then(m.point()).with_ko_of(&self.board);
            self.path.push(child);
            node = child;
            c = c.other();
            if passes >= 2 {
                tree.set_terminal(child);
                break;
            }
        }
        if let Some(value) = leaf_value {
            self.back_up_value(value);
            return;
        }
        self.play_out(c, last);
        let margin = score::area_margin(&self.board, shared.playout_komi) as f32;
        let winner = if margin > 0.0 {
            Color::Black
        } else {
            Color::White
        };
        if let Some(live) = &shared.live_owner {
            live.record(&self.board);
        }
        if let Some(tally) = &shared.tally
            && shared.network.is_none()
        {
            // The score under the game's komi, whatever the playouts were counted with.
            let counted = margin as f64 + shared.playout_komi - shared.komi;
            tally.record_playout(self.slot, self.root_move(), counted, &self.board);
        }
        self.back_up(margin, winner);
        self.policy.learn(
            self.board.geometry().num_points(),
            &self.moves_played,
            shared.color,
            winner,
        );
    }

    /// The root move the simulation went through, `None` while it is at the root.
    fn root_move(&self) -> Option<Move> {
        self.path.get(1).map(|&n| self.shared.tree.mv(n))
    }

    /// Gives a claimed leaf its children: board-legal moves but own true eyes and captures
    /// that repeat a position of the game or the path, each with its prior; plus pass. An
    /// analysis's avoided moves are left out.
    fn expand(&mut self, node: NodeId, c: Color, last: Last) {
        let shared = self.shared;
        let t = shared.tunables;
        // `path` runs from the root to `node`, both included.
        let depth = self.path.len() - 1;
        let avoid = shared.avoid.as_ref();
        self.moves.clear();
        for &p in self.board.empties() {
            if avoid.is_some_and(|a| a.avoids(c, Move::Play(p), depth)) {
                continue;
            }
            let Some(captures) = self.board.playout_candidate(c, p) else {
                continue;
            };
            if captures {
                let h = self.board.hash_after(c, p);
                if shared.history.contains(&h) || self.path_hashes.contains(&h) {
                    continue;
                }
            }
            self.moves.push(p);
        }
        let mut owner = shared.owner.as_deref();
        if let (Some(root), Some(live)) = (owner, &shared.live_owner)
            && live.estimate(root, t.prior_owner_live_min, &mut self.owner)
        {
            owner = Some(&self.owner);
        }
        let leaf = Leaf {
            board: &self.board,
            color: c,
            moves: &self.moves,
            last,
            owner,
            depth,
        };
        self.tree_policy.child_priors(&leaf, &mut self.priors);
        self.children.clear();
        self.children.extend(
            self.moves
                .iter()
                .zip(&self.priors)
                .map(|(&p, &(v, w))| NewChild {
                    mv: Move::Play(p),
                    prior_visits: v,
                    prior_wins: w,
                }),
        );
        let only_pass = self.children.is_empty();
        if only_pass || !avoid.is_some_and(|a| a.avoids(c, Move::Pass, depth)) {
            self.children.push(pass_child(t, only_pass));
        }
        shared.tree.finish_expand(node, &self.children);
    }

    /// Finishes the game with policy moves (recorded in `moves_played`).
    fn play_out(&mut self, to_move: Color, last: Last) {
        let cap = move_cap(&self.board);
        let mercy = self.board.geometry().num_points() as i64 / 3;
        // The board counts captures from the start of the game; the rule is about the
        // playout's own, or a game whose captures are already unequal would end its
        // playouts early for one side and late for the other.
        let captured_before = capture_balance(&self.board);
        self.recent.reset(&self.board);
        let mut c = to_move;
        let mut passes = 0;
        let mut last = last;
        for _ in 0..cap {
            let m = self
                .policy
                .choose(&self.board, c, last, &mut self.rng, &self.recent);
            self.board.play_unchecked(c, m);
            self.recent.push(self.board.hash());
            self.moves_played.push(m);
            last = last.then(m.point()).with_ko_of(&self.board);
            passes = if m == Move::Pass { passes + 1 } else { 0 };
            if passes == 2 {
                break;
            }
            // The mercy rule: one side has lost so many stones that counting is a
            // formality; the area count below sees it.
            if (capture_balance(&self.board) - captured_before).abs() > mercy {
                break;
            }
            c = c.other();
        }
    }

    /// The value head's win rate at the path's leaf, `value` for the player who moved into
    /// it, backed up alone (no playout: no RAVE, no criticality).
    fn back_up_value(&mut self, value: f32) {
        let tree = &self.shared.tree;
        let mut reward = value;
        for &n in self.path[1..].iter().rev() {
            if reward > 0.0 {
                tree.reward(n, reward);
            }
            reward = 1.0 - reward;
        }
    }

    /// `margin`: Black's area margin at the playout's end, which `winner` won.
    fn back_up(&mut self, margin: f32, winner: Color) {
        let shared = self.shared;
        let tree = &shared.tree;
        let t = shared.tunables;
        let black_wins = winner == Color::Black;
        let black_reward = playout_value(margin, t.score_weight, t.score_span);
        let white_reward = playout_value(-margin, t.score_weight, t.score_span);
        // AlphaGo's mix: the nodes down to the deepest one the value head has judged take
        // its win rate blended with the playout's result; below it the playout alone
        // speaks, as a value above a node says nothing about the node's own line.
        let mix = t.net_value_mix;
        let valued = if mix > 0.0 {
            self.path
                .iter()
                .enumerate()
                .skip(1)
                .rev()
                .find_map(|(i, &n)| tree.net_value(n).map(|v| (i, v)))
        } else {
            None
        };
        let (valued_depth, black_value) = match valued {
            // path[i] was moved into by the searching colour when i is odd.
            Some((i, v)) if (i % 2 == 1) == (shared.color == Color::Black) => (i, v),
            Some((i, v)) => (i, 1.0 - v),
            None => (0, 0.0),
        };
        // The colour that moved into path[i] (i >= 1) alternates from the searching colour.
        let mut mover = shared.color;
        for (i, &n) in self.path.iter().enumerate().skip(1) {
            let mut reward = match mover {
                Color::Black => black_reward,
                Color::White => white_reward,
            };
            if i <= valued_depth {
                let value = match mover {
                    Color::Black => black_value,
                    Color::White => 1.0 - black_value,
                };
                reward = (1.0 - mix) * reward + mix * value;
            }
            if reward > 0.0 {
                tree.reward(n, reward);
            }
            if t.crit_rave > 0.0
                && let Some(p) = tree.mv(n).point()
            {
                let holder = holder_at_end(&self.board, p);
                tree.holders(n, half_shares(holder, mover), half_shares(holder, winner));
            }
            mover = mover.other();
        }
        // RAVE: at the node reached after ply d, the children are moves of the colour to
        // move there; a child shares in the result when the first play at its point from
        // ply d on was that colour's (as Pachi credits them: after a capture, a point the
        // opponent took first is not the child's move, and a point retaken is). With
        // `rave_distance`, a play soon after d counts for more than one near the end of the
        // playout (as Pachi weighs them): what follows a move closely is more its
        // consequence than what follows it far away.
        let distance = shared.tunables.rave_distance;
        let end = self.moves_played.len();
        let path = &self.path;
        walk_first_plays(
            &self.moves_played,
            path.len(),
            &mut self.first_ply,
            |depth, firsts| {
                let to_move = if depth.is_multiple_of(2) {
                    shared.color
                } else {
                    shared.color.other()
                };
                let won = (to_move == Color::Black) == black_wins;
                for child in tree.children(path[depth]) {
                    let Some(p) = tree.mv(child).point() else {
                        continue;
                    };
                    let first = firsts[p.index()];
                    if first != NO_PLY && (first as usize - depth).is_multiple_of(2) {
                        tree.rave(
                            child,
                            won,
                            rave_weight(distance, depth, first as usize, end),
                        );
                    }
                }
            },
        );
    }
}

/// Stones Black has captured less those White has, since the start of the game.
fn capture_balance(board: &Board) -> i64 {
    board.captures(Color::Black) as i64 - board.captures(Color::White) as i64
}

/// Calls `at(d, firsts)` for each depth `d` of a path of `depths` nodes, the deepest first,
/// `firsts` giving each point's first ply from `d` on in `moves` (the simulation's moves,
/// ply by ply), or [`NO_PLY`]. `scratch` holds a point each.
fn walk_first_plays(
    moves: &[Move],
    depths: usize,
    scratch: &mut [u32],
    mut at: impl FnMut(usize, &[u32]),
) {
    scratch.fill(NO_PLY);
    let mut ply = moves.len();
    for depth in (0..depths).rev() {
        while ply > depth {
            ply -= 1;
            if let Move::Play(p) = moves[ply] {
                scratch[p.index()] = ply as u32;
            }
        }
        at(depth, scratch);
    }
}

/// A point held by `holder` counts 2 to `player` if it is theirs, 1 if nobody's, 0 if the
/// opponent's: the half shares the criticality counts in.
fn half_shares(holder: Option<Color>, player: Color) -> u32 {
    match holder {
        Some(c) if c == player => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// A playout's value to a player whose margin at its end is `margin`: the win (1) or loss
/// (0), with `weight` of it given to the margin instead, linearly from nothing at `-span`
/// to all at `+span`. Any win is still worth more than any loss while `weight < 0.5`.
fn playout_value(margin: f32, weight: f32, span: f32) -> f32 {
    let won = if margin > 0.0 { 1.0 } else { 0.0 };
    if weight == 0.0 {
        return won;
    }
    let share = 0.5 + 0.5 * (margin / span).clamp(-1.0, 1.0);
    (1.0 - weight) * won + weight * share
}

/// How much a play at ply `first` counts in the RAVE statistics of the node reached after
/// ply `depth`, in a simulation that ended at ply `end`: `1 + distance` right after the
/// node, falling linearly to 1 at the end.
fn rave_weight(distance: u32, depth: usize, first: usize, end: usize) -> u32 {
    1 + distance * (end.saturating_sub(first)) as u32 / end.saturating_sub(depth).max(1) as u32
}

#[cfg(test)]
mod tests {
    use super::{LiveOwnership, NO_PLY, playout_value, rave_weight, walk_first_plays};
    use crate::go::board::Board;
    use crate::go::point::{Move, Point};

    #[test]
    fn live_ownership_pools_the_search_playouts_with_the_roots_estimate() {
        // A finished playout: Black holds the left, White the right, the middle is dame.
        let board = Board::square_from_diagram(
            ". X . O .
             X X . O O
             . X . O .
             X X . O O
             . X . O .",
        );
        let geo = board.geometry();
        let at = |v: &str| geo.parse_point(v).unwrap().index();
        let root = vec![0.5; geo.num_points()];
        let live = LiveOwnership::new(geo.num_points(), 3);
        let mut out = vec![9.0];
        assert!(!live.estimate(&root, 1, &mut out), "no playout yet");
        assert_eq!(out, [9.0], "left alone until the minimum is met");
        live.record(&board);
        assert!(live.estimate(&root, 1, &mut out));
        // The root's 0.5 counts three times, the playout once.
        assert_eq!(out[at("A5")], (1.5 + 1.0) / 4.0, "Black's eye");
        assert_eq!(out[at("B3")], (1.5 + 1.0) / 4.0, "Black's stone");
        assert_eq!(out[at("E1")], (1.5 - 1.0) / 4.0, "White's eye");
        assert_eq!(out[at("C3")], 1.5 / 4.0, "dame: nobody's");
    }

    #[test]
    fn first_plays_are_counted_from_each_depth_on() {
        let [x, y, z] = [1, 2, 3].map(|i| Move::Play(Point::from_index(i)));
        // Plies 0-5: x, y, z, then x again (after a capture), a pass, x once more.
        let moves = [x, y, z, x, Move::Pass, x];
        let mut scratch = vec![0; 5];
        let mut seen = Vec::new();
        walk_first_plays(&moves, 3, &mut scratch, |depth, firsts| {
            seen.push((depth, firsts[1..4].to_vec()));
        });
        assert_eq!(
            seen,
            [
                (2, vec![3, NO_PLY, 2]),
                (1, vec![3, 1, 2]),
                (0, vec![0, 1, 2]),
            ]
        );
    }

    #[test]
    fn playout_value_is_the_result_plus_a_share_for_the_margin() {
        assert_eq!(playout_value(0.5, 0.0, 40.0), 1.0);
        assert_eq!(playout_value(-0.5, 0.0, 40.0), 0.0);
        let close_win = playout_value(0.5, 0.04, 40.0);
        let big_win = playout_value(30.5, 0.04, 40.0);
        let close_loss = playout_value(-0.5, 0.04, 40.0);
        let big_loss = playout_value(-60.5, 0.04, 40.0);
        assert!(big_win > close_win && close_win > close_loss && close_loss > big_loss);
        assert!((close_win - 0.98).abs() < 0.001, "{close_win}");
        assert_eq!(big_loss, 0.0, "beyond the span the margin adds nothing");
        assert_eq!(playout_value(60.0, 0.04, 40.0), 1.0);
    }

    #[test]
    fn rave_weight_falls_from_one_plus_distance_to_one() {
        // Node after ply 10, playout ended at ply 50.
        assert_eq!(rave_weight(3, 10, 10, 50), 4);
        assert_eq!(rave_weight(3, 10, 30, 50), 2);
        assert_eq!(rave_weight(3, 10, 49, 50), 1);
        assert_eq!(rave_weight(3, 10, 50, 50), 1);
        assert_eq!(
            rave_weight(0, 10, 10, 50),
            1,
            "no distance: every play counts once"
        );
        // A node at the end of the game (no playout): no division by zero.
        assert_eq!(rave_weight(3, 7, 7, 7), 1);
    }
}
