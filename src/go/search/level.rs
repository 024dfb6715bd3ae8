//! Playing at a chosen strength (`--level`, `kata-set-param level`), from a beginner's
//! opponent (1) to full strength (10, the search as configured).
//!
//! A weaker level plays as a weaker person does, never by mixing in random moves: it
//! looks at fewer moves and reads less. Its move is drawn from a distribution over the
//! plausible ones, each level one row of [`LEVELS`]:
//! - Levels without a search draw from the network's policy (without a network, the learnt
//!   move model's chances, the same numbers the tree's priors start from): the moves a
//!   player's eye falls on, shapes included, tactics often missed.
//! - Levels with a search run that many simulations of the usual tree search, then draw
//!   from its root moves by their visits: the moves read and found good, the best not
//!   always chosen.
//!
//! The draw has two shapes. The *nucleus* keeps only the likeliest moves that together hold
//! `top` of the chance (at least one): the long tail, where the absurd moves lie, is never
//! drawn, so a blunder is a plausible move that loses, not a move on the first line in the
//! opening. The *temperature* then raises each share to `1 / temperature`: above 1 it
//! flattens the choice among those moves, below 1 it sharpens it, and at 0 the likeliest
//! (most visited) is played.
//!
//! Every level is deterministic for a seed (the engine's `--seed`), as the search is. The
//! Elo steps between neighbouring levels are measured by matches (`doc/strength.md`), and
//! the rows moved where a step was missing.
//!
//! Candidates are the tree root's: every legal move but own true eyes and suicides, plus
//! pass (whose chance the network gives; the move model has none for it, so without a
//! network a level passes only when nothing else is left). Every level passes, as the
//! full search does, when the opponent has passed and a settled board is won.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::go::game::Game;
use crate::go::point::Move;
use crate::go::search::mcts::{
    Decision, SearchResult, is_root_candidate, last_moves, passing_wins, root_ownership,
};
use crate::go::search::params::Params;
use crate::go::search::priors::{Leaf, NetScratch, evaluate, for_each_strength};
use crate::rng::Rng;

/// How one level chooses its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Simulations of its tree search; 0: none, the move is drawn from the policy.
    pub simulations: usize,
    /// The draw's temperature (0: the likeliest move).
    pub temperature: f32,
    /// The nucleus: the share of the chance held by the moves drawn from.
    pub top: f32,
}

/// Levels 1 to 9; level 10 is the search as configured. Reading down: a flat choice among
/// the plausible moves, then a sharper one, then a small search whose choice sharpens as
/// it grows, then the most visited move of ever longer searches.
///
/// The ladder's matches moved the rows (`doc/strength.md`): 16 simulations drawn at
/// temperature 1 played no better than the policy at 0.6 (no step), so that row went and
/// the 300-simulation row split the largest step, 150 to 500.
pub const LEVELS: [Row; 9] = [
    row(0, 1.5, 0.95),
    row(0, 1.0, 0.9),
    row(0, 0.6, 0.8),
    row(50, 0.7, 0.9),
    row(150, 0.5, 0.8),
    row(300, 0.4, 0.8),
    row(500, 0.3, 0.8),
    row(1500, 0.0, 1.0),
    row(5000, 0.0, 1.0),
];

const fn row(simulations: usize, temperature: f32, top: f32) -> Row {
    Row {
        simulations,
        temperature,
        top,
    }
}

/// A strength from 1 to 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// Full strength: the search as its settings say.
    pub const FULL: Level = Level(10);
    pub const WEAKEST: Level = Level(1);

    /// Level `n`, if it is one (1 to 10).
    pub fn new(n: i64) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n as u8))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    /// How this level chooses; `None` at full strength.
    pub fn row(self) -> Option<Row> {
        LEVELS.get(self.0 as usize - 1).copied()
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::FULL
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level that is not a whole number from 1 to 10.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotALevel(pub String);

impl fmt::Display for NotALevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level must be 1 to 10, not '{}'", self.0)
    }
}

impl std::error::Error for NotALevel {}

impl FromStr for Level {
    type Err = NotALevel;

    fn from_str(s: &str) -> Result<Level, NotALevel> {
        s.trim()
            .parse()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| NotALevel(s.to_string()))
    }
}

/// Added to the seed of a level's draw, so that it is not the search's first random number
/// over again.
const DRAW_SEED: u64 = 0x1e7e1;

/// `c`'s decision in `game` at the level of `row`: its search (if any) by `search`, given
/// the settings to search with (the level's simulations within what `params` allow), then
/// its draw from `seed`.
pub fn decide_at_level(
    game: &Game,
    c: Color,
    row: Row,
    params: &Params,
    seed: u64,
    search: impl FnOnce(&Params) -> SearchResult,
) -> Decision {
    let mut rng = Rng::new(seed.wrapping_add(DRAW_SEED));
    if row.simulations == 0 {
        if passing_wins(game, c, &params.tunables) {
            return Decision::Play(Move::Pass);
        }
        let (moves, chances) = policy(game, c, params);
        let drawn = draw(&chances, row.temperature, row.top, &mut rng);
        return Decision::Play(drawn.map_or(Move::Pass, |i| moves[i]));
    }
    let capped = Params {
        playouts: Some(row.simulations.min(params.playout_limit())),
        ..params.clone()
    };
    let result = search(&capped);
    if result.decision == Decision::Resign || result.candidates.is_empty() {
        return result.decision;
    }
    let visits: Vec<f32> = result.candidates.iter().map(|m| m.visits as f32).collect();
    match draw(&visits, row.temperature, row.top, &mut rng) {
        Some(i) => Decision::Play(result.candidates[i].mv),
        None => result.decision,
    }
}

/// The candidates for `c` in `game` (point order, then pass when the network rates it) and
/// each one's chance: the network's policy, else the learnt move model's.
fn policy(game: &Game, c: Color, params: &Params) -> (Vec<Move>, Vec<f32>) {
    let board = game.board();
    let mut points: Vec<_> = board
        .empties()
        .iter()
        .copied()
        .filter(|&p| is_root_candidate(game, c, p))
        .collect();
    points.sort();
    let mut moves: Vec<Move> = points.iter().map(|&p| Move::Play(p)).collect();
    let last = last_moves(game);
    if let Some(net) = &params.network {
        let last_was_pass = game.consecutive_passes() > 0;
        let komi = game.komi() as f32;
        let mut scratch = NetScratch::default();
        if let Some(e) = evaluate(&net.0, board, c, last, last_was_pass, komi, &mut scratch) {
            moves.push(Move::Pass);
            let pass = e.policy.len() - 1;
            let chances = moves
                .iter()
                .map(|m| match m {
                    Move::Play(p) => e.policy[p.index()],
                    Move::Pass => e.policy[pass],
                })
                .collect();
            return (moves, chances);
        }
    }
    let owner = root_ownership(board, c, &params.tunables);
    let leaf = Leaf {
        board,
        color: c,
        moves: &points,
        last,
        owner: owner.as_deref(),
        depth: 0,
    };
    let mut chances = Vec::with_capacity(points.len());
    for_each_strength(&leaf, &params.tunables, |s| chances.push(s));
    (moves, chances)
}

/// Draws an index of `weights` (chances or visits, not necessarily summing to 1): among the
/// likeliest that together hold `top` of the total (at least one), each weighed by its
/// share raised to `1 / temperature`; at temperature 0 the likeliest (the first of equals).
/// `None` when no weight is above 0.
pub(crate) fn draw(weights: &[f32], temperature: f32, top: f32, rng: &mut Rng) -> Option<usize> {
    let mut order: Vec<usize> = (0..weights.len())
        .filter(|&i| weights[i] > 0.0 && weights[i].is_finite())
        .collect();
    // Likeliest first; equals in index order, so the draw depends on the seed alone.
    order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
    let &first = order.first()?;
    if temperature <= 0.0 {
        return Some(first);
    }
    let total: f64 = order.iter().map(|&i| weights[i] as f64).sum();
    let mut held = 0.0;
    let kept = order
        .iter()
        .take_while(|&&i| {
            // A hair under the nucleus's edge: the sum of shares that make up `top` exactly
            // may round past it.
            let inside = held < top as f64 * total * (1.0 - 1e-6);
            held += weights[i] as f64;
            inside
        })
        .count()
        .max(1);
    let order = &order[..kept];
    // Shares relative to the likeliest, so that a high power cannot underflow them all.
    let best = weights[first] as f64;
    let shaped: Vec<f64> = order
        .iter()
        .map(|&i| (weights[i] as f64 / best).powf(1.0 / temperature as f64))
        .collect();
    let mut at = rng.unit() * shaped.iter().sum::<f64>();
    for (&i, &w) in order.iter().zip(&shaped) {
        if at < w {
            return Some(i);
        }
        at -= w;
    }
    order.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Rules;
    use crate::go::search::mcts::Searcher;
    use crate::go::search::params::Network;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn levels_parse_from_1_to_10_and_nothing_else() {
        assert_eq!("1".parse(), Ok(Level::WEAKEST));
        assert_eq!(" 10 ".parse(), Ok(Level::FULL));
        for bad in ["0", "11", "-3", "5.5", "", "ten"] {
            assert_eq!(
                bad.parse::<Level>(),
                Err(NotALevel(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!(Level::FULL.row(), None);
        assert_eq!(Level::WEAKEST.row(), Some(LEVELS[0]));
    }

    #[test]
    fn the_table_reads_more_and_draws_sharper_as_the_level_rises() {
        for pair in LEVELS.windows(2) {
            let (lower, higher) = (pair[0], pair[1]);
            assert!(higher.simulations >= lower.simulations, "{pair:?}");
            // Within one way of choosing (the policy, or a search), the draw sharpens.
            if higher.simulations == lower.simulations {
                assert!(higher.temperature < lower.temperature, "{pair:?}");
            }
        }
        for r in LEVELS {
            assert!(r.temperature >= 0.0 && r.top > 0.0 && r.top <= 1.0, "{r:?}");
        }
        assert!(
            LEVELS[0].simulations == 0,
            "the weakest level reads nothing"
        );
        assert!(
            LEVELS[8].temperature == 0.0,
            "level 9 plays its search's choice"
        );
    }

    #[test]
    fn temperature_0_plays_the_likeliest_and_the_tail_is_never_drawn() {
        let mut rng = Rng::new(1);
        let weights = [0.1, 0.5, 0.0, 0.3, 0.05, 0.05];
        assert_eq!(draw(&weights, 0.0, 0.5, &mut rng), Some(1));
        assert_eq!(
            draw(&[0.2, 0.2], 0.0, 1.0, &mut rng),
            Some(0),
            "first of equals"
        );
        assert_eq!(draw(&[0.0, 0.0], 1.0, 1.0, &mut rng), None);
        assert_eq!(draw(&[], 1.0, 1.0, &mut rng), None);
        // The nucleus of 0.8: 0.5 and 0.3 (0.8 held); 0.1 and the rest never.
        let mut seen = [0usize; 6];
        for _ in 0..2000 {
            seen[draw(&weights, 1.0, 0.8, &mut rng).unwrap()] += 1;
        }
        assert_eq!(seen[0] + seen[2] + seen[4] + seen[5], 0, "{seen:?}");
        // At temperature 1 the shares are the weights' (5 to 3).
        let ratio = seen[1] as f64 / seen[3] as f64;
        assert!((1.4..1.95).contains(&ratio), "{seen:?}");
        // A high temperature flattens, a low one sharpens.
        let share_of_best = |temperature| {
            let mut rng = Rng::new(2);
            let best = (0..2000)
                .filter(|_| draw(&weights, temperature, 1.0, &mut rng) == Some(1))
                .count();
            best as f64 / 2000.0
        };
        assert!(share_of_best(3.0) < share_of_best(1.0));
        assert!(share_of_best(1.0) < share_of_best(0.3));
        assert!(share_of_best(0.3) > 0.8);
        // Tiny weights at a low temperature do not underflow to nothing.
        assert!(draw(&[1e-30, 2e-30], 0.01, 1.0, &mut rng).is_some());
    }

    fn params(network: Option<Network>) -> Params {
        Params {
            playouts: Some(200),
            resign_below: 0.0,
            network,
            ..Params::default()
        }
    }

    /// A game of both sides at `level` on 9x9: every move legal, the same game for the
    /// same seed.
    fn self_play(level: Level, network: Option<Network>, seed: u64) -> Vec<Move> {
        let mut game = Game::new(9, Rules::default(), 7.0).unwrap();
        let row = level.row().unwrap();
        let (p, stop) = (params(network), AtomicBool::new(false));
        let mut searcher = Searcher::with_capacity(1 << 16);
        let mut moves = Vec::new();
        let mut c = Color::Black;
        while moves.len() < 40 && game.consecutive_passes() < 2 {
            let seed = seed.wrapping_add(moves.len() as u64);
            let search = |p: &Params| searcher.search(&game, c, p, seed, &stop);
            let Decision::Play(m) = decide_at_level(&game, c, row, &p, seed, search) else {
                panic!("level {level} resigned")
            };
            assert!(game.is_legal(c, m), "level {level}: {m:?}");
            game.play(c, m).unwrap();
            moves.push(m);
            c = c.other();
        }
        moves
    }

    #[test]
    fn every_level_plays_legal_moves_the_same_for_a_seed() {
        for (level, network) in [
            (1, Some(Network::builtin())),
            (1, None),
            (3, None),
            (4, Some(Network::builtin())),
            (6, None),
        ] {
            let level = Level::new(level).unwrap();
            let a = self_play(level, network.clone(), 7);
            assert_eq!(a, self_play(level, network.clone(), 7), "level {level}");
            assert_ne!(
                a,
                self_play(level, network, 8),
                "level {level}: another seed"
            );
        }
    }

    #[test]
    fn a_drawing_level_still_passes_to_end_a_won_game() {
        // Black owns everything but White's dead stone; White passed.
        let board = crate::go::board::Board::square_from_diagram(
            ". X . X .
             X X X X X
             . X . . O
             X X X X X
             . X . X .",
        );
        let mut game = Game::with_position(board, Color::Black, Rules::default(), 0.5);
        game.play(Color::White, Move::Pass).unwrap();
        let stop = AtomicBool::new(false);
        let row = Level::WEAKEST.row().unwrap();
        for network in [None, Some(Network::builtin())] {
            let search = |p: &Params| Searcher::new().search(&game, Color::Black, p, 1, &stop);
            let d = decide_at_level(&game, Color::Black, row, &params(network), 1, search);
            assert_eq!(d, Decision::Play(Move::Pass));
        }
    }
}
