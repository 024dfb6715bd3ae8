//! Analysis: a search that reports what it thinks of each root move while it runs, for
//! GTP's analysis commands (`lz-analyze`, `kata-analyze`, the `genmove_analyze` variants)
//! and any other front end of the same numbers.
//!
//! A [`Report`] holds, for each root move, its visits, win rate, prior, score and (when
//! asked) ownership, with its principal variation, and the same for the root as a whole.
//! The scores and owners are the tally's (`tally`: which positions count, and why);
//! everything is from the side analysed: a lead is that side's, an owner +1 that side's,
//! as KataGo reports them by default. The prior is the network's policy for the move,
//! renormalised over the legal moves (KataGo's); without a network, the move's share of
//! the root's prior visits.
//!
//! [`Analysis`] runs in slices on a fresh tree and reports between them; a genmove watched
//! by an analysis ([`genmove_observed`]) reports from the thread that waits on the search.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::color::Color;
use crate::go::game::Game;
use crate::go::network::model::Evaluation;
use crate::go::network::symmetry;
use crate::go::point::Move;
use crate::go::search::avoid::AvoidMoves;
use crate::go::search::mcts::{Analysed, Observer, Root, SearchResult, Searcher, last_moves};
use crate::go::search::params::{Network, Params};
use crate::go::search::priors::{NetScratch, encode, evaluate};
use crate::go::search::tally::Sums;
use crate::go::search::tree::{NodeId, ROOT, Tree};

/// What an analysis asks of the search beyond a move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnalysisOptions {
    /// Tally who owns each point (reports then carry ownership, the root's and each
    /// move's).
    pub ownership: bool,
    /// Moves kept out of the tree (`avoid` and `allow`).
    pub avoid: AvoidMoves,
    /// At least this many moves in a report, the unvisited ones in order of prior.
    pub min_moves: usize,
    /// At most this many.
    pub max_moves: usize,
    /// The longest principal variation reported, the move itself included.
    pub max_pv: usize,
}

/// The principal variations' length unless asked for another.
pub const DEFAULT_PV_LENGTH: usize = 20;

impl AnalysisOptions {
    /// Nothing avoided, no ownership, every visited move.
    pub fn new() -> AnalysisOptions {
        AnalysisOptions {
            max_moves: usize::MAX,
            max_pv: DEFAULT_PV_LENGTH,
            ..AnalysisOptions::default()
        }
    }
}

/// A score estimate, in points, for the side analysed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// The mean lead over the positions counted (KataGo's `scoreLead`, and its
    /// `scoreMean`).
    pub lead: f64,
    /// The leads' standard deviation over those positions (KataGo's `scoreStdev` adds the
    /// network's own uncertainty to this; shicho's network has no head for it).
    pub stdev: f64,
}

/// One root move in a report.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisLine {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the side analysed (the prior's when there were no visits).
    pub winrate: f64,
    /// The network's policy for the move (renormalised over the legal moves), else its
    /// share of the root's prior visits: 0 to 1.
    pub prior: f64,
    /// The root's when nothing has been counted under the move.
    pub score: Score,
    /// Each point's owner from -1 to 1, point order, when the tally counts owners.
    pub ownership: Option<Vec<f64>>,
    /// The most visited line starting with `mv`.
    pub pv: Vec<Move>,
    /// The visits of the position after each move of `pv`.
    pub pv_visits: Vec<u32>,
}

/// The root as a whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootSummary {
    /// Real visits of the root's moves.
    pub visits: u32,
    /// Their mean result for the side analysed (0.5 before any).
    pub winrate: f64,
    /// Over every position counted.
    pub score: Score,
    pub ownership: Option<Vec<f64>>,
}

/// What an analysis reports at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Visited moves, most visited first, then unvisited ones by prior as `min_moves`
    /// asks; at most `max_moves`.
    pub lines: Vec<AnalysisLine>,
    pub root: RootSummary,
    /// The network's policy at the root, renormalised over the legal moves (0 for the
    /// others), point order then pass; without a network, each root move's share of the
    /// root's prior visits. `None` before the root has moves.
    pub policy: Option<Vec<f64>>,
}

/// Builds reports from a search's root, evaluating (with the network) the positions the
/// tally still lacks; used by one thread, whose slot in the tally it writes.
pub(crate) struct Reporter {
    scratch: NetScratch,
    /// The network's policy at the root renormalised over the legal moves, once known.
    priors: Option<Vec<f64>>,
}

impl Reporter {
    pub(crate) fn new() -> Reporter {
        Reporter {
            scratch: NetScratch::default(),
            priors: None,
        }
    }

    /// Evaluates the root, if this search has not, and the position after each visited
    /// root move with nothing counted under it.
    fn fill_in(&mut self, root: &Root<'_>, children: &[NodeId]) {
        let shared = &root.shared;
        let (Some(net), Some(tally)) = (shared.network, &shared.tally) else {
            return;
        };
        let slot = tally.reporter_slot();
        let komi = shared.komi as f32;
        let c = shared.color;
        if tally.sums(None).samples == 0 {
            let last_was_pass = shared.passes > 0;
            if let Some(e) = evaluate(
                net,
                &shared.board,
                c,
                shared.last,
                last_was_pass,
                komi,
                &mut self.scratch,
            ) {
                tally.record_net(slot, None, c, &e);
                tally.set_root_policy(&e.policy);
            }
        }
        for &child in children {
            let mv = shared.tree.mv(child);
            if shared.tree.visits(child) == 0 || tally.sums(Some(mv)).samples > 0 {
                continue;
            }
            let mut board = shared.board.clone();
            board.play_unchecked(c, mv);
            let last = shared.last.then(mv.point()).with_ko_of(&board);
            let to_move = c.other();
            let e = evaluate(
                net,
                &board,
                to_move,
                last,
                mv == Move::Pass,
                komi,
                &mut self.scratch,
            );
            if let Some(e) = e {
                tally.record_net(slot, Some(mv), to_move, &e);
            }
        }
    }

    /// The network's prior of each move (point order, then pass), renormalised over the
    /// moves legal for the side analysed.
    fn net_priors(&mut self, root: &Root<'_>) -> Option<&[f64]> {
        if self.priors.is_none() {
            let policy = root.shared.tally.as_ref()?.root_policy()?;
            let c = root.shared.color;
            let game = root.game;
            let legal = |i: usize| {
                i == policy.len() - 1
                    || game.is_legal(c, Move::Play(crate::go::point::Point::from_index(i)))
            };
            let total: f64 = (0..policy.len())
                .filter(|&i| legal(i))
                .map(|i| policy[i] as f64)
                .sum();
            let priors = (0..policy.len())
                .map(|i| {
                    if legal(i) {
                        policy[i] as f64 / total.max(f64::MIN_POSITIVE)
                    } else {
                        0.0
                    }
                })
                .collect();
            self.priors = Some(priors);
        }
        self.priors.as_deref()
    }

    /// The report of `root` now: the moves `options` asks for.
    pub(crate) fn report(&mut self, root: &Root<'_>, options: &AnalysisOptions) -> Report {
        let shared = &root.shared;
        let tree = &shared.tree;
        let children: Vec<NodeId> = tree.children(ROOT).collect();
        self.fill_in(root, &children);
        let points = shared.board.geometry().num_points();
        let prior_total: f32 = children.iter().map(|&i| tree.stats(i).prior_visits).sum();
        let priors: Vec<f64> = match self.net_priors(root) {
            Some(net) => children
                .iter()
                .map(|&i| net[move_index(tree.mv(i), points)])
                .collect(),
            None => children
                .iter()
                .map(|&i| (tree.stats(i).prior_visits / prior_total.max(1.0)) as f64)
                .collect(),
        };
        let sign = match shared.color {
            Color::Black => 1.0,
            Color::White => -1.0,
        };
        let tally = shared.tally.as_ref();
        let all = tally.map(|t| t.sums_everywhere()).unwrap_or_default();
        let score_of = |sums: Sums| {
            sums.mean_and_stdev().map(|(lead, stdev)| Score {
                lead: sign * lead,
                stdev,
            })
        };
        let root_score = score_of(all).unwrap_or_default();
        let owners_of = |under: Option<Move>, samples: u32| {
            let t = tally?;
            let mut sums = vec![0.0; points];
            t.add_owners(under, &mut sums).then(|| {
                let n = samples.max(1) as f64;
                sums.iter().map(|s| sign * s / n).collect::<Vec<f64>>()
            })
        };
        let root_owners = owners_of(None, all.samples);
        // With the network, win rates are its values averaged as the scores are: the
        // search's own mix of values and playout results is blunter (the playouts end
        // near even in positions the network already reads as won).
        let winrate_of = |sums: Sums| {
            shared.network?;
            let black = sums.mean_win()?;
            Some(match shared.color {
                Color::Black => black,
                Color::White => 1.0 - black,
            })
        };
        let mut visits = 0u32;
        let mut wins = 0.0;
        let mut lines: Vec<AnalysisLine> = children
            .iter()
            .zip(&priors)
            .map(|(&i, &prior)| {
                let s = tree.stats(i);
                visits += s.visits;
                wins += s.wins;
                AnalysisLine {
                    mv: s.mv,
                    visits: s.visits,
                    winrate: s.winrate(),
                    prior,
                    score: root_score,
                    ownership: None,
                    pv: Vec::new(),
                    pv_visits: Vec::new(),
                }
            })
            .collect();
        // Visited first, most visited first; then by prior.
        lines.sort_by(|a, b| {
            (b.visits > 0)
                .cmp(&(a.visits > 0))
                .then(b.visits.cmp(&a.visits))
                .then(if a.visits > 0 {
                    b.winrate.total_cmp(&a.winrate)
                } else {
                    b.prior.total_cmp(&a.prior)
                })
        });
        let visited = lines.iter().filter(|l| l.visits > 0).count();
        lines.truncate(visited.max(options.min_moves).min(options.max_moves));
        for line in &mut lines {
            let sums = tally.map(|t| t.sums(Some(line.mv))).unwrap_or_default();
            if let Some(winrate) = winrate_of(sums) {
                line.winrate = winrate;
            }
            if let Some(score) = score_of(sums) {
                line.score = score;
                line.ownership = owners_of(Some(line.mv), sums.samples);
            } else {
                line.ownership.clone_from(&root_owners);
            }
            let max_pv = options.max_pv.max(1);
            (line.pv, line.pv_visits) = match tree.child(ROOT, line.mv) {
                Some(i) if line.visits > 0 => {
                    let pv = tree.principal_variation(i, max_pv);
                    let visits = pv_visits(tree, i, &pv);
                    (pv, visits)
                }
                _ => (vec![line.mv], vec![line.visits]),
            };
        }
        let policy = self.priors.clone().or_else(|| {
            // Without a network the search's own priors stand in for the policy.
            (!children.is_empty()).then(|| {
                let mut shares = vec![0.0; points + 1];
                for &i in &children {
                    let share = tree.stats(i).prior_visits / prior_total.max(f32::MIN_POSITIVE);
                    shares[move_index(tree.mv(i), points)] = share as f64;
                }
                shares
            })
        });
        Report {
            lines,
            root: RootSummary {
                visits,
                winrate: if visits == 0 {
                    0.5
                } else {
                    winrate_of(all).unwrap_or(wins / visits as f64)
                },
                score: root_score,
                ownership: root_owners,
            },
            policy,
        }
    }
}

/// The visits of each node along `pv`, which starts with the move into `first`.
fn pv_visits(tree: &Tree, first: NodeId, pv: &[Move]) -> Vec<u32> {
    let mut visits = vec![tree.visits(first)];
    let mut node = first;
    for &mv in &pv[1..] {
        match tree.child(node, mv) {
            Some(next) => {
                visits.push(tree.visits(next));
                node = next;
            }
            None => break,
        }
    }
    visits
}

/// A move's index in the network's outputs: its point's, pass after the points.
fn move_index(m: Move, points: usize) -> usize {
    match m {
        Move::Play(p) => p.index(),
        Move::Pass => points,
    }
}

/// A search that runs in slices on a fresh tree and reports between them, for GTP's
/// analysis commands.
pub struct Analysis<'g> {
    root: Root<'g>,
    reporter: Reporter,
    options: AnalysisOptions,
    seed: u64,
    threads: usize,
    pub playouts: usize,
}

impl<'g> Analysis<'g> {
    /// An analysis of `c`'s move in `game`, its tree of `capacity` nodes.
    pub fn new(
        game: &'g Game,
        c: Color,
        seed: u64,
        params: &'g Params,
        options: &AnalysisOptions,
        capacity: usize,
    ) -> Analysis<'g> {
        let threads = params.threads.clamp(1, 64);
        let analysed = Analysed {
            owners: options.ownership,
            avoid: &options.avoid,
            threads,
            playing: false,
        };
        Analysis {
            root: Root::new(
                game,
                c,
                Tree::new(capacity),
                &params.tunables,
                params.network.as_ref().map(|n| &*n.0),
                Some(analysed),
            ),
            reporter: Reporter::new(),
            options: options.clone(),
            seed,
            threads,
            playouts: 0,
        }
    }

    /// Searches for `slice` or until `stop` says so.
    pub fn run_for(&mut self, slice: Duration, stop: &dyn Fn() -> bool) {
        self.run(Some(Instant::now() + slice), usize::MAX / 4, stop);
    }

    /// Runs `playouts` simulations (fewer if `stop` says so).
    pub fn run_playouts(&mut self, playouts: usize, stop: &dyn Fn() -> bool) {
        self.run(None, playouts, stop);
    }

    /// Runs `playouts` simulations, stopping sooner at the deadline or when `stop` says so.
    /// The search runs on threads of its own while this one watches `stop` (which need
    /// not be shareable between threads: it may read the session's input).
    pub fn run(&mut self, deadline: Option<Instant>, playouts: usize, stop: &dyn Fn() -> bool) {
        self.seed = self.seed.wrapping_add(1);
        let never = AtomicBool::new(false);
        let done = self.root.run_watched(
            self.threads,
            playouts,
            self.seed,
            deadline,
            &never,
            false,
            &mut |_| stop(),
        );
        self.playouts += done;
    }

    /// What the search thinks now.
    pub fn report(&mut self) -> Report {
        self.reporter.report(&self.root, &self.options)
    }
}

/// How a genmove watched by an analysis reports: every `interval` (never when zero), and
/// once when the search is over.
pub struct Watch<'w> {
    pub options: &'w AnalysisOptions,
    pub interval: Duration,
    pub report: &'w mut dyn FnMut(&Report),
}

/// `searcher`'s search for `c`'s move, as [`Searcher::search`] makes it (the same
/// simulations, unless `watch` avoids moves), reported as `watch` asks.
pub fn genmove_observed(
    searcher: &mut Searcher,
    game: &Game,
    c: Color,
    params: &Params,
    seed: u64,
    stop: &AtomicBool,
    watch: Watch<'_>,
) -> SearchResult {
    let Watch {
        options,
        interval,
        report,
    } = watch;
    let mut reporter = Reporter::new();
    let mut next = Instant::now() + interval;
    let mut look = |root: &Root<'_>, over: bool| {
        let due = !interval.is_zero() && Instant::now() >= next;
        if over || due {
            report(&reporter.report(root, options));
            next = Instant::now() + interval;
        }
        false
    };
    let observer = Observer {
        owners: options.ownership,
        avoid: &options.avoid,
        watch: &mut look,
    };
    searcher.search_observed(game, c, params, seed, stop, Some(observer))
}

/// The network's raw evaluation of `game`'s position with `c` to move, its input seen
/// through symmetry `sym` (0 to 7, KataGo's numbering) and its outputs read back on the
/// board as it is: what `kata-raw-nn` shows.
pub fn raw_evaluation(network: &Network, game: &Game, c: Color, sym: usize) -> Option<Evaluation> {
    let board = game.board();
    let geo = board.geometry();
    let mut scratch = NetScratch::default();
    let last_was_pass = game.consecutive_passes() > 0;
    let inputs = scratch.inputs_mut();
    encode(
        board,
        c,
        last_moves(game),
        last_was_pass,
        game.effective_komi() as f32,
        inputs,
    );
    let seen = symmetry::transform_inputs(inputs, geo, sym);
    let e = network.0.evaluate(geo, &seen, scratch.workspace_mut())?;
    Some(symmetry::restore(e, geo, sym))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Rules;
    use crate::go::search::params::Tunables;

    fn params(playouts: usize, network: Option<Network>, threads: usize) -> Params {
        Params {
            playouts: Some(playouts),
            time: None,
            extension: None,
            resign_below: 0.0,
            threads,
            tunables: Tunables::default(),
            network,
        }
    }

    fn game() -> Game {
        let mut g = Game::new(9, Rules::default(), 7.0).unwrap();
        for (c, v) in [(Color::Black, "E5"), (Color::White, "C3")] {
            g.play(c, g.geometry().parse_move(v).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn watching_a_search_changes_nothing_it_decides() {
        let g = game();
        let stop = AtomicBool::new(false);
        for network in [None, Some(Network::builtin())] {
            let p = params(600, network, 1);
            let plain = Searcher::new().search(&g, Color::Black, &p, 5, &stop);
            let options = AnalysisOptions {
                ownership: true,
                ..AnalysisOptions::new()
            };
            let mut reports = 0;
            let mut count = |_: &Report| reports += 1;
            let watch = Watch {
                options: &options,
                interval: Duration::from_millis(1),
                report: &mut count,
            };
            let watched =
                genmove_observed(&mut Searcher::new(), &g, Color::Black, &p, 5, &stop, watch);
            assert!(reports >= 1, "the last report at least");
            assert_eq!(plain.decision, watched.decision);
            assert_eq!(plain.candidates, watched.candidates);
            assert_eq!(plain.pv, watched.pv);
        }
    }

    #[test]
    fn every_visited_move_counts_its_own_position() {
        let g = game();
        let p = params(200, Some(Network::builtin()), 2);
        let options = AnalysisOptions {
            ownership: true,
            min_moves: 81,
            ..AnalysisOptions::new()
        };
        let mut a = Analysis::new(&g, Color::White, 1, &p, &options, 1 << 20);
        a.run_playouts(200, &|| false);
        let report = a.report();
        let tally = a.root.shared.tally.as_ref().unwrap();
        let visited: Vec<&AnalysisLine> = report.lines.iter().filter(|l| l.visits > 0).collect();
        assert!(visited.len() > 3);
        for line in &visited {
            let sums = tally.sums(Some(line.mv));
            assert!(sums.samples > 0, "{:?}", line.mv);
            // Win rates are the network's values averaged, for White (the side analysed).
            let white = 1.0 - sums.mean_win().unwrap();
            assert!((line.winrate - white).abs() < 1e-9, "{:?}", line.mv);
        }
        let white = 1.0 - tally.sums_everywhere().mean_win().unwrap();
        assert!((report.root.winrate - white).abs() < 1e-9);
        // The visits are the root's; unvisited moves show the root's score and ownership.
        let visits: u32 = report.lines.iter().map(|l| l.visits).sum();
        assert_eq!(visits, report.root.visits);
        let unvisited = report.lines.iter().find(|l| l.visits == 0).unwrap();
        assert_eq!(unvisited.score, report.root.score);
        assert_eq!(unvisited.ownership, report.root.ownership);
        assert_eq!(report.root.ownership.as_ref().unwrap().len(), 81);
        // The priors are the network's, renormalised over the legal moves.
        let policy = report.policy.as_ref().unwrap();
        assert!((policy.iter().sum::<f64>() - 1.0).abs() < 1e-6);
        let taken = g.geometry().parse_point("E5").unwrap();
        assert_eq!(policy[taken.index()], 0.0);
        for line in &report.lines {
            assert_eq!(line.prior, policy[move_index(line.mv, 81)]);
        }
    }

    /// KataGo's wide root noise: more root moves looked at, in both searches.
    #[test]
    fn wide_root_noise_widens_the_root() {
        let g = game();
        let looked_at = |noise: f32, zero: bool| {
            let mut p = params(200, Some(Network::builtin()), 1);
            p.tunables.wide_root_noise = noise;
            if zero {
                p.tunables.net_value_mix = 1.0;
            }
            let mut a = Analysis::new(&g, Color::White, 3, &p, &AnalysisOptions::new(), 1 << 20);
            a.run_playouts(200, &|| false);
            // Moves given at least 2% of the visits.
            let report = a.report();
            let lines = report
                .lines
                .iter()
                .filter(|l| l.visits * 50 >= report.root.visits);
            lines.count()
        };
        for zero in [false, true] {
            let (plain, wide) = (looked_at(0.0, zero), looked_at(0.5, zero));
            assert!(
                wide > plain,
                "zero search {zero}: {plain} moves, {wide} with noise"
            );
        }
    }

    #[test]
    fn min_and_max_moves_shape_the_report() {
        let g = game();
        let p = params(300, None, 1);
        let mut options = AnalysisOptions::new();
        let mut a = Analysis::new(&g, Color::Black, 1, &p, &options, 1 << 20);
        a.run_playouts(300, &|| false);
        let visited = a.report().lines.len();
        assert!(a.report().lines.iter().all(|l| l.visits > 0));
        options.min_moves = 79;
        let mut a = Analysis::new(&g, Color::Black, 1, &p, &options, 1 << 20);
        a.run_playouts(300, &|| false);
        let lines = a.report().lines;
        assert_eq!(lines.len(), 79.max(visited));
        // Unvisited moves come last, by prior.
        let first_unvisited = lines.iter().position(|l| l.visits == 0).unwrap();
        assert!(lines[first_unvisited..].iter().all(|l| l.visits == 0));
        assert!(
            lines[first_unvisited..]
                .windows(2)
                .all(|w| w[0].prior >= w[1].prior)
        );
        options.max_moves = 2;
        let mut a = Analysis::new(&g, Color::Black, 1, &p, &options, 1 << 20);
        a.run_playouts(300, &|| false);
        assert_eq!(a.report().lines.len(), 2);
    }
}
