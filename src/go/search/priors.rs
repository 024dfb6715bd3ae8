//! Priors: the virtual visits and wins a child of the tree starts with, from what a player
//! sees at a glance.
//!
//! - Every child gets `prior_even` visits at a 50% win rate.
//! - With `prior_gamma_visits` > 0, the learnt weights (`gammas`) rank the moves: each gets
//!   `prior_gamma_visits` more visits at a win rate of `(strength / best strength) ^
//!   prior_gamma_power`, so the moves a player would look at first are searched first.
//! - With `prior_prob_visits` > 0 (`prior_prob_visits_large` on 13x13 and up), each move
//!   also gets `prior_prob_visits * sqrt(p)` virtual wins, `p` being the chance the weights
//!   give it of being played (its strength over the sum of all): an absolute prior, large
//!   for a move that stands out, as Pachi gives its pattern priors.
//! - Otherwise, hand-set bonuses: captures, saves, ladders, 3x3 shapes, nearness to the
//!   last move, the empty edge (the `prior_*` fields of [`Tunables`]).

use crate::color::Color;
use crate::go::board::Board;
use crate::go::geometry::Topology;
use crate::go::network::evaluator::Evaluator;
use crate::go::network::inputs::{HISTORY, Inputs, Position};
use crate::go::network::model::{Evaluation, Workspace};
use crate::go::point::{Move, Point};
use crate::go::search::params::Tunables;
use crate::go::search::pattern::features::{CAPTURE, ESCAPE, features, with_owner, with_spatial};
use crate::go::search::pattern::gammas::Gammas;
use crate::go::search::pattern::mogo;
use crate::go::search::playout::last_moves::Last;
use crate::go::search::tree::{NodeId, ROOT, Tree};
use crate::go::tactics::{ladder_attack, ladder_escape};

/// A leaf being expanded, as its children's priors see it.
#[derive(Clone, Copy)]
pub(crate) struct Leaf<'a> {
    pub board: &'a Board,
    /// The side to move there.
    pub color: Color,
    /// The empty points its children play.
    pub moves: &'a [Point],
    /// The points of the last two moves.
    pub last: Last,
    /// Each point's mean owner at the end of playouts from the root (+1 Black, -1 White),
    /// for the learnt weights' owner feature, when there is an estimate.
    pub owner: Option<&'a [f32]>,
    /// The leaf's distance from the root, which decides whether that estimate still
    /// applies there (`prior_owner_depth`, `prior_owner_tactics_depth`).
    pub depth: usize,
}

/// The priors (virtual visits, virtual wins) of the side to move at `leaf` playing each of
/// its moves.
pub(crate) fn child_priors(leaf: &Leaf<'_>, t: &Tunables, out: &mut Vec<(f32, f32)>) {
    let Leaf {
        board,
        color: c,
        moves,
        last,
        ..
    } = *leaf;
    out.clear();
    let prob_visits = t.prior_prob_visits_for(board.geometry().size());
    if t.prior_gamma_visits <= 0.0 && prob_visits <= 0.0 {
        out.extend(moves.iter().map(|&p| priors(board, c, p, last.point, t)));
        return;
    }
    let mut best = f32::MIN_POSITIVE;
    let mut sum = 0.0;
    for_each_strength(leaf, t, |s| {
        best = best.max(s);
        sum += s;
        // The strength for now, the prior below.
        out.push((s, 0.0));
    });
    for prior in out.iter_mut() {
        let share = (prior.0 / best).powf(t.prior_gamma_power);
        let won = prob_visits * (prior.0 / sum).sqrt();
        *prior = (
            t.prior_even + t.prior_gamma_visits + won,
            t.prior_even / 2.0 + t.prior_gamma_visits * share + won,
        );
    }
}

/// Calls `each` with the learnt weights' strength of each of `leaf`'s moves, in order: a
/// move's chance of being played is its strength over the sum of them all.
pub(crate) fn for_each_strength(leaf: &Leaf<'_>, t: &Tunables, mut each: impl FnMut(f32)) {
    let Leaf {
        board,
        color: c,
        moves,
        last,
        owner,
        depth,
    } = *leaf;
    let Last {
        point: last,
        before,
        ..
    } = last;
    let owner = owner.filter(|_| depth <= t.prior_owner_depth as usize);
    let owner_for_tactics = depth <= t.prior_owner_tactics_depth as usize;
    let gammas = Gammas::builtin(board.geometry().size());
    for &p in moves {
        let mut f = features(board, c, p, last, before);
        if !gammas.spatial.is_empty() {
            f = with_spatial(f, board, c, p);
        }
        let tactical = f.levels[CAPTURE] > 0 || f.levels[ESCAPE] > 0;
        if let Some(owner) = owner
            && (owner_for_tactics || !tactical)
        {
            f = with_owner(f, c, owner[p.index()]);
        }
        each(gammas.strength(&f));
    }
}

/// Prior (virtual visits, virtual wins) of `c` playing at `p` on `board`, `last` being
/// the point of the last move, from the hand-set bonuses.
pub(crate) fn priors(
    board: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    t: &Tunables,
) -> (f32, f32) {
    let geo = board.geometry();
    let mut visits = t.prior_even;
    let mut wins = t.prior_even / 2.0;
    // Captures and saves.
    let mut captured = 0;
    let mut saves = false;
    let mut ataris = None;
    for &q in geo.neighbours(p) {
        match board.get(q) {
            Some(x) if x != c && board.liberty_count(q) == 1 => captured += board.chain_len(q),
            Some(x) if x == c && board.liberty_count(q) == 1 => saves = true,
            Some(x) if x != c && board.liberty_count(q) == 2 => ataris = Some(q),
            _ => {}
        }
    }
    let libs_after = board.liberties_after(c, p);
    // Ladders, read out: an escape into a working ladder is a wasted move, an atari that the
    // ladder turns into a capture is nearly one.
    if saves && libs_after == Some(2) {
        let mut after = board.clone();
        after.play_unchecked(c, Move::Play(p));
        if ladder_attack(&after, p).0.succeeds() {
            visits += t.prior_ladder;
        }
    } else if let (Some(target), Some(libs)) = (ataris, libs_after)
        && libs >= 2
    {
        let mut after = board.clone();
        after.play_unchecked(c, Move::Play(p));
        if after.liberty_count(target) == 1 && !ladder_escape(&after, target).0.succeeds() {
            visits += t.prior_ladder;
            wins += t.prior_ladder;
        }
    }
    match libs_after {
        None => {
            let bonus = if captured > 1 {
                t.prior_capture_many
            } else {
                t.prior_capture_one
            };
            visits += bonus;
            wins += bonus;
        }
        Some(libs) => {
            if saves && libs >= 2 {
                visits += t.prior_save;
                wins += t.prior_save;
            }
            if libs == 1 {
                visits += t.prior_self_atari;
            }
        }
    }
    if mogo::matches(board, p) {
        visits += t.prior_pattern;
        wins += t.prior_pattern;
    }
    // Locality.
    if let Some(l) = last {
        let (px, py) = geo.xy(p);
        let (lx, ly) = geo.xy(l);
        let d = px.abs_diff(lx) + py.abs_diff(ly);
        if (1..=2).contains(&d) {
            let bonus = t.prior_near_last[d - 1];
            visits += bonus;
            wins += bonus;
        }
    }
    // The first two lines are rarely right far from everything.
    if geo.topology() == Topology::Plane {
        let (x, y) = geo.xy(p);
        let n = geo.size();
        let line = x.min(y).min(n - 1 - x).min(n - 1 - y);
        if line <= 1 && n >= 9 && !stone_within(board, p, 2) {
            visits += t.prior_empty_edge;
        }
    }
    (visits, wins)
}

/// Whether some stone lies within Manhattan distance `d` of `p` (no wrapping needed: only
/// used on planes).
fn stone_within(board: &Board, p: Point, d: usize) -> bool {
    let geo = board.geometry();
    let (px, py) = geo.xy(p);
    let n = geo.size();
    for y in py.saturating_sub(d)..=(py + d).min(n - 1) {
        for x in px.saturating_sub(d)..=(px + d).min(n - 1) {
            if px.abs_diff(x) + py.abs_diff(y) <= d
                && let Some(q) = geo.point(x, y)
                && board.get(q).is_some()
            {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prior win rate of each move of `moves`, as `child_priors` gives it.
    fn rates(
        board: &Board,
        moves: &[Point],
        owner: &[f32],
        depth: usize,
        t: &Tunables,
    ) -> Vec<f32> {
        let mut out = Vec::new();
        let last = Last::default();
        let leaf = Leaf {
            board,
            color: Color::Black,
            moves,
            last,
            owner: Some(owner),
            depth,
        };
        child_priors(&leaf, t, &mut out);
        out.iter().map(|&(v, w)| w / v).collect()
    }

    #[test]
    fn a_capture_below_the_root_can_go_without_the_roots_ownership() {
        // Black to play: D9 captures the white stone at C9; D5 is a quiet move.
        let board = Board::square_from_diagram(
            ". X O . . . . . .
             . . X . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        let geo = board.geometry();
        let capture = geo.parse_point("D9").unwrap();
        let quiet = geo.parse_point("D5").unwrap();
        assert_eq!(board.liberties_after(Color::Black, capture), None);
        let moves = [capture, quiet];
        // The root's estimate: every point Black's for sure, as if the capture were already
        // made, so the owner feature weighs both moves down.
        let owner = vec![1.0; geo.num_points()];
        let default = Tunables::default();
        let exempt = Tunables {
            prior_owner_tactics_depth: 0,
            ..Tunables::default()
        };
        // At the root's children the estimate is fresh: both settings agree.
        assert_eq!(
            rates(&board, &moves, &owner, 0, &default),
            rates(&board, &moves, &owner, 0, &exempt)
        );
        // Below, the capture goes without the owner feature and stands out further.
        let kept = rates(&board, &moves, &owner, 1, &default);
        let dropped = rates(&board, &moves, &owner, 1, &exempt);
        assert!(dropped[0] > kept[0], "{dropped:?} against {kept:?}");
        assert!(dropped[0] > dropped[1], "{dropped:?}");
    }
}

/// Scratch space for the network's priors, one per search thread.
#[derive(Default)]
pub(crate) struct NetScratch {
    inputs: Inputs,
    workspace: Workspace,
}

impl NetScratch {
    pub(crate) fn inputs_mut(&mut self) -> &mut Inputs {
        &mut self.inputs
    }

    pub(crate) fn workspace_mut(&mut self) -> &mut Workspace {
        &mut self.workspace
    }
}

/// Encodes `board` with `c` to move, `last` the moves before it, for the network.
pub(crate) fn encode(
    board: &Board,
    c: Color,
    last: Last,
    last_was_pass: bool,
    komi: f32,
    inputs: &mut Inputs,
) {
    let mut history = [None; HISTORY];
    history[0] = last.point;
    history[1] = last.before;
    history[2..].copy_from_slice(&last.earlier[..HISTORY - 2]);
    inputs.encode(&Position {
        board,
        to_move: c,
        history,
        last_was_pass,
        komi,
    });
}

/// The network's evaluation of `board` with `c` to move, `last` the moves before it.
pub(crate) fn evaluate(
    net: &Evaluator,
    board: &Board,
    c: Color,
    last: Last,
    last_was_pass: bool,
    komi: f32,
    scratch: &mut NetScratch,
) -> Option<Evaluation> {
    encode(board, c, last, last_was_pass, komi, &mut scratch.inputs);
    net.evaluate(board.geometry(), &scratch.inputs, &mut scratch.workspace)
}

/// Gives the children of the expanded `node` of `tree`, whose position is `board` with `c`
/// to move, the network's priors in place of the learnt weights' (the pass child keeps
/// its own). The same form as `child_priors`, the policy's chance standing for a move's
/// strength. With `value_visits` (`net_value_visits`, `net_value_visits_large` on 13x13
/// and up), the node itself gains that many virtual visits at the value head's win rate (for the player who
/// moved into it). Each child also keeps the policy's chance for its move, renormalised
/// over the children (PUCT's prior). Returns the evaluation (the value head's win rate is
/// `c`'s), which an analysis tallies.
#[allow(clippy::too_many_arguments)]
pub(crate) fn net_priors(
    net: &Evaluator,
    tree: &Tree,
    node: NodeId,
    board: &Board,
    c: Color,
    last: Last,
    last_was_pass: bool,
    komi: f32,
    value_visits: f32,
    t: &Tunables,
    scratch: &mut NetScratch,
) -> Option<Evaluation> {
    let e = evaluate(net, board, c, last, last_was_pass, komi, scratch)?;
    let pass = e.policy.len() - 1;
    let policy = |child| match tree.mv(child) {
        Move::Play(p) => e.policy[p.index()],
        Move::Pass => e.policy[pass],
    };
    let total: f32 = tree.children(node).map(policy).sum();
    for child in tree.children(node) {
        tree.set_policy(child, policy(child) / total.max(f32::MIN_POSITIVE));
    }
    let chance = |child| match tree.mv(child) {
        Move::Play(p) => Some(e.policy[p.index()]),
        Move::Pass => None,
    };
    let best = tree
        .children(node)
        .filter_map(chance)
        .fold(f32::MIN_POSITIVE, f32::max);
    for child in tree.children(node) {
        let Some(p) = chance(child) else { continue };
        let share = (p / best).powf(t.net_power);
        let won = t.net_prob_visits * p.sqrt();
        tree.set_prior(
            child,
            t.prior_even + t.net_visits + won,
            t.prior_even / 2.0 + t.net_visits * share + won,
        );
    }
    if value_visits > 0.0 && node != ROOT {
        tree.add_prior(node, value_visits, value_visits * (1.0 - e.win));
    }
    Some(e)
}
