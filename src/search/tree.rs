//! The search tree: nodes with their statistics and priors, and one simulation through it
//! (descend by urgency, expand, play out, back up). `mcts` runs simulations and reads the
//! answer off the root.
//!
//! - *Urgency* mixes a child's own win rate with its RAVE (all-moves-as-first) win rate, the
//!   RAVE share fading as real visits grow (`rave_equiv`). There is no exploration term:
//!   exploration comes from the priors (`priors`), which every child starts with as virtual
//!   visits and wins.
//! - Win rates are kept from the point of view of the player who made the move into the node.
//! - Legality: children are legal on the board (ko point, no suicide); at the root they are
//!   checked against the game's full rules (superko included); below the root a capture may
//!   not repeat a position of the game or of the path (positional superko).

use std::collections::HashSet;
use std::time::Instant;

use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::point::{Move, Point};
use crate::rng::Rng;
use crate::score;
use crate::search::dead_stones;
use crate::search::heuristic::{self, Reason};
use crate::search::params::Tunables;
use crate::search::playout::{Recent, move_cap, policy_move};
use crate::search::priors::priors;

/// Nodes a tree may hold (32 bytes each): a long analysis stops growing the tree there and
/// goes on refining what it has.
pub const MAX_TREE_NODES: usize = 4 << 20;
/// Playouts between two checks of the clock and the interrupt flag.
const CHECK_EVERY: usize = 64;

const PASS: u16 = u16::MAX;
const NO_PLY: u16 = u16::MAX;

/// A node: the move into it, its children's range, and its statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    point: u16,
    pub(crate) children: u16,
    pub(crate) first_child: u32,
    expanded: bool,
    /// Simulations through this node (priors not included).
    pub(crate) real: u32,
    /// Visits and wins with the priors' virtual ones included: what urgency is made of.
    pub(crate) visits: f32,
    pub(crate) wins: f32,
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

    pub(crate) fn mv(&self) -> Move {
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

/// One search tree over a game's position, with its own RNG and per-simulation scratch.
pub(crate) struct Tree<'g> {
    game: &'g Game,
    tunables: Tunables,
    color: Color,
    root_board: Board,
    pub(crate) nodes: Vec<Node>,
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

impl<'g> Tree<'g> {
    pub(crate) fn new(game: &'g Game, color: Color, seed: u64, tunables: &Tunables) -> Tree<'g> {
        let root_board = game.board().clone();
        let n = root_board.geometry().num_points();
        let history: HashSet<u64> = game.position_hashes().collect();
        let recent = Recent::new(&root_board);
        let mut search = Tree {
            game,
            tunables: tunables.clone(),
            color,
            board: root_board.clone(),
            root_board,
            nodes: Vec::with_capacity(1 << 16),
            history,
            komi: game.komi(),
            root_passes: game.consecutive_passes(),
            rng: Rng::new(seed),
            path: Vec::new(),
            path_hashes: Vec::new(),
            first_ply: [vec![NO_PLY; n], vec![NO_PLY; n]],
            recent,
        };
        search.nodes.push(Node::new(PASS, 1.0, 0.5));
        search.expand_root();
        search
    }

    /// A move that needs no search: the only one left, or a pass that ends a won game.
    pub(crate) fn forced_answer(&self) -> Option<Move> {
        let root = self.nodes[0];
        if root.children == 1 {
            return Some(self.nodes[root.first_child as usize].mv());
        }
        if self.root_passes >= 1 {
            // The opponent passed: if the game as it stands (dead stones removed) is won,
            // passing ends it.
            let board = self.game.board();
            let status = dead_stones::estimate(
                board,
                self.color,
                self.game.rules().suicide_allowed(),
                &self.tunables,
            );
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
    /// chain in atari can all lie there. The heuristic player's tactical choice gets
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
        let choice = heuristic::choose(self.game, c, &mut Rng::new(heuristic::REG_GENMOVE_SEED));
        let tactical = matches!(
            choice.reason,
            Reason::Capture | Reason::Save | Reason::Attack | Reason::Defend
        );
        let first = self.nodes.len() as u32;
        for &p in &moves {
            let (mut visits, mut wins) = priors(
                &board,
                c,
                p,
                self.game.last_move().and_then(|(_, m)| m.point()),
                &self.tunables,
            );
            if tactical && choice.mv == Move::Play(p) {
                visits += self.tunables.prior_heuristic;
                wins += self.tunables.prior_heuristic;
            }
            self.nodes.push(Node::new(p.index() as u16, visits, wins));
        }
        // Passing is a real option only when the game is nearly over; it starts unattractive
        // and earns visits through the win rates of real playouts.
        self.nodes.push(Node::new(
            PASS,
            self.tunables.prior_even,
            if moves.is_empty() {
                self.tunables.prior_even
            } else {
                0.0
            },
        ));
        let root = &mut self.nodes[0];
        root.first_child = first;
        root.children = (moves.len() + 1) as u16;
        root.expanded = true;
    }

    /// Children of a node below the root: board-legal moves that fill no own true eye (false
    /// eyes included: see `Board::playout_candidate`) and whose captures repeat no position of the game or the path; plus pass.
    fn expand(&mut self, node: u32, c: Color, last: Option<Point>) {
        if self.nodes.len() >= MAX_TREE_NODES {
            // The tree is as large as allowed: this leaf stays a leaf, simulations go on.
            return;
        }
        let first = self.nodes.len() as u32;
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
            let (visits, wins) = priors(&self.board, c, p, last, &self.tunables);
            self.nodes.push(Node::new(p.index() as u16, visits, wins));
            count += 1;
        }
        self.nodes.push(Node::new(
            PASS,
            self.tunables.prior_even,
            if count == 0 {
                self.tunables.prior_even
            } else {
                0.0
            },
        ));
        count += 1;
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.children = count;
        n.expanded = true;
    }

    /// Runs up to `playouts` simulations, stopping early at the deadline or when `stop`
    /// says so (it is asked every `CHECK_EVERY` simulations).
    pub(crate) fn run(
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
    pub(crate) fn principal_variation(&self, node: u32, max: usize) -> Vec<Move> {
        let mut pv = vec![self.nodes[node as usize].mv()];
        let mut node = node;
        while pv.len() < max {
            let n = self.nodes[node as usize];
            if !n.expanded || n.children == 0 {
                break;
            }
            node = (n.first_child..n.first_child + n.children as u32)
                .max_by_key(|&i| self.nodes[i as usize].real)
                .unwrap_or(n.first_child);
            if self.nodes[node as usize].real == 0 {
                break;
            }
            pv.push(self.nodes[node as usize].mv());
        }
        pv
    }

    fn best_child(&self, node: u32) -> u32 {
        let rave_equiv = self.tunables.rave_equiv;
        let n = self.nodes[node as usize];
        let mut best = n.first_child;
        let mut best_urgency = f32::MIN;
        for i in n.first_child..n.first_child + n.children as u32 {
            let u = self.nodes[i as usize].urgency(rave_equiv);
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
            let n = self.nodes[node as usize];
            if !n.expanded {
                if n.real < self.tunables.expand_visits {
                    break;
                }
                self.expand(node, c, last);
                if !self.nodes[node as usize].expanded {
                    break;
                }
            }
            let child = self.best_child(node);
            let m = self.nodes[child as usize].mv();
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
            let m = policy_move(
                &self.board,
                c,
                last,
                &mut self.rng,
                &self.recent,
                &self.tunables,
            );
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
            let n = &mut self.nodes[self.path[i] as usize];
            n.real += 1;
            n.visits += 1.0;
            n.wins += won as u32 as f32;
            mover = mover.other();
        }
        self.nodes[0].real += 1;
        self.nodes[0].visits += 1.0;
        // RAVE: at the node reached after ply d, the children are moves of the colour to move
        // there; a child whose point that colour played first at ply d or later shares in the
        // result.
        let mut to_move = self.color;
        for (depth, &node) in self.path.iter().enumerate() {
            let n = self.nodes[node as usize];
            if !n.expanded {
                break;
            }
            let won = ((to_move == Color::Black) == black_wins) as u32 as f32;
            let plies = &self.first_ply[to_move.index()];
            for i in n.first_child..n.first_child + n.children as u32 {
                let child = &mut self.nodes[i as usize];
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
