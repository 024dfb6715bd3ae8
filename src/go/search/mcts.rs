//! Monte-Carlo tree search with RAVE, in the manner of MoGo, Fuego and Pachi: the driver.
//!
//! How to read the search:
//! - [`Searcher`] lives as long as the engine. It keeps its tree between moves (the subtree
//!   of the position reached, `Tree::subtree`) and runs each search's simulations on one or
//!   more threads sharing one tree (`tree`: lock-free nodes, virtual loss).
//! - A simulation (`simulation`) walks down by urgency, expands a node after
//!   `expand_visits` visits, more as the arena fills (every board-legal move but own true
//!   eyes, plus pass, each with its `priors`), finishes the game with the playout policy
//!   (`policy`), counts it by area and backs the result up, with RAVE (all-moves-as-first)
//!   results for the children whose move was played first later in the simulation.
//!   That is the default tree policy; the zero search (`net_value_mix` 1: PUCT, the
//!   network's value, no playouts) is the other, and `strategy` holds what the two do
//!   differently. A search picks one when it is built, and each thread runs it.
//! - The root is expanded with the game's full legality (superko included); the heuristic
//!   player's tactical choice gets a bonus there, and the other captures, saves, attacks
//!   and defences its reading finds a smaller one.
//! - The move played is the most visited root child. It resigns when that move wins less
//!   often than `Params::resign_below` for the second search in a row (`Searcher::resigns`).
//!   A search stops at its simulation or time limit, when interrupted, or, under a time
//!   limit, early when the runner-up can no longer catch up with the most visited move in
//!   the simulations left. Under a clock, a search whose choice is still open then runs
//!   once more for `Params::extension`.
//! - A pass that would end a won game is played without searching: the opponent passed,
//!   every chain's status is settled (the ownership playouts, the opponent moving first,
//!   agree on it 90% of the time), and the score with those dead stones is a win.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::color::Color;
use crate::go::board::Board;
use crate::go::game::Game;
use crate::go::network::evaluator::Evaluator;
use crate::go::point::{Move, Point};
use crate::go::rules::Rules;
use crate::go::search::avoid::AvoidMoves;
use crate::go::search::dead_stones::{self, ownership};
use crate::go::search::handicap::dynamic_komi;
use crate::go::search::heuristic;
use crate::go::search::memory::DEFAULT_TREE_NODES;
use crate::go::search::params::{Params, Tunables};
use crate::go::search::pattern::gammas::Gammas;
use crate::go::search::playout::last_moves::{EARLIER_MOVES, Last};
use crate::go::search::priors::{Leaf, NetScratch, child_priors, net_priors};
use crate::go::search::simulation::{LiveOwnership, Shared, Worker, pass_child};
use crate::go::search::strategy::{Strategy, TreePolicy};
use crate::go::search::tally::Tally;
use crate::go::search::tree::{NewChild, ROOT, Tree};

/// The end of the game is safe to accept without searching only when every chain's life or
/// death is this sure (the share of ownership playouts agreeing); otherwise the search
/// decides whether to pass.
const SETTLED: f64 = 0.9;
/// Simulations between two looks at the clock, the interrupt flag and the early stop.
const CHECK_EVERY: usize = 64;
/// How often a watched search's own thread looks at it (`Root::run_watched`).
const WATCH_EVERY: Duration = Duration::from_millis(2);

/// Added to the seed of a search's extension, so that its simulations are not the first
/// ones over again.
const EXTENSION_SEED: u64 = 0x5eed;
/// A search resigns only when its root has at least this many simulations, those of the
/// tree kept from the last move included. The root's, not the best move's: when every move
/// loses, the visits spread over them all, and the best one of a short search rarely
/// reaches this many (counted at the best move, 19x19 self-play at 0.3 s a move played lost
/// games on to the end: `doc/strength.md`).
const RESIGN_MIN_VISITS: u32 = 1000;
/// The most visited root move is settled once it has this many times the runner-up's
/// visits, and a win rate no lower than the runner-up's.
const SETTLED_VISITS_RATIO: u32 = 2;

/// What the engine does with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// A root child after the search, for display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the player to move (the prior's when there were no visits).
    pub winrate: f64,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub decision: Decision,
    /// Win rate of the chosen move for the player to move.
    pub winrate: f64,
    /// Simulations run by this search (not counting those a kept tree brought).
    pub playouts: usize,
    pub elapsed: Duration,
    /// Root children, most visited first.
    pub candidates: Vec<Candidate>,
    /// Principal variation from the root (most visited path).
    pub pv: Vec<Move>,
}

/// Searches for `c`'s move in `game` with a fresh tree. `stop` (GoGui's interrupt) ends
/// the search early with the best move so far; `seed` makes a one-thread search without a
/// time limit repeatable.
pub fn search(
    game: &Game,
    c: Color,
    params: &Params,
    seed: u64,
    stop: &AtomicBool,
) -> SearchResult {
    Searcher::new().search(game, c, params, seed, stop)
}

/// A position of a game, as the moves that led there from the game's start: what a
/// later search checks to know whether its game went on from it.
struct GamePoint {
    moves: Vec<(Color, Move)>,
    /// The board size: the hash of an empty board is the same on every size, and a point
    /// of one size is no point of another.
    size: usize,
    start_hash: u64,
    komi: f64,
    rules: Rules,
}

impl GamePoint {
    fn of(game: &Game) -> GamePoint {
        GamePoint {
            moves: game.moves().collect(),
            size: game.size(),
            start_hash: game.start_board().hash(),
            komi: game.effective_komi(),
            rules: game.rules(),
        }
    }

    /// The moves played from this point to reach `later`, when `later` is the same game
    /// (start, komi and rules) gone on from here.
    fn moves_to<'m>(&self, later: &'m GamePoint) -> Option<&'m [(Color, Move)]> {
        let same_game = self.size == later.size
            && self.komi == later.komi
            && self.rules == later.rules
            && self.start_hash == later.start_hash;
        (same_game && later.moves.starts_with(&self.moves))
            .then(|| &later.moves[self.moves.len()..])
    }
}

/// The tree kept from the last search, and the position it was made for.
struct Kept {
    tree: Tree,
    root: GamePoint,
}

/// The search, kept between moves so that each one starts from what the last one learnt.
pub struct Searcher {
    kept: Option<Kept>,
    /// Nodes a tree may hold.
    capacity: usize,
    /// The last search whose best move was below the resignation threshold.
    hopeless: Option<HopelessSearch>,
}

/// Where a search found no move above the resignation threshold, and for which side.
struct HopelessSearch {
    at: GamePoint,
    color: Color,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher::with_capacity(DEFAULT_TREE_NODES)
    }

    /// A searcher whose trees hold at most `capacity` nodes (`memory::tree_nodes`).
    pub fn with_capacity(capacity: usize) -> Searcher {
        Searcher {
            kept: None,
            capacity,
            hopeless: None,
        }
    }

    /// Trees of `capacity` nodes from the next search on. A kept tree of another size is
    /// forgotten: under a new limit it would be held beside the next search's arena.
    pub fn set_capacity(&mut self, capacity: usize) {
        if capacity != self.capacity {
            self.capacity = capacity;
            self.kept = None;
        }
    }

    /// Forgets the kept tree and the last hopeless search.
    pub fn clear(&mut self) {
        self.kept = None;
        self.hopeless = None;
    }

    /// Simulations through the root of the kept tree (0 without one).
    pub fn kept_visits(&self) -> u32 {
        self.kept.as_ref().map_or(0, |k| k.tree.visits(ROOT))
    }

    /// Searches for `c`'s move in `game`, from the kept tree when the game went on from
    /// the position it was made for.
    pub fn search(
        &mut self,
        game: &Game,
        c: Color,
        params: &Params,
        seed: u64,
        stop: &AtomicBool,
    ) -> SearchResult {
        self.search_observed(game, c, params, seed, stop, None)
    }

    /// [`Searcher::search`], watched by an analysis (genmove's analysing variants): the same
    /// simulations on the same seeds, run on threads of their own while this one calls the
    /// observer's `watch` every few milliseconds and once more at the end. An observer that
    /// avoids moves searches a fresh tree and keeps none, since a tree grown without some
    /// moves would leave them out of the next search too.
    pub(crate) fn search_observed(
        &mut self,
        game: &Game,
        c: Color,
        params: &Params,
        seed: u64,
        stop: &AtomicBool,
        mut observer: Option<Observer<'_>>,
    ) -> SearchResult {
        let start = Instant::now();
        let cache_before = params.network.as_ref().map(|n| n.0.cache_stats());
        let threads = params.threads.clamp(1, 64);
        let avoiding = observer.as_ref().is_some_and(|o| !o.avoid.is_empty());
        let tree = if avoiding {
            self.kept = None;
            Tree::new(self.capacity)
        } else {
            self.take_tree(game, c)
        };
        let analysed = observer.as_ref().map(|o| Analysed {
            owners: o.owners,
            avoid: o.avoid,
            threads,
            playing: true,
        });
        let root = Root::new(
            game,
            c,
            tree,
            &params.tunables,
            params.network.as_ref().map(|n| &*n.0),
            analysed,
        );
        if let Some((m, winrate)) = root.forced_answer() {
            if let Some(o) = observer.as_mut() {
                (o.watch)(&root, true);
            }
            return SearchResult {
                decision: Decision::Play(m),
                winrate,
                playouts: 0,
                elapsed: start.elapsed(),
                candidates: Vec::new(),
                pv: vec![m],
            };
        }
        let reused = root.shared.tree.visits(ROOT);
        let limit = params.playout_limit();
        let deadline = params.time.map(|t| start + t);
        // The early stop saves clock time; a fixed number of simulations is run in full, so
        // that it means the same search every time.
        let early_stop = deadline.is_some() && params.tunables.early_stop != 0;
        let mut run = |seed, deadline, early_stop| match observer.as_mut() {
            None => root.run(threads, limit, seed, deadline, stop, early_stop),
            Some(o) => {
                root.run_watched(threads, limit, seed, deadline, stop, early_stop, &mut |r| {
                    (o.watch)(r, false)
                })
            }
        };
        let mut playouts = run(seed, deadline, early_stop);
        if let (Some(_), Some(extension)) = (deadline, params.extension) {
            let now = Instant::now();
            // The early stop ends most searches just before the deadline, once the few
            // simulations left cannot change the most visited move; that is the moment to
            // ask whether the choice would hold up with more of them.
            if !stop.load(Ordering::Relaxed) && root.unsettled() {
                log::info!(
                    "search: unsettled after {playouts} playouts, {:.2}s more",
                    extension.as_secs_f64()
                );
                let seed = seed.wrapping_add(EXTENSION_SEED);
                playouts += run(seed, Some(now + extension), early_stop);
            }
        }
        if let Some(o) = observer.as_mut() {
            (o.watch)(&root, true);
        }
        let mut result = root.result(playouts, start.elapsed());
        if self.resigns(game, c, params, &result) {
            result.decision = Decision::Resign;
        }
        log::info!(
            "search: {playouts} playouts ({reused} kept) in {:.2}s on {threads} thread(s), {} nodes ({:.0}% of the arena), {:?} {:.1}% ({} visits)",
            result.elapsed.as_secs_f64(),
            root.shared.tree.node_count(),
            root.shared.tree.fill() * 100.0,
            result.decision,
            result.winrate * 100.0,
            result.candidates.first().map_or(0, |best| best.visits),
        );
        if let (Some(before), Some(n)) = (cache_before, &params.network) {
            let now = n.0.cache_stats();
            log::info!(
                "network: {} evaluations asked, {} answered by the cache",
                now.lookups - before.lookups,
                now.hits - before.hits
            );
        }
        if !avoiding {
            self.keep(root.shared.tree, game);
        }
        result
    }

    /// Whether `c` resigns after this search: its best move wins less often than
    /// `resign_below`, and so did the best move of `c`'s search before it, one move of each
    /// side earlier in the same game. A single search can misjudge a fight: 19x19 games
    /// against Pachi were resigned while Pachi still rated them open (`doc/strength.md`). The
    /// second search starts from the tree the first grew, with the replies read further.
    fn resigns(&mut self, game: &Game, c: Color, params: &Params, result: &SearchResult) -> bool {
        let root_visits: u32 = result.candidates.iter().map(|child| child.visits).sum();
        let hopeless = result.candidates.first().is_some_and(|best| {
            root_visits >= RESIGN_MIN_VISITS && best.winrate < params.resign_below
        });
        // Under a handicap game's dynamic komi the search's win rates are not the game's.
        if !hopeless || dynamic_komi(game, &params.tunables) > 0.0 {
            return false;
        }
        let now = GamePoint::of(game);
        let again = self.hopeless.as_ref().is_some_and(|last| {
            last.color == c && last.at.moves_to(&now).is_some_and(|since| since.len() == 2)
        });
        self.hopeless = Some(HopelessSearch { at: now, color: c });
        again
    }

    fn keep(&mut self, tree: Tree, game: &Game) {
        self.kept = Some(Kept {
            tree,
            root: GamePoint::of(game),
        });
    }

    /// The kept tree's subtree for `game`'s position with `c` to move, if the game went on
    /// from the kept one by moves the tree knows; otherwise a new tree.
    fn take_tree(&mut self, game: &Game, c: Color) -> Tree {
        let capacity = self.capacity;
        let fresh = || Tree::new(capacity);
        let Some(kept) = self.kept.take() else {
            log::debug!("no kept tree");
            return fresh();
        };
        let now = GamePoint::of(game);
        let extra = match kept.root.moves_to(&now) {
            Some(extra) if !extra.is_empty() => extra,
            _ => return fresh(),
        };
        // The moves since must alternate and leave `c` to move.
        let mut expected = extra[0].0;
        for &(col, _) in extra {
            if col != expected {
                return fresh();
            }
            expected = expected.other();
        }
        if expected != c {
            return fresh();
        }
        let mut node = ROOT;
        for &(_, m) in extra {
            match kept.tree.child(node, m) {
                Some(child) => node = child,
                None => {
                    log::debug!("kept tree: no node for {m:?}");
                    return fresh();
                }
            }
        }
        if !kept.tree.is_expanded(node) {
            return fresh();
        }
        kept.tree
            .subtree(node, capacity, |m| {
                m.point().is_none_or(|p| is_root_candidate(game, c, p))
            })
            .unwrap_or_else(fresh)
    }
}

/// The test of [`Root::unsettled`] on the two most visited root moves.
fn is_unsettled(first: &Candidate, second: &Candidate) -> bool {
    first.visits < second.visits.saturating_mul(SETTLED_VISITS_RATIO)
        || second.winrate > first.winrate
}

/// Whether the root offers `c` the point `p`: every legal move but own true eyes and
/// suicides (where the rules allow one, a suicide only ever does what a pass does, at the
/// price of stones).
pub(crate) fn is_root_candidate(game: &Game, c: Color, p: Point) -> bool {
    let board = game.board();
    !board.is_true_eye(c, p) && !board.is_suicide(c, p) && game.is_legal(c, Move::Play(p))
}

/// Whether `c`'s pass ends `game` won: the opponent passed, and with the dead stones of a
/// settled board `c` wins the count.
pub(crate) fn passing_wins(game: &Game, c: Color, t: &Tunables) -> bool {
    if game.consecutive_passes() == 0 {
        return false;
    }
    // The safe test: dead stones as they would be if the opponent moved first, so that none
    // of its chains counts as dead that could still live (nor any of ours as alive that it
    // could still kill).
    let status = dead_stones::estimate(game.board(), c.other(), game.rules().suicide_allowed(), t);
    let s = game.score(&status.dead_stones());
    status.certainty >= SETTLED && s.winner() == Some(c)
}

/// Playouts for the root's ownership estimate, which the priors read at every depth.
const OWNER_PLAYOUTS: usize = 128;

/// The ownership estimate the priors' owner feature reads, if the built-in weights for
/// this board size have one.
pub(crate) fn root_ownership(board: &Board, color: Color, t: &Tunables) -> Option<Vec<f32>> {
    if !Gammas::builtin(board.geometry().size()).uses_owner() {
        return None;
    }
    let owner = ownership(board, color, OWNER_PLAYOUTS, board.hash(), t);
    Some(owner.into_iter().map(|o| o as f32).collect())
}

/// The moves before the game's position, as a simulation's first move knows them.
pub(crate) fn last_moves(game: &Game) -> Last {
    let moves = game.moves().map(|(_, m)| m.point()).collect::<Vec<_>>();
    let remembered = &moves[moves.len().saturating_sub(EARLIER_MOVES + 2)..];
    remembered
        .iter()
        .fold(Last::default(), |last, &played| last.then(played))
        .with_ko_of(game.board())
}

/// One search: the game it is for, what its threads share, and the simulations started.
pub(crate) struct Root<'g> {
    pub(crate) game: &'g Game,
    pub(crate) shared: Shared<'g>,
    /// Simulations started, by all threads.
    started: AtomicUsize,
}

/// What an analysis adds to a search: whether the tally counts owners, the moves kept out
/// of the tree, the threads that will search (a slot each in the tally), and whether a move
/// is being chosen to play (a genmove watched) or the position only judged.
#[derive(Clone, Copy)]
pub(crate) struct Analysed<'a> {
    pub(crate) owners: bool,
    pub(crate) avoid: &'a AvoidMoves,
    pub(crate) threads: usize,
    pub(crate) playing: bool,
}

/// An analysis watching a genmove search ([`Searcher::search_observed`]).
pub(crate) struct Observer<'a> {
    /// Whether the tally counts owners.
    pub(crate) owners: bool,
    pub(crate) avoid: &'a AvoidMoves,
    /// Called every few milliseconds while the search runs (`false`) and once when it has
    /// ended (`true`); answering true stops the search.
    pub(crate) watch: &'a mut dyn FnMut(&Root<'_>, bool) -> bool,
}

impl<'g> Root<'g> {
    pub(crate) fn new(
        game: &'g Game,
        color: Color,
        tree: Tree,
        tunables: &'g Tunables,
        network: Option<&'g Evaluator>,
        analysed: Option<Analysed<'_>>,
    ) -> Root<'g> {
        let last = last_moves(game);
        let owner = root_ownership(game.board(), color, tunables);
        // Counted only where the weights read an estimate and the setting asks for it.
        let live_owner = (owner.is_some() && tunables.prior_owner_live_min != u32::MAX)
            .then(|| LiveOwnership::new(game.board().geometry().num_points(), OWNER_PLAYOUTS));
        let points = game.board().geometry().num_points();
        let tally = analysed.map(|a| Tally::new(points, a.threads, a.owners));
        let avoid = analysed
            .map(|a| a.avoid.clone())
            .filter(|avoid| !avoid.is_empty());
        // A handicap game's dynamic komi is a way to play it; a review wants the position
        // judged as it is counted (KataGo's analysis likewise leaves its handicap play out).
        let playing = analysed.is_none_or(|a| a.playing);
        let extra_komi = if playing {
            dynamic_komi(game, tunables)
        } else {
            0.0
        };
        let value_visits = if extra_komi > 0.0 {
            0.0
        } else {
            tunables.net_value_visits_for(game.size())
        };
        let root = Root {
            game,
            shared: Shared {
                tree,
                color,
                board: game.board().clone(),
                history: game.position_hashes().collect(),
                komi: game.effective_komi(),
                playout_komi: game.effective_komi() + extra_komi,
                value_visits,
                passes: game.consecutive_passes(),
                last,
                owner,
                live_owner,
                tunables,
                network,
                strategy: Strategy::new(tunables, network),
                tally,
                avoid,
            },
            started: AtomicUsize::new(0),
        };
        root.prepare();
        root
    }

    /// Expands the root (unless a kept tree brought its children) with the game's full
    /// legality (own true eyes and suicides left out, as below the root), and gives the
    /// heuristic player's tactical choice and the other tactical moves its reading finds
    /// their bonuses.
    fn prepare(&self) {
        let board = &self.shared.board;
        let c = self.shared.color;
        let t = self.shared.tunables;
        if !self.shared.tree.is_expanded(ROOT) && self.shared.tree.begin_expand(ROOT) {
            let avoid = self.shared.avoid.as_ref();
            let mut moves: Vec<Point> = board
                .empties()
                .iter()
                .copied()
                .filter(|&p| is_root_candidate(self.game, c, p))
                .filter(|&p| !avoid.is_some_and(|a| a.avoids(c, Move::Play(p), 0)))
                .collect();
            moves.sort();
            let mut priors = Vec::new();
            let last = self.shared.last;
            let leaf = Leaf {
                board,
                color: c,
                moves: &moves,
                last,
                owner: self.shared.owner.as_deref(),
                depth: 0,
            };
            child_priors(&leaf, t, &mut priors);
            let mut children: Vec<NewChild> = moves
                .iter()
                .zip(&priors)
                .map(|(&p, &(v, w))| NewChild {
                    mv: Move::Play(p),
                    prior_visits: v,
                    prior_wins: w,
                })
                .collect();
            let only_pass = children.is_empty();
            if only_pass || !avoid.is_some_and(|a| a.avoids(c, Move::Pass, 0)) {
                children.push(pass_child(t, only_pass));
            }
            self.shared.tree.finish_expand(ROOT, &children);
        }
        // The network's priors at once for the root (before its tactical bonuses, which
        // they would otherwise replace).
        if let Some(net) = self.shared.network
            && self.shared.tree.claim_net(ROOT)
            && let Some(e) = net_priors(
                net,
                &self.shared.tree,
                ROOT,
                board,
                c,
                self.shared.last,
                self.shared.passes > 0,
                self.shared.komi as f32,
                self.shared.value_visits,
                t,
                &mut NetScratch::default(),
            )
            && let Some(tally) = &self.shared.tally
        {
            // In the reporter's slot: the thread that made the root reports.
            tally.record_net(tally.reporter_slot(), None, c, &e);
            tally.set_root_policy(&e.policy);
        }
        let found = heuristic::tactics(self.game, c);
        let Some(choice) = found.best().map(|choice| choice.mv) else {
            return;
        };
        let tree = &self.shared.tree;
        if let Some(child) = tree.child(ROOT, choice) {
            tree.add_prior(child, t.prior_heuristic, t.prior_heuristic);
        }
        // The heuristics' other captures, saves, attacks and defences: the choice above
        // weighs one chain, the largest, but a smaller one may be the urgent one.
        if t.prior_tactics == 0.0 {
            return;
        }
        let mut seen = vec![choice];
        for p in found.moves() {
            let mv = Move::Play(p);
            if !seen.contains(&mv) {
                seen.push(mv);
                if let Some(child) = tree.child(ROOT, mv) {
                    tree.add_prior(child, t.prior_tactics, t.prior_tactics);
                }
            }
        }
    }

    /// A move that needs no search, with the win rate to report for it: the only move (no
    /// estimate: 50%), or a pass that ends a won game (a win, which is what a user reading
    /// the win rate or a comparison with another engine's estimate should see).
    fn forced_answer(&self) -> Option<(Move, f64)> {
        let children = self.shared.tree.children(ROOT);
        if children.len() == 1 {
            return Some((self.shared.tree.mv(children.start), 0.5));
        }
        passing_wins(self.game, self.shared.color, self.shared.tunables)
            .then_some((Move::Pass, 1.0))
    }

    /// Runs simulations on `threads` threads until `limit` more have started, the
    /// deadline, `stop`, or (with `early_stop`) the point where the most visited move can
    /// no longer change. Returns the simulations run.
    fn run(
        &self,
        threads: usize,
        limit: usize,
        seed: u64,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        early_stop: bool,
    ) -> usize {
        let limit = self.started.load(Ordering::Relaxed).saturating_add(limit);
        if threads == 1 {
            return self.work(seed, 0, limit, deadline, stop, early_stop);
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|i| {
                    let seed = seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    scope.spawn(move || self.work(seed, i, limit, deadline, stop, early_stop))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        })
    }

    /// `run` on threads of its own while this one calls `watch` every few milliseconds
    /// until the run ends; `watch` answering true stops it, as `stop` does. The simulations
    /// are those `run` makes on this thread: the same seeds, the same slots.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_watched(
        &self,
        threads: usize,
        limit: usize,
        seed: u64,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        early_stop: bool,
        watch: &mut dyn FnMut(&Root<'g>) -> bool,
    ) -> usize {
        let halt = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let halt = &halt;
            let handle =
                scope.spawn(move || self.run(threads, limit, seed, deadline, halt, early_stop));
            while !handle.is_finished() {
                if stop.load(Ordering::Relaxed) || watch(self) {
                    halt.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(WATCH_EVERY);
            }
            handle.join().unwrap_or(0)
        })
    }

    /// One thread's share of `run`, thread number `slot`: the simulations it ran.
    fn work(
        &self,
        seed: u64,
        slot: usize,
        limit: usize,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        early_stop: bool,
    ) -> usize {
        match self.shared.strategy {
            Strategy::Rave(rave) => {
                let worker = Worker::new(&self.shared, rave, seed, slot);
                self.work_with(worker, limit, deadline, stop, early_stop)
            }
            Strategy::Zero(zero) => {
                let worker = Worker::new(&self.shared, zero, seed, slot);
                self.work_with(worker, limit, deadline, stop, early_stop)
            }
        }
    }

    /// `work` with the worker built for the search's tree policy.
    fn work_with<P: TreePolicy>(
        &self,
        mut worker: Worker<'_, 'g, P>,
        limit: usize,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        early_stop: bool,
    ) -> usize {
        // The rate of simulations is timed from here, not from the search's start: the
        // root's preparation before it (ownership playouts, the tactical choice) would make
        // the rate look low at the first checks, and the early stop fire too soon.
        let began = Instant::now();
        let first = self.started.load(Ordering::Relaxed);
        let mut done = 0usize;
        loop {
            let n = self.started.fetch_add(1, Ordering::Relaxed);
            if n >= limit {
                break;
            }
            worker.simulate();
            done += 1;
            if !done.is_multiple_of(CHECK_EVERY) {
                continue;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let now = Instant::now();
            let mut left = limit.saturating_sub(n);
            if let Some(d) = deadline {
                if now >= d {
                    break;
                }
                // Simulations the remaining time allows at the rate so far.
                let rate = n.saturating_sub(first) as f64 / (now - began).as_secs_f64().max(1e-3);
                left = left.min(((d - now).as_secs_f64() * rate) as usize);
            }
            if early_stop && self.decided(left) {
                // Tell the other threads too.
                self.started.fetch_max(limit, Ordering::Relaxed);
                break;
            }
        }
        done
    }

    /// Whether the most visited root move is settled: the runner-up could not catch up even
    /// with all of the `left` simulations.
    fn decided(&self, left: usize) -> bool {
        let (mut first, mut second) = (0usize, 0usize);
        for c in self.shared.tree.children(ROOT) {
            let v = self.shared.tree.visits(c) as usize;
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
        }
        first > second + left
    }

    /// Whether the choice is still open: the most visited move has fewer than
    /// [`SETTLED_VISITS_RATIO`] times the runner-up's visits, or a lower win rate.
    fn unsettled(&self) -> bool {
        let candidates = self.candidates();
        match candidates.as_slice() {
            [first, second, ..] => is_unsettled(first, second),
            _ => false,
        }
    }

    /// The root children, most visited first.
    fn candidates(&self) -> Vec<Candidate> {
        let t = &self.shared.tree;
        let mut candidates: Vec<Candidate> = t
            .children(ROOT)
            .map(|i| {
                let s = t.stats(i);
                Candidate {
                    mv: s.mv,
                    visits: s.visits,
                    winrate: s.winrate(),
                }
            })
            .collect();
        candidates.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
        });
        candidates
    }

    fn result(&self, playouts: usize, elapsed: Duration) -> SearchResult {
        let candidates = self.candidates();
        let best = candidates.first().copied().unwrap_or(Candidate {
            mv: Move::Pass,
            visits: 0,
            winrate: 0.5,
        });
        let decision = Decision::Play(best.mv);
        let pv = match self.shared.tree.child(ROOT, best.mv) {
            Some(i) => self.shared.tree.principal_variation(i, 20),
            None => vec![best.mv],
        };
        SearchResult {
            decision,
            winrate: best.winrate,
            playouts,
            elapsed,
            candidates,
            pv,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Board;
    use crate::go::rules::Rules;

    fn game_from(diagram: &str, rules: &str, komi: f64) -> Game {
        let n = diagram.lines().filter(|l| !l.trim().is_empty()).count();
        let rules = Rules::preset(rules).unwrap();
        let geo = crate::go::geometry::Geometry::get(n, rules.topology).unwrap();
        let board = Board::from_diagram(geo, diagram).unwrap();
        Game::with_position(board, Color::Black, rules, komi)
    }

    fn params(playouts: usize) -> Params {
        Params {
            playouts: Some(playouts),
            time: None,
            extension: None,
            resign_below: 0.0,
            threads: 1,
            tunables: Tunables::default(),
            network: None,
        }
    }

    /// Black's 17 stones and White's three on row 6 both in atari at E6, White to move.
    fn big_chain_in_atari() -> Game {
        game_from(
            "
            X X X X X X X
            X O O O . X X
            X X X X X X X
            O O O O O O O
            O O O O O O O
            O O O O O O O
            . . O O O O O",
            "chinese",
            0.5,
        )
    }

    #[test]
    fn captures_a_big_chain_in_atari() {
        // Black's 17 stones and White's three on row 6 are both in atari at E6. White
        // taking them wins the board. Anything else loses: a pass lets Black capture the
        // three and win the race (an eye of three against White's two liberties), and A1
        // or B1 puts White's own 26 stones in atari. (GNU Go 3.8 at level 10 agrees: it
        // plays E6 for White, and after a White pass E6 for Black, then counts B+48.5.)
        let g = big_chain_in_atari();
        let r = search(&g, Color::White, &params(2000), 1, &AtomicBool::new(false));
        assert_eq!(
            r.decision,
            Decision::Play(g.geometry().parse_move("E6").unwrap())
        );
    }

    #[test]
    fn the_value_heads_searches_capture_the_big_chain_too() {
        // The position above, searched with the network's value blended into the playouts'
        // results (AlphaGo's mix) and alone (AlphaGo Zero's search, no playouts), on one
        // thread and on two sharing the tree.
        let g = big_chain_in_atari();
        for (mix, threads) in [(0.5, 1), (1.0, 1), (1.0, 2)] {
            let p = Params {
                threads,
                network: Some(crate::go::search::Network::builtin()),
                tunables: Tunables::with_overrides(&format!("net_value_mix={mix}")),
                ..params(1000)
            };
            let r = search(&g, Color::White, &p, 1, &AtomicBool::new(false));
            assert_eq!(r.playouts, 1000, "mix {mix}, {threads} threads");
            assert_eq!(
                r.decision,
                Decision::Play(g.geometry().parse_move("E6").unwrap()),
                "mix {mix}, {threads} threads"
            );
            let best = &r.candidates[0];
            assert!(best.winrate > 0.9, "mix {mix}: {}", best.winrate);
        }
    }

    #[test]
    fn without_the_early_stop_a_timed_search_runs_to_its_deadline() {
        // E6 is so far ahead that the early stop ends the search long before a second;
        // with `early_stop=0` it may not end before the second is up.
        let g = big_chain_in_atari();
        let time = Duration::from_secs(1);
        for (overrides, runs_out) in [("", false), ("early_stop=0", true)] {
            let p = Params {
                playouts: None,
                time: Some(time),
                tunables: Tunables::with_overrides(overrides),
                ..params(0)
            };
            let r = search(&g, Color::White, &p, 1, &AtomicBool::new(false));
            assert_eq!(
                r.elapsed >= time,
                runs_out,
                "{overrides:?}: {:?}",
                r.elapsed
            );
            assert_eq!(
                r.decision,
                Decision::Play(g.geometry().parse_move("E6").unwrap())
            );
        }
    }

    #[test]
    fn a_choice_is_open_while_the_runner_up_is_close_or_better() {
        let candidate = |visits, winrate| Candidate {
            mv: Move::Pass,
            visits,
            winrate,
        };
        assert!(!is_unsettled(&candidate(200, 0.6), &candidate(100, 0.5)));
        assert!(is_unsettled(&candidate(199, 0.6), &candidate(100, 0.5)));
        assert!(is_unsettled(&candidate(900, 0.6), &candidate(100, 0.65)));
        assert!(!is_unsettled(&candidate(1, 0.5), &candidate(0, 0.5)));
    }

    #[test]
    fn is_deterministic_for_a_seed() {
        let g = Game::new(9, Rules::default(), 7.5).unwrap();
        let stop = AtomicBool::new(false);
        let a = search(&g, Color::Black, &params(500), 3, &stop);
        let b = search(&g, Color::Black, &params(500), 3, &stop);
        assert_eq!(a.decision, b.decision);
        assert_eq!(a.candidates, b.candidates);
    }

    #[test]
    fn searches_every_preset_and_the_torus_without_illegal_moves() {
        for (name, _) in crate::go::rules::PRESETS {
            let mut g = Game::new(5, Rules::preset(name).unwrap(), 0.5).unwrap();
            let stop = AtomicBool::new(false);
            let mut c = Color::Black;
            for _ in 0..30 {
                let r = search(&g, c, &params(200), 5, &stop);
                let Decision::Play(m) = r.decision else { break };
                assert!(g.is_legal(c, m), "{name}: {m:?}");
                g.play(c, m).unwrap();
                if g.consecutive_passes() >= 2 {
                    break;
                }
                c = c.other();
            }
        }
    }

    /// A straight three in the corner: whoever plays its middle point decides whether Black
    /// lives. The region touches only Black, so a search that leaves such regions out (as
    /// this one once did) passes for both sides.
    #[test]
    fn plays_the_vital_point_of_an_eye_space_for_both_sides() {
        let diagram = "
            . O . O .
            O O O O O
            O O O O O
            X X X X O
            . . . X O";
        // Komi -10: Black wins with a living group (8 points), loses without.
        let vital = crate::go::geometry::Geometry::get(5, crate::go::geometry::Topology::Plane)
            .unwrap()
            .parse_move("B1")
            .unwrap();
        for c in [Color::White, Color::Black] {
            let mut g = game_from(diagram, "chinese", -10.0);
            if c == Color::White {
                g.play(Color::Black, Move::Pass).unwrap();
            }
            let r = search(&g, c, &params(3000), 1, &AtomicBool::new(false));
            assert_eq!(r.decision, Decision::Play(vital), "{c} to move");
        }
    }

    /// White's chain E7-E8-D8 is in atari and connects through the false eye at D7; Black's
    /// other chances are few. A search in which nobody ever fills an own eye shape sees the
    /// chain as dead and rates Black's position near 99% (Pachi at 5,000 simulations: 3%).
    #[test]
    fn knows_a_chain_can_connect_through_a_false_eye() {
        let g = game_from(
            "
            . . . X X . X O .
            . . X O O X X X O
            . O O . O X . X O
            . . . O X O O O O
            . O O X X X X X O
            O . O O O X O O .
            . O O X O X O . O
            . . X X X X X O .
            . . . . . . O . O",
            "chinese",
            7.5,
        );
        let r = search(&g, Color::Black, &params(5000), 1, &AtomicBool::new(false));
        assert!(r.winrate < 0.3, "Black's win rate {:.3}", r.winrate);
    }

    #[test]
    fn two_threads_share_one_tree_and_find_the_capture() {
        // A capturing race where both chains have D2 as their last liberty: White's capture
        // leaves its group alive with a five-point eye space and wins with komi; any other
        // move lets Black take fifteen stones. Only D2 wins, so racing threads agree.
        let g = game_from(
            "
            . . . . . . .
            . . . . . . .
            X X X X X X X
            X O O O O O X
            X O X X X O X
            X O X . X O X
            X O O O O O X",
            "chinese",
            12.5,
        );
        let p = Params {
            threads: 2,
            ..params(4000)
        };
        let r = search(&g, Color::White, &p, 1, &AtomicBool::new(false));
        assert_eq!(
            r.playouts, 4000,
            "the threads run the simulations between them"
        );
        assert_eq!(
            r.decision,
            Decision::Play(g.geometry().parse_move("D2").unwrap())
        );
        let visits: u32 = r.candidates.iter().map(|c| c.visits).sum();
        assert!((3900..=4000).contains(&visits), "{visits}");
    }

    #[test]
    fn the_next_search_starts_from_the_kept_subtree() {
        let mut g = Game::new(9, Rules::default(), 7.5).unwrap();
        let mut searcher = Searcher::with_capacity(1 << 20);
        let stop = AtomicBool::new(false);
        let r = searcher.search(&g, Color::Black, &params(3000), 1, &stop);
        let Decision::Play(mine) = r.decision else {
            panic!("resigned on an empty board")
        };
        // The opponent answers with the reply the search looked at most.
        let reply = searcher.kept.as_ref().and_then(|k| {
            let node = k.tree.child(ROOT, mine)?;
            Some(k.tree.mv(k.tree.most_visited(node)?))
        });
        let reply = reply.expect("the chosen move was expanded");
        g.play(Color::Black, mine).unwrap();
        g.play(Color::White, reply).unwrap();
        let tree = searcher.take_tree(&g, Color::Black);
        assert!(tree.visits(ROOT) > 0, "the subtree of the position reached");
        // A position the kept tree never saw starts afresh.
        let mut other = Game::new(9, Rules::default(), 7.5).unwrap();
        other.play(Color::Black, Move::Pass).unwrap();
        searcher.keep(tree, &g);
        assert_eq!(searcher.take_tree(&other, Color::White).visits(ROOT), 0);
    }

    #[test]
    fn a_kept_tree_is_not_taken_to_another_board_size() {
        // Empty boards of every size hash alike, and a point of 9x9 is no point of 2x2: a
        // tree kept on one size must not serve a game gone on from the other's empty board
        // (the subtree's moves were read on the new board and indexed past its end).
        let big = Game::new(9, Rules::default(), 7.5).unwrap();
        let mut small = Game::new(2, Rules::default(), 7.5).unwrap();
        small.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(GamePoint::of(&big).moves_to(&GamePoint::of(&small)), None);
        let mut searcher = Searcher::with_capacity(1 << 16);
        let stop = AtomicBool::new(false);
        searcher.search(&big, Color::Black, &params(200), 1, &stop);
        assert_eq!(searcher.take_tree(&small, Color::White).visits(ROOT), 0);
    }

    #[test]
    fn resigns_on_the_second_hopeless_search_in_a_row() {
        // White's 35 points live with eyes; Black's most is the 14 above them.
        let mut g = game_from(
            "
            . . . . . . .
            . . . . . . .
            O O O O O O O
            . O . O . O .
            O O O O O O O
            O O O O O O O
            O . O . O . O",
            "chinese",
            0.5,
        );
        let stop = AtomicBool::new(false);
        // Too short a search to judge by: it plays on however hopeless it finds the game.
        let short = Params {
            resign_below: 0.1,
            ..params(RESIGN_MIN_VISITS as usize / 4)
        };
        let mut hasty = Searcher::new();
        let glance = hasty.search(&g, Color::Black, &short, 1, &stop);
        assert!(glance.winrate < 0.1, "hopeless: {}", glance.winrate);
        let resigning = Params {
            resign_below: 0.1,
            ..params(RESIGN_MIN_VISITS as usize * 3 / 2)
        };
        let mut searcher = Searcher::new();
        let first = searcher.search(&g, Color::Black, &resigning, 1, &stop);
        assert!(first.winrate < 0.1, "hopeless: {}", first.winrate);
        let Decision::Play(mine) = first.decision else {
            panic!("resigned after one search")
        };
        g.play(Color::Black, mine).unwrap();
        let reply = ["D1", "B1", "F1"]
            .iter()
            .map(|v| g.geometry().parse_move(v).unwrap())
            .find(|&m| g.is_legal(Color::White, m))
            .unwrap();
        g.play(Color::White, reply).unwrap();
        // A searcher that did not see the first search plays on; this one resigns.
        let fresh = Searcher::new().search(&g, Color::Black, &resigning, 2, &stop);
        assert!(matches!(fresh.decision, Decision::Play(_)));
        let second = searcher.search(&g, Color::Black, &resigning, 2, &stop);
        assert_eq!(second.decision, Decision::Resign);
        let glance = hasty.search(&g, Color::Black, &short, 2, &stop);
        assert!(glance.winrate < 0.1, "hopeless: {}", glance.winrate);
        assert!(matches!(glance.decision, Decision::Play(_)));
        // A new game starts without the streak.
        searcher.clear();
        let again = searcher.search(&g, Color::Black, &resigning, 3, &stop);
        assert!(matches!(again.decision, Decision::Play(_)));
    }

    #[test]
    fn resigns_by_the_roots_visits_not_the_best_moves() {
        // When every move loses, the visits spread over them all: here no move of a search
        // of 1,500 simulations has `RESIGN_MIN_VISITS`, and the search may still resign.
        let mut g = Game::new(19, Rules::default(), 7.5).unwrap();
        let hopeless = |visits: &[u32]| SearchResult {
            decision: Decision::Play(Move::Pass),
            winrate: 0.01,
            playouts: visits.iter().sum::<u32>() as usize,
            elapsed: Duration::ZERO,
            candidates: visits
                .iter()
                .map(|&visits| Candidate {
                    mv: Move::Pass,
                    visits,
                    winrate: 0.01,
                })
                .collect(),
            pv: vec![],
        };
        let spread = hopeless(&[300; 5]);
        let short = hopeless(&[100; 5]);
        let resigning = Params {
            resign_below: 0.1,
            ..params(1500)
        };
        let mut searcher = Searcher::new();
        let mut hasty = Searcher::new();
        assert!(!searcher.resigns(&g, Color::Black, &resigning, &spread));
        assert!(!hasty.resigns(&g, Color::Black, &resigning, &short));
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        assert!(searcher.resigns(&g, Color::Black, &resigning, &spread));
        assert!(!hasty.resigns(&g, Color::Black, &resigning, &short));
    }

    #[test]
    fn passes_to_keep_a_seki_that_any_move_breaks() {
        // Black's 13 stones (liberties D9 and J9) and White's five on the top right (its
        // eye G9, and J9) live in seki. Black's only legal moves, J9 and its own eye D9,
        // put its chain in atari; a pass keeps it and wins by the (reversed) komi. Before
        // the pass had a prior of its own, the search never visited it: J9 lost every
        // playout, so did the RAVE statistics of the rest, and it played J9.
        let g = game_from(
            "
            O O X . X O . O .
            O O X X X O O O X
            O O X X X X X X X
            O O O O O O O O O
            O O O O O O O O O
            O . O O . O O . O
            O O O O O O O O O
            O . O O . O O . O
            O O O O O O O O O",
            "chinese",
            -60.5,
        );
        let r = search(&g, Color::Black, &params(5000), 1, &AtomicBool::new(false));
        assert_eq!(r.decision, Decision::Play(Move::Pass));
        assert!(r.winrate > 0.5, "{}", r.winrate);
    }

    #[test]
    fn passes_to_end_a_won_game() {
        // Black owns everything but White's dead stone; White passed.
        let mut g = game_from(
            "
            . X . X .
            X X X X X
            . X . . O
            X X X X X
            . X . X .",
            "chinese",
            0.5,
        );
        g.play(Color::White, Move::Pass).unwrap();
        let r = search(&g, Color::Black, &params(500), 1, &AtomicBool::new(false));
        assert_eq!(r.decision, Decision::Play(Move::Pass));
        assert_eq!(r.winrate, 1.0);
    }

    #[test]
    fn a_handicap_game_is_played_with_the_dynamic_komi_and_analysed_without() {
        let g = crate::go::search::handicap::handicap_game(9, 4);
        let t = Tunables::default();
        let counted = g.effective_komi();
        let avoid = AvoidMoves::default();
        let watched = |playing| Analysed {
            owners: false,
            avoid: &avoid,
            threads: 1,
            playing,
        };
        let komi_of = |analysed| {
            Root::new(&g, Color::White, Tree::new(1000), &t, None, analysed)
                .shared
                .playout_komi
        };
        assert!(komi_of(None) > counted + 20.0, "genmove: {}", komi_of(None));
        assert!(
            komi_of(Some(watched(true))) > counted + 20.0,
            "genmove watched"
        );
        assert_eq!(komi_of(Some(watched(false))), counted, "an analysis");
    }
}
