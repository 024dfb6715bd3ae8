//! Monte-Carlo tree search with RAVE, in the manner of michi and Pachi.
//!
//! How to read this file:
//! - A *simulation* copies the root board, walks down the tree choosing the most urgent child
//!   at each node, expands a node once it has been visited `EXPAND_VISITS` times, finishes the
//!   game with a policy playout (`playout::policy_move`: captures, saves, local replies, no
//!   self-atari), counts it by area, and backs the result up the path.
//! - *Urgency* mixes a child's own win rate with its RAVE (all-moves-as-first) win rate, the
//!   RAVE share fading as real visits grow (`RAVE_EQUIV`). There is no exploration term:
//!   exploration comes from the priors, which every child starts with as virtual visits and
//!   wins (an even prior, plus bonuses for captures, saving moves, nearness to the last move,
//!   and the heuristic move generator's choice; penalties for self-atari and the first line in
//!   an empty area).
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
use crate::playout::{Recent, move_cap, policy_move};
use crate::point::{Move, Point};
use crate::rng::Rng;
use crate::rules::Scoring;
use crate::score::{self, settled_points};

// Tunables.

/// Visits before a leaf gets children of its own.
pub const EXPAND_VISITS: f32 = 8.0;
/// Visits at which a child's own statistics weigh as much as its RAVE statistics.
pub const RAVE_EQUIV: f32 = 3500.0;
/// Every child starts with this many virtual visits at a 50% win rate.
pub const PRIOR_EVEN: f32 = 10.0;
/// Extra virtual wins for a capture (one stone; more stones count double).
pub const PRIOR_CAPTURE_ONE: f32 = 15.0;
pub const PRIOR_CAPTURE_MANY: f32 = 30.0;
/// Extra virtual wins for saving an own chain in atari (the extension gets 2+ liberties).
pub const PRIOR_SAVE: f32 = 20.0;
/// Extra virtual losses for a self-atari that captures nothing.
pub const PRIOR_SELF_ATARI: f32 = 10.0;
/// Extra virtual wins by distance (Manhattan, 1 and 2) to the last move.
pub const PRIOR_NEAR_LAST: [f32; 2] = [12.0, 8.0];
/// Extra virtual losses for the first two lines far from any stone (plane boards only).
pub const PRIOR_EMPTY_EDGE: f32 = 10.0;
/// Extra virtual wins at the root for the heuristic move generator's tactical choice
/// (capture, save, ladder or net attack, defence read out).
pub const PRIOR_HEURISTIC: f32 = 40.0;
/// Playouts between two checks of the clock and the interrupt flag.
const CHECK_EVERY: usize = 64;

const PASS: u16 = u16::MAX;
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
}

impl Default for Params {
    fn default() -> Params {
        Params {
            playouts: 20_000,
            time: None,
            resign_below: 0.1,
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

    fn urgency(&self) -> f32 {
        let winrate = self.wins / self.visits;
        if self.rave_visits == 0.0 {
            return winrate;
        }
        let beta = self.rave_visits
            / (self.rave_visits + self.visits + self.visits * self.rave_visits / RAVE_EQUIV);
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
    let mut search = Search::new(game, c, seed);
    if let Some(m) = search.forced_answer() {
        return SearchResult {
            decision: Decision::Play(m),
            winrate: 0.5,
            playouts: 0,
            elapsed: start.elapsed(),
            candidates: Vec::new(),
            pv: vec![m],
        };
    }
    let mut playouts = 0;
    while playouts < params.playouts.max(1) {
        search.simulate();
        playouts += 1;
        if playouts % CHECK_EVERY == 0 {
            if stop.load(Ordering::Relaxed) {
                log::info!("search interrupted after {playouts} playouts");
                break;
            }
            if params.time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
    }
    search.result(params, playouts, start.elapsed())
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
        let mut history: HashSet<u64> = game.history().map(|(b, _)| b.hash()).collect();
        history.insert(root_board.hash());
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

    /// Root children: legal by the game's full rules, no own true eyes, nothing inside a
    /// region already settled as someone's territory; plus pass. The heuristic move
    /// generator's tactical choice gets a bonus.
    fn expand_root(&mut self) {
        let board = self.root_board.clone();
        let c = self.color;
        // Small regions only one colour reaches are territory: filling own territory is
        // useless and an invasion that small cannot live.
        let settled = settled_points(&board, 2 * board.size());
        let mut moves: Vec<Point> = board
            .empties()
            .iter()
            .copied()
            .filter(|&p| {
                !settled[p.index()]
                    && !board.is_true_eye(c, p)
                    && self.game.is_legal(c, Move::Play(p))
            })
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
                visits += PRIOR_HEURISTIC;
                wins += PRIOR_HEURISTIC;
            }
            self.tree.push(Node::new(p.index() as u16, visits, wins));
        }
        // Passing is a real option only when the game is nearly over; it starts unattractive
        // and earns visits through the win rates of real playouts.
        self.tree.push(Node::new(
            PASS,
            PRIOR_EVEN,
            if moves.is_empty() { PRIOR_EVEN } else { 0.0 },
        ));
        let root = &mut self.tree[0];
        root.first_child = first;
        root.children = (moves.len() + 1) as u16;
        root.expanded = true;
    }

    /// Children of a node below the root: board-legal moves that fill no own true eye and
    /// whose captures repeat no position of the game or the path; plus pass.
    fn expand(&mut self, node: u32, c: Color, last: Option<Point>) {
        let first = self.tree.len() as u32;
        let mut count = 0u16;
        let empties: Vec<Point> = self.board.empties().to_vec();
        for p in empties {
            let Some(captures) = self.board.playout_candidate(c, p) else {
                continue;
            };
            if self.board.is_true_eye(c, p) {
                continue;
            }
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
            PRIOR_EVEN,
            if count == 0 { PRIOR_EVEN } else { 0.0 },
        ));
        count += 1;
        let n = &mut self.tree[node as usize];
        n.first_child = first;
        n.children = count;
        n.expanded = true;
    }

    fn best_child(&self, node: u32) -> u32 {
        let n = self.tree[node as usize];
        let mut best = n.first_child;
        let mut best_urgency = f32::MIN;
        for i in n.first_child..n.first_child + n.children as u32 {
            let u = self.tree[i as usize].urgency();
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
                if n.visits < EXPAND_VISITS + PRIOR_EVEN {
                    break;
                }
                self.expand(node, c, last);
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
        score::score(&self.board, Scoring::Area, self.komi, &[]).margin() > 0.0
    }

    fn back_up(&mut self, black_wins: bool) {
        // The colour that moved into path[i] (i >= 1) alternates from the searching colour.
        let mut mover = self.color;
        for i in 1..self.path.len() {
            let won = (mover == Color::Black) == black_wins;
            let n = &mut self.tree[self.path[i] as usize];
            n.visits += 1.0;
            n.wins += won as u32 as f32;
            mover = mover.other();
        }
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

    fn result(&self, params: &Params, playouts: usize, elapsed: Duration) -> SearchResult {
        let root = self.tree[0];
        let children = &self.tree
            [root.first_child as usize..(root.first_child + root.children as u32) as usize];
        let mut candidates: Vec<Candidate> = children
            .iter()
            .map(|n| Candidate {
                mv: n.mv(),
                visits: n.visits as u32,
                winrate: (n.wins / n.visits) as f64,
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
        let mut pv = Vec::new();
        let mut node = 0u32;
        while self.tree[node as usize].expanded
            && self.tree[node as usize].children > 0
            && pv.len() < 20
        {
            let n = self.tree[node as usize];
            node = (n.first_child..n.first_child + n.children as u32)
                .max_by(|&a, &b| {
                    self.tree[a as usize]
                        .visits
                        .total_cmp(&self.tree[b as usize].visits)
                })
                .unwrap_or(n.first_child);
            pv.push(self.tree[node as usize].mv());
        }
        log::info!(
            "search: {playouts} playouts in {:.2}s, {} nodes, best {:?} {:.1}% after {} visits",
            elapsed.as_secs_f64(),
            self.tree.len(),
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
}

/// Prior (virtual visits, virtual wins) of `c` playing at `p` on `board`.
fn priors(board: &Board, c: Color, p: Point, last: Option<Point>) -> (f32, f32) {
    let geo = board.geometry();
    let mut visits = PRIOR_EVEN;
    let mut wins = PRIOR_EVEN / 2.0;
    // Captures and saves.
    let mut captured = 0;
    let mut saves = false;
    for &q in geo.neighbours(p) {
        match board.get(q) {
            Some(x) if x != c && board.liberty_count(q) == 1 => captured += board.chain_len(q),
            Some(x) if x == c && board.liberty_count(q) == 1 => saves = true,
            _ => {}
        }
    }
    match board.liberties_after(c, p) {
        None => {
            let bonus = if captured > 1 {
                PRIOR_CAPTURE_MANY
            } else {
                PRIOR_CAPTURE_ONE
            };
            visits += bonus;
            wins += bonus;
        }
        Some(libs) => {
            if saves && libs >= 2 {
                visits += PRIOR_SAVE;
                wins += PRIOR_SAVE;
            }
            if libs == 1 {
                visits += PRIOR_SELF_ATARI;
            }
        }
    }
    // Locality.
    if let Some(l) = last {
        let (px, py) = geo.xy(p);
        let (lx, ly) = geo.xy(l);
        let d = px.abs_diff(lx) + py.abs_diff(ly);
        if (1..=2).contains(&d) {
            let bonus = PRIOR_NEAR_LAST[d - 1];
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
            visits += PRIOR_EMPTY_EDGE;
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
