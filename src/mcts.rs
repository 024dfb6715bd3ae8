//! Monte-Carlo tree search with RAVE, in the manner of michi and Pachi.
//!
//! How to read this file:
//! - A *simulation* copies the root board, walks down the tree choosing the most urgent child
//!   at each node, expands a node once it has been visited `expand_visits` times, finishes the
//!   game with a policy playout (`playout::policy_move`: captures, saves, pattern replies, no
//!   self-atari), counts it by area, and backs the result up the path.
//! - *Urgency* mixes a child's own win rate with its RAVE (all-moves-as-first) win rate, the
//!   RAVE share fading as real visits grow (`rave_equiv`). There is no exploration term:
//!   exploration comes from the priors, which every child starts with as virtual visits and
//!   wins (an even prior, plus bonuses for captures, saving moves, 3x3 shape patterns,
//!   nearness to the last move, and the heuristic move generator's choice; penalties for
//!   self-atari and the first line in an empty area).
//! - Win rates are kept from the point of view of the player who made the move into the node.
//! - Legality: children are legal on the board (ko point, no suicide); at the root they are
//!   checked against the game's full rules (superko included); below the root a capture may
//!   not repeat a position of the game or of the path (positional superko).
//! - The answer is the most visited root child; it resigns below `Params::resign_below`.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::movegen::{self, Reason};
use crate::ownership;
use crate::patterns;
use crate::playout::{Recent, move_cap, policy_move};
use crate::point::{Move, Point};
use crate::rng::Rng;
use crate::score;
use crate::tactics::{ladder_attack, ladder_escape};

// Tunables: the search's weights live in `Tunables` below, with their defaults and one
// comment each; `SHICHO_TUNE=name=value,...` overrides them for tuning matches.

/// Nodes a tree may hold (32 bytes each): a long analysis stops growing the tree there and
/// goes on refining what it has.
pub const MAX_TREE_NODES: usize = 4 << 20;
/// Playouts between two checks of the clock and the interrupt flag.
const CHECK_EVERY: usize = 64;

const PASS: u16 = u16::MAX;

/// The search's weights. Priors are virtual (visits, wins) every child starts with.
#[derive(Clone, Debug, PartialEq)]
pub struct Tunables {
    /// Simulations through a leaf before it gets children of its own.
    pub expand_visits: u32,
    /// Visits at which a child's own statistics weigh as much as its RAVE statistics.
    pub rave_equiv: f32,
    /// Every child starts with this many virtual visits at a 50% win rate.
    pub prior_even: f32,
    /// Extra virtual wins for capturing one stone, and more than one.
    pub prior_capture_one: f32,
    pub prior_capture_many: f32,
    /// Extra virtual wins for saving an own chain in atari (the extension gets 2+ liberties).
    pub prior_save: f32,
    /// Extra virtual losses for a self-atari that captures nothing.
    pub prior_self_atari: f32,
    /// Extra virtual wins at Manhattan distance 1 and 2 from the last move.
    pub prior_near_last: [f32; 2],
    /// Extra virtual losses for extending into a working ladder; extra virtual wins for an
    /// atari whose ladder works.
    pub prior_ladder: f32,
    /// Extra virtual wins for a move that fits a 3x3 shape pattern.
    pub prior_pattern: f32,
    /// Extra virtual losses for the first two lines far from any stone (plane boards only).
    pub prior_empty_edge: f32,
    /// Extra virtual wins at the root for the heuristics' tactical choice (capture, save,
    /// ladder or net attack, defence read out).
    pub prior_heuristic: f32,
    /// How often a playout answers the last move with a 3x3 pattern reply (percent).
    pub pattern_reply_percent: usize,
}

impl Default for Tunables {
    fn default() -> Tunables {
        Tunables {
            expand_visits: 8,
            rave_equiv: 3500.0,
            prior_even: 10.0,
            prior_capture_one: 15.0,
            prior_capture_many: 30.0,
            prior_save: 20.0,
            prior_self_atari: 10.0,
            prior_near_last: [12.0, 8.0],
            prior_ladder: 20.0,
            prior_pattern: 10.0,
            prior_empty_edge: 10.0,
            prior_heuristic: 40.0,
            pattern_reply_percent: 90,
        }
    }
}

impl Tunables {
    /// The defaults with `name=value` overrides (comma separated; `prior_near_last` takes
    /// `a/b`). Unknown names and bad values are reported and ignored.
    pub fn with_overrides(text: &str) -> Tunables {
        let mut t = Tunables::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((name, value)) = item.split_once('=') else {
                log::warn!("SHICHO_TUNE: ignoring '{item}'");
                continue;
            };
            let num = value.trim().parse::<f32>();
            let ok = match (name.trim(), num) {
                ("expand_visits", Ok(v)) => {
                    t.expand_visits = v.max(1.0) as u32;
                    true
                }
                ("rave_equiv", Ok(v)) => {
                    t.rave_equiv = v.max(1.0);
                    true
                }
                ("prior_even", Ok(v)) => {
                    t.prior_even = v.max(1.0);
                    true
                }
                ("prior_capture_one", Ok(v)) => {
                    t.prior_capture_one = v;
                    true
                }
                ("prior_capture_many", Ok(v)) => {
                    t.prior_capture_many = v;
                    true
                }
                ("prior_save", Ok(v)) => {
                    t.prior_save = v;
                    true
                }
                ("prior_self_atari", Ok(v)) => {
                    t.prior_self_atari = v;
                    true
                }
                ("prior_ladder", Ok(v)) => {
                    t.prior_ladder = v;
                    true
                }
                ("prior_pattern", Ok(v)) => {
                    t.prior_pattern = v;
                    true
                }
                ("prior_empty_edge", Ok(v)) => {
                    t.prior_empty_edge = v;
                    true
                }
                ("prior_heuristic", Ok(v)) => {
                    t.prior_heuristic = v;
                    true
                }
                ("pattern_reply_percent", Ok(v)) => {
                    t.pattern_reply_percent = v.clamp(0.0, 100.0) as usize;
                    true
                }
                ("prior_near_last", _) => match value
                    .split_once('/')
                    .map(|(a, b)| (a.parse::<f32>(), b.parse::<f32>()))
                {
                    Some((Ok(a), Ok(b))) => {
                        t.prior_near_last = [a, b];
                        true
                    }
                    _ => false,
                },
                _ => false,
            };
            if !ok {
                log::warn!("SHICHO_TUNE: ignoring '{item}'");
            }
        }
        t
    }
}

/// The tunables in force: the defaults, or `SHICHO_TUNE`'s overrides, read once.
pub fn tunables() -> &'static Tunables {
    static TUNABLES: std::sync::OnceLock<Tunables> = std::sync::OnceLock::new();
    TUNABLES.get_or_init(|| match std::env::var("SHICHO_TUNE") {
        Ok(text) => {
            let t = Tunables::with_overrides(&text);
            log::info!("tunables: {t:?}");
            t
        }
        Err(_) => Tunables::default(),
    })
}
const NO_PLY: u16 = u16::MAX;

/// What the search may spend and how it decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Simulations per move at most.
    pub playouts: usize,
    /// Wall-clock limit per move, if any (the clock's budget when a time control is set).
    pub time: Option<Duration>,
    /// Resign when the best move wins less often than this (0 never resigns).
    pub resign_below: f64,
    /// Threads, each searching its own tree (root parallelism).
    pub threads: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            playouts: 20_000,
            time: None,
            resign_below: 0.1,
            threads: 1,
        }
    }
}

/// The engine's decision.
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
    /// Win rate for the player to move, priors excluded where there were real visits.
    pub winrate: f64,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub decision: Decision,
    /// Win rate of the chosen move for the player to move.
    pub winrate: f64,
    pub playouts: usize,
    pub elapsed: Duration,
    /// Root children, most visited first.
    pub candidates: Vec<Candidate>,
    /// Principal variation from the root (most visited path).
    pub pv: Vec<Move>,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    point: u16,
    children: u16,
    first_child: u32,
    expanded: bool,
    /// Simulations through this node (priors not included).
    real: u32,
    /// Visits and wins with the priors' virtual ones included: what urgency is made of.
    visits: f32,
    wins: f32,
    rave_visits: f32,
    rave_wins: f32,
}

impl Node {
    fn new(point: u16, prior_visits: f32, prior_wins: f32) -> Node {
        Node {
            point,
            children: 0,
            first_child: 0,
            expanded: false,
            real: 0,
            visits: prior_visits,
            wins: prior_wins,
            rave_visits: 0.0,
            rave_wins: 0.0,
        }
    }

    fn mv(&self) -> Move {
        if self.point == PASS {
            Move::Pass
        } else {
            Move::Play(Point::from_index(self.point as usize))
        }
    }

    fn urgency(&self, rave_equiv: f32) -> f32 {
        let winrate = self.wins / self.visits;
        if self.rave_visits == 0.0 {
            return winrate;
        }
        let beta = self.rave_visits
            / (self.rave_visits + self.visits + self.visits * self.rave_visits / rave_equiv);
        (1.0 - beta) * winrate + beta * self.rave_wins / self.rave_visits
    }
}

/// Searches for `c`'s move in `game`. `stop` (GoGui's interrupt) ends the search early with
/// the best move so far; `seed` makes it repeatable (with no time limit).
pub fn search(
    game: &Game,
    c: Color,
    params: &Params,
    seed: u64,
    stop: &AtomicBool,
) -> SearchResult {
    let start = Instant::now();
    let first = Search::new(game, c, seed);
    if let Some(m) = first.forced_answer() {
        return SearchResult {
            decision: Decision::Play(m),
            winrate: 0.5,
            playouts: 0,
            elapsed: start.elapsed(),
            candidates: Vec::new(),
            pv: vec![m],
        };
    }
    // Root parallelism: one tree per thread, each with its own seed and share of the
    // simulations; their root statistics are summed. No locks, and deterministic for a seed
    // when there is no time limit.
    let threads = params.threads.clamp(1, 64);
    let share = params.playouts.max(1).div_ceil(threads);
    let deadline = params.time.map(|t| start + t);
    let mut searches = vec![first];
    searches.extend((1..threads).map(|i| {
        Search::new(
            game,
            c,
            seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }));
    let playouts: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = searches
            .iter_mut()
            .map(|search| {
                scope.spawn(move || search.run(share, deadline, &|| stop.load(Ordering::Relaxed)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    if stop.load(Ordering::Relaxed) {
        log::info!("search interrupted after {playouts} playouts");
    }
    result(&searches, params, playouts, start.elapsed())
}

/// One line of an analysis report: a root move and what the search thinks of it.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisLine {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the player to move.
    pub winrate: f64,
    /// The move's share of the root's prior visits: a rough policy value in 0..1.
    pub prior: f64,
    /// The most visited line starting with `mv`.
    pub pv: Vec<Move>,
}

/// A search that runs in slices and reports between them, for GTP's analysis commands.
pub struct Analysis<'g> {
    search: Search<'g>,
    pub playouts: usize,
}

impl<'g> Analysis<'g> {
    pub fn new(game: &'g Game, c: Color, seed: u64) -> Analysis<'g> {
        Analysis {
            search: Search::new(game, c, seed),
            playouts: 0,
        }
    }

    /// Searches for `slice` or until `stop` says so.
    pub fn run_for(&mut self, slice: Duration, stop: &dyn Fn() -> bool) {
        let deadline = Instant::now() + slice;
        self.playouts += self.search.run(usize::MAX, Some(deadline), stop);
    }

    /// Runs `playouts` simulations (fewer if `stop` says so).
    pub fn run_playouts(&mut self, playouts: usize, stop: &dyn Fn() -> bool) {
        self.playouts += self.search.run(playouts, None, stop);
    }

    /// The root moves with real visits, most visited first.
    pub fn lines(&self) -> Vec<AnalysisLine> {
        let tree = &self.search.tree;
        let root = tree[0];
        let range = root.first_child as usize..(root.first_child + root.children as u32) as usize;
        let prior_total: f32 = range
            .clone()
            .map(|i| tree[i].visits - tree[i].real as f32)
            .sum();
        let mut lines: Vec<AnalysisLine> = range
            .filter(|&i| tree[i].real > 0)
            .map(|i| {
                let n = tree[i];
                AnalysisLine {
                    mv: n.mv(),
                    visits: n.real,
                    winrate: (n.wins / n.visits) as f64,
                    prior: ((n.visits - n.real as f32) / prior_total.max(1.0)) as f64,
                    pv: self.search.principal_variation(i as u32, 20),
                }
            })
            .collect();
        lines.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
        });
        lines
    }
}

struct Search<'g> {
    game: &'g Game,
    color: Color,
    root_board: Board,
    tree: Vec<Node>,
    /// Positions of the game so far: a capture in the tree may not bring one back.
    history: HashSet<u64>,
    komi: f64,
    /// Passes at the end of the game's history (one means a pass now ends the game).
    root_passes: usize,
    rng: Rng,
    // Per-simulation scratch.
    board: Board,
    path: Vec<u32>,
    path_hashes: Vec<u64>,
    /// First ply at which each colour played each point in this simulation.
    first_ply: [Vec<u16>; 2],
    recent: Recent,
}

impl<'g> Search<'g> {
    fn new(game: &'g Game, color: Color, seed: u64) -> Search<'g> {
        let root_board = game.board().clone();
        let n = root_board.geometry().num_points();
        let history: HashSet<u64> = game.position_hashes().collect();
        let recent = Recent::new(&root_board);
        let mut search = Search {
            game,
            color,
            board: root_board.clone(),
            root_board,
            tree: Vec::with_capacity(1 << 16),
            history,
            komi: game.komi(),
            root_passes: game.consecutive_passes(),
            rng: Rng::new(seed),
            path: Vec::new(),
            path_hashes: Vec::new(),
            first_ply: [vec![NO_PLY; n], vec![NO_PLY; n]],
            recent,
        };
        search.tree.push(Node::new(PASS, 1.0, 0.5));
        search.expand_root();
        search
    }

    /// A move that needs no search: the only one left, or a pass that ends a won game.
    fn forced_answer(&self) -> Option<Move> {
        let root = self.tree[0];
        if root.children == 1 {
            return Some(self.tree[root.first_child as usize].mv());
        }
        if self.root_passes >= 1 {
            // The opponent passed: if the game as it stands (dead stones removed) is won,
            // passing ends it.
            let board = self.game.board();
            let status = ownership::status(board, self.color, self.game.rules().suicide_allowed());
            let s = self.game.score(&status.dead_stones());
            if s.winner() == Some(self.color) {
                return Some(Move::Pass);
            }
        }
        None
    }

    /// Root children: every move legal by the game's full rules but the filling of an own
    /// true eye; plus pass. No region is left out: the vital point of a nakade, the capture
    /// of a chain whose last liberty lies in someone's territory and the saving move of a
    /// chain in atari can all lie there. The heuristic move generator's tactical choice gets
    /// a bonus.
    fn expand_root(&mut self) {
        let board = self.root_board.clone();
        let c = self.color;
        let mut moves: Vec<Point> = board
            .empties()
            .iter()
            .copied()
            .filter(|&p| !board.is_true_eye(c, p) && self.game.is_legal(c, Move::Play(p)))
            .collect();
        moves.sort();
        let choice = movegen::choose(self.game, c, &mut Rng::new(movegen::REG_GENMOVE_SEED));
        let tactical = matches!(
            choice.reason,
            Reason::Capture | Reason::Save | Reason::Attack | Reason::Defend
        );
        let first = self.tree.len() as u32;
        for &p in &moves {
            let (mut visits, mut wins) = priors(
                &board,
                c,
                p,
                self.game.last_move().and_then(|(_, m)| m.point()),
            );
            if tactical && choice.mv == Move::Play(p) {
                visits += tunables().prior_heuristic;
                wins += tunables().prior_heuristic;
            }
            self.tree.push(Node::new(p.index() as u16, visits, wins));
        }
        // Passing is a real option only when the game is nearly over; it starts unattractive
        // and earns visits through the win rates of real playouts.
        self.tree.push(Node::new(
            PASS,
            tunables().prior_even,
            if moves.is_empty() {
                tunables().prior_even
            } else {
                0.0
            },
        ));
        let root = &mut self.tree[0];
        root.first_child = first;
        root.children = (moves.len() + 1) as u16;
        root.expanded = true;
    }

    /// Children of a node below the root: board-legal moves that fill no own true eye (false
    /// eyes included: see `Board::playout_candidate`) and whose captures repeat no position of the game or the path; plus pass.
    fn expand(&mut self, node: u32, c: Color, last: Option<Point>) {
        if self.tree.len() >= MAX_TREE_NODES {
            // The tree is as large as allowed: this leaf stays a leaf, simulations go on.
            return;
        }
        let first = self.tree.len() as u32;
        let mut count = 0u16;
        let empties: Vec<Point> = self.board.empties().to_vec();
        for p in empties {
            let Some(captures) = self.board.playout_candidate(c, p) else {
                continue;
            };
            if captures {
                let h = self.board.hash_after(c, p);
                if self.history.contains(&h) || self.path_hashes.contains(&h) {
                    continue;
                }
            }
            let (visits, wins) = priors(&self.board, c, p, last);
            self.tree.push(Node::new(p.index() as u16, visits, wins));
            count += 1;
        }
        self.tree.push(Node::new(
            PASS,
            tunables().prior_even,
            if count == 0 {
                tunables().prior_even
            } else {
                0.0
            },
        ));
        count += 1;
        let n = &mut self.tree[node as usize];
        n.first_child = first;
        n.children = count;
        n.expanded = true;
    }

    /// Runs up to `playouts` simulations, stopping early at the deadline or when `stop`
    /// says so (it is asked every `CHECK_EVERY` simulations).
    fn run(
        &mut self,
        playouts: usize,
        deadline: Option<Instant>,
        stop: &dyn Fn() -> bool,
    ) -> usize {
        let mut done = 0;
        while done < playouts {
            self.simulate();
            done += 1;
            if done % CHECK_EVERY == 0 && (stop() || deadline.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
        }
        done
    }

    /// The move into `node` followed by the most visited path below it, at most `max` moves.
    fn principal_variation(&self, node: u32, max: usize) -> Vec<Move> {
        let mut pv = vec![self.tree[node as usize].mv()];
        let mut node = node;
        while pv.len() < max {
            let n = self.tree[node as usize];
            if !n.expanded || n.children == 0 {
                break;
            }
            node = (n.first_child..n.first_child + n.children as u32)
                .max_by_key(|&i| self.tree[i as usize].real)
                .unwrap_or(n.first_child);
            if self.tree[node as usize].real == 0 {
                break;
            }
            pv.push(self.tree[node as usize].mv());
        }
        pv
    }

    fn best_child(&self, node: u32) -> u32 {
        let rave_equiv = tunables().rave_equiv;
        let n = self.tree[node as usize];
        let mut best = n.first_child;
        let mut best_urgency = f32::MIN;
        for i in n.first_child..n.first_child + n.children as u32 {
            let u = self.tree[i as usize].urgency(rave_equiv);
            if u > best_urgency {
                best_urgency = u;
                best = i;
            }
        }
        best
    }

    fn simulate(&mut self) {
        self.board.clone_from(&self.root_board);
        self.path.clear();
        self.path.push(0);
        self.path_hashes.clear();
        for plies in &mut self.first_ply {
            plies.fill(NO_PLY);
        }
        let mut c = self.color;
        let mut node = 0u32;
        let mut passes = self.root_passes;
        let mut ply: u16 = 0;
        let mut last = self.game.last_move().and_then(|(_, m)| m.point());
        let mut terminal = false;
        loop {
            let n = self.tree[node as usize];
            if !n.expanded {
                if n.real < tunables().expand_visits {
                    break;
                }
                self.expand(node, c, last);
                if !self.tree[node as usize].expanded {
                    break;
                }
            }
            let child = self.best_child(node);
            let m = self.tree[child as usize].mv();
            self.board.play_unchecked(c, m);
            self.path_hashes.push(self.board.hash());
            if let Move::Play(p) = m {
                let first = &mut self.first_ply[c.index()][p.index()];
                if *first == NO_PLY {
                    *first = ply;
                }
            }
            passes = if m == Move::Pass { passes + 1 } else { 0 };
            last = m.point();
            ply = ply.saturating_add(1);
            self.path.push(child);
            node = child;
            c = c.other();
            if passes >= 2 {
                terminal = true;
                break;
            }
        }
        if !terminal {
            self.play_out(c, last, ply);
        }
        let black_wins = self.black_wins();
        self.back_up(black_wins);
    }

    /// Finishes the game from the current simulation board with policy moves, recording
    /// first plays for RAVE.
    fn play_out(&mut self, to_move: Color, last: Option<Point>, start_ply: u16) {
        let cap = move_cap(&self.board);
        self.recent.reset(&self.board);
        let mut c = to_move;
        let mut passes = 0;
        let mut last = last;
        let mut ply = start_ply;
        for _ in 0..cap {
            let m = policy_move(&self.board, c, last, &mut self.rng, &self.recent);
            self.board.play_unchecked(c, m);
            self.recent.push(self.board.hash());
            if let Move::Play(p) = m {
                let first = &mut self.first_ply[c.index()][p.index()];
                if *first == NO_PLY {
                    *first = ply;
                }
            }
            ply = ply.saturating_add(1);
            last = m.point();
            passes = if m == Move::Pass { passes + 1 } else { 0 };
            if passes == 2 {
                break;
            }
            c = c.other();
        }
    }

    /// Area count of the simulation's final board (every stone alive, as Tromp-Taylor).
    fn black_wins(&self) -> bool {
        score::area_margin(&self.board, self.komi) > 0.0
    }

    fn back_up(&mut self, black_wins: bool) {
        // The colour that moved into path[i] (i >= 1) alternates from the searching colour.
        let mut mover = self.color;
        for i in 1..self.path.len() {
            let won = (mover == Color::Black) == black_wins;
            let n = &mut self.tree[self.path[i] as usize];
            n.real += 1;
            n.visits += 1.0;
            n.wins += won as u32 as f32;
            mover = mover.other();
        }
        self.tree[0].real += 1;
        self.tree[0].visits += 1.0;
        // RAVE: at the node reached after ply d, the children are moves of the colour to move
        // there; a child whose point that colour played first at ply d or later shares in the
        // result.
        let mut to_move = self.color;
        for (depth, &node) in self.path.iter().enumerate() {
            let n = self.tree[node as usize];
            if !n.expanded {
                break;
            }
            let won = ((to_move == Color::Black) == black_wins) as u32 as f32;
            let plies = &self.first_ply[to_move.index()];
            for i in n.first_child..n.first_child + n.children as u32 {
                let child = &mut self.tree[i as usize];
                if child.point == PASS {
                    continue;
                }
                let first = plies[child.point as usize];
                if first != NO_PLY && first as usize >= depth {
                    child.rave_visits += 1.0;
                    child.rave_wins += won;
                }
            }
            to_move = to_move.other();
        }
    }
}

/// The merged answer of one or more searches of the same root (same children, same order).
fn result(
    searches: &[Search<'_>],
    params: &Params,
    playouts: usize,
    elapsed: Duration,
) -> SearchResult {
    let main = &searches[0];
    let root = main.tree[0];
    let range = root.first_child as usize..(root.first_child + root.children as u32) as usize;
    let mut candidates: Vec<Candidate> = range
        .clone()
        .map(|i| {
            let (real, visits, wins) = searches.iter().fold((0, 0.0, 0.0), |(r, v, w), s| {
                let n = s.tree[i];
                (r + n.real, v + n.visits, w + n.wins)
            });
            Candidate {
                mv: main.tree[i].mv(),
                visits: real,
                winrate: (wins / visits) as f64,
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let best = candidates.first().copied().unwrap_or(Candidate {
        mv: Move::Pass,
        visits: 0,
        winrate: 0.5,
    });
    let decision = if best.winrate < params.resign_below && playouts >= 1000 {
        Decision::Resign
    } else {
        Decision::Play(best.mv)
    };
    // The principal variation: the move decided on, then the most visited path of the first
    // tree below it.
    let pv = match range.clone().find(|&i| main.tree[i].mv() == best.mv) {
        Some(i) => main.principal_variation(i as u32, 20),
        None => vec![best.mv],
    };
    log::info!(
        "search: {playouts} playouts in {:.2}s on {} thread(s), {} nodes, best {:?} {:.1}% after {} visits",
        elapsed.as_secs_f64(),
        searches.len(),
        searches.iter().map(|s| s.tree.len()).sum::<usize>(),
        best.mv,
        best.winrate * 100.0,
        best.visits
    );
    SearchResult {
        decision,
        winrate: best.winrate,
        playouts,
        elapsed,
        candidates,
        pv,
    }
}

/// Prior (virtual visits, virtual wins) of `c` playing at `p` on `board`.
fn priors(board: &Board, c: Color, p: Point, last: Option<Point>) -> (f32, f32) {
    let geo = board.geometry();
    let t = tunables();
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
    if patterns::matches(board, p) {
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
    if geo.topology() == crate::geometry::Topology::Plane {
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
    use crate::rules::Rules;

    fn game_from(diagram: &str, rules: &str, komi: f64) -> Game {
        let n = diagram.lines().filter(|l| !l.trim().is_empty()).count();
        let rules = Rules::preset(rules).unwrap();
        let geo = crate::geometry::Geometry::get(n, rules.topology).unwrap();
        let board = Board::from_diagram(geo, diagram).unwrap();
        Game::with_position(board, Color::Black, rules, komi)
    }

    fn params(playouts: usize) -> Params {
        Params {
            playouts,
            time: None,
            resign_below: 0.0,
            threads: 1,
        }
    }

    #[test]
    fn captures_a_big_chain_in_atari() {
        let g = game_from(
            "
            . . . . . . .
            . . O O O . .
            . O X X X O .
            . O X X X O .
            . . O . O . .
            . . . O . . .
            . . . . . . .",
            "chinese",
            0.5,
        );
        // Black's six stones have one liberty, D3; White takes them.
        let r = search(&g, Color::White, &params(2000), 1, &AtomicBool::new(false));
        assert_eq!(
            r.decision,
            Decision::Play(g.geometry().parse_move("D3").unwrap())
        );
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
        for (name, _) in crate::rules::PRESETS {
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
        let vital = crate::geometry::Geometry::get(5, crate::geometry::Topology::Plane)
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
    }
}
