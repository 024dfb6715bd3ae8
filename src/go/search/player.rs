//! Choosing a move by player kind: the tree search, the heuristics alone, or a random legal
//! move; and the cleanup move that removes dead stones (KGS's cleanup phase).

use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::color::Color;
use crate::go::game::Game;
use crate::go::point::{Move, Point};
use crate::go::search::dead_stones;
use crate::go::search::heuristic;
use crate::go::search::mcts::{Decision, Searcher};
use crate::go::search::params::{Params, Tunables};
use crate::rng::Rng;

/// How genmove chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// Monte-Carlo tree search, with the heuristics as priors and playout policy.
    Mcts,
    /// The ladder-aware heuristics alone: instant, and much weaker.
    Heuristic,
    /// A uniformly random legal move that fills no own eye: a baseline for matches.
    Random,
}

impl Player {
    /// The name `--player` and `shicho-player` use.
    pub fn name(self) -> &'static str {
        match self {
            Player::Mcts => "mcts",
            Player::Heuristic => "heuristic",
            Player::Random => "random",
        }
    }
}

/// A player name that is none of `mcts`, `heuristic`, `random`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownPlayer;

impl FromStr for Player {
    type Err = UnknownPlayer;

    fn from_str(s: &str) -> Result<Player, UnknownPlayer> {
        [Player::Mcts, Player::Heuristic, Player::Random]
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or(UnknownPlayer)
    }
}

/// `player`'s decision for `c` in `game`, its random choices drawn from `seed`. `stop`
/// (GoGui's interrupt) makes the tree search answer with its best move so far; the tree
/// search goes on from what `searcher` kept of its last search.
pub fn decide(
    game: &Game,
    c: Color,
    player: Player,
    params: &Params,
    seed: u64,
    stop: &AtomicBool,
    searcher: &mut Searcher,
) -> Decision {
    match player {
        Player::Random => Decision::Play(random_legal_move(game, c, seed)),
        Player::Heuristic => Decision::Play(heuristic::genmove(game, c, &mut Rng::new(seed))),
        Player::Mcts => searcher.search(game, c, params, seed, stop).decision,
    }
}

/// A uniformly random legal move (superko included) that fills no own one-point eye, or a
/// pass when there is none.
pub fn random_legal_move(game: &Game, c: Color, seed: u64) -> Move {
    let mut rng = Rng::new(seed);
    let mut candidates: Vec<Point> = game.board().empties().to_vec();
    candidates.sort();
    while !candidates.is_empty() {
        let p = candidates.swap_remove(rng.below(candidates.len()));
        if !game.board().is_eye_shape(c, p) && game.is_legal(c, Move::Play(p)) {
            return Move::Play(p);
        }
    }
    Move::Pass
}

/// A move for `c` that works on removing dead opponent stones: filling a liberty of a dead
/// chain (the first legal one in point order), or `None` when no dead opponent chain is
/// left to work on.
pub fn cleanup_move(game: &Game, c: Color, t: &Tunables) -> Option<Move> {
    let board = game.board();
    let status = dead_stones::estimate(board, game.to_move(), game.rules().suicide_allowed(), t);
    let mut targets: Vec<Point> = status
        .dead
        .iter()
        .filter(|chain| board.get(chain[0]) == Some(c.other()))
        .flat_map(|chain| board.liberties(chain[0]).collect::<Vec<_>>())
        .collect();
    targets.sort();
    targets.dedup();
    targets
        .into_iter()
        .map(Move::Play)
        .find(|&m| game.is_legal(c, m))
}
