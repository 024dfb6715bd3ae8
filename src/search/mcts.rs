//! Monte-Carlo tree search with RAVE, in the manner of michi and Pachi: runs simulations
//! through one [`Tree`] per thread and reads the answer off the roots.
//!
//! - A *simulation* copies the root board, walks down the tree choosing the most urgent child
//!   at each node, expands a node once it has been visited `expand_visits` times, finishes the
//!   game with a policy playout (`playout::policy_move`: captures, saves, pattern replies, no
//!   self-atari), counts it by area, and backs the result up the path (`tree`).
//! - Every child starts with its priors as virtual visits and wins (`priors`: an even prior,
//!   plus bonuses for captures, saving moves, 3x3 shape patterns, nearness to the last move,
//!   and at the root the heuristic player's tactical choice; penalties for self-atari and the
//!   first line in an empty area).
//! - Root parallelism: each thread grows its own tree with its own seed; their root
//!   statistics are summed.
//! - The answer is the most visited root child; it resigns below `Params::resign_below`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::color::Color;
use crate::game::Game;
use crate::point::Move;
use crate::search::params::{Params, Tunables};
use crate::search::tree::Tree;

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
    let first = Tree::new(game, c, seed, &params.tunables);
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
        Tree::new(
            game,
            c,
            seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            &params.tunables,
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
    search: Tree<'g>,
    pub playouts: usize,
}

impl<'g> Analysis<'g> {
    pub fn new(game: &'g Game, c: Color, seed: u64, tunables: &Tunables) -> Analysis<'g> {
        Analysis {
            search: Tree::new(game, c, seed, tunables),
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
        let tree = &self.search.nodes;
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

/// The merged answer of one or more searches of the same root (same children, same order).
fn result(
    searches: &[Tree<'_>],
    params: &Params,
    playouts: usize,
    elapsed: Duration,
) -> SearchResult {
    let main = &searches[0];
    let root = main.nodes[0];
    let range = root.first_child as usize..(root.first_child + root.children as u32) as usize;
    let mut candidates: Vec<Candidate> = range
        .clone()
        .map(|i| {
            let (real, visits, wins) = searches.iter().fold((0, 0.0, 0.0), |(r, v, w), s| {
                let n = s.nodes[i];
                (r + n.real, v + n.visits, w + n.wins)
            });
            Candidate {
                mv: main.nodes[i].mv(),
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
    let pv = match range.clone().find(|&i| main.nodes[i].mv() == best.mv) {
        Some(i) => main.principal_variation(i as u32, 20),
        None => vec![best.mv],
    };
    log::info!(
        "search: {playouts} playouts in {:.2}s on {} thread(s), {} nodes, best {:?} {:.1}% after {} visits",
        elapsed.as_secs_f64(),
        searches.len(),
        searches.iter().map(|s| s.nodes.len()).sum::<usize>(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
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
            tunables: Tunables::default(),
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
