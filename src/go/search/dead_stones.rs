//! Dead stones and seki at the end of a game (for `final_status_list`, `final_score`, cleanup
//! play and the tree search's pass), estimated from who owns each point after playouts.
//!
//! The estimate is Monte-Carlo: play many playouts (with the simple tactics of
//! the tree search's playout policy, so walls defend themselves) from the position and count, for
//! each point, how often Black or White holds it at the end (a stone, or an empty point all
//! of whose neighbours are one colour). A chain whose points end up the opponent's most of
//! the time is dead. Seki is found by a local test instead, because random players break
//! sekis half of the time: two chains of opposite colours that share liberties where neither
//! side can play any liberty without putting itself in atari.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::{Move, Point};
use crate::go::search::params::Tunables;
use crate::go::search::playout::Recent;
use crate::go::search::playout::policy::{Policy, policy_playout};
use crate::rng::Rng;

/// Playouts per estimate: enough that a chain's ownership is known to about ±0.05.
pub const OWNERSHIP_PLAYOUTS: usize = 400;

/// A chain is dead when its colour owns its points less than this (on the -1..1 scale of
/// `ownership`, from the chain's own side): the opponent holds them in about 70% of playouts.
pub const DEAD_THRESHOLD: f64 = -0.4;

/// Seed for the estimate, so that `final_score` and `final_status_list` are deterministic.
pub const OWNERSHIP_SEED: u64 = 0x0afe_5eed;

/// For each point, the mean of +1 (Black owns it at the end of a playout) and -1 (White
/// does) over `playouts` policy playouts starting with `to_move`. Neutral points count 0.
pub fn ownership(
    board: &Board,
    to_move: Color,
    playouts: usize,
    seed: u64,
    t: &Tunables,
) -> Vec<f64> {
    let n = board.geometry().num_points();
    let mut totals = vec![0i64; n];
    let mut rng = Rng::new(seed);
    let mut scratch = board.clone();
    let mut recent = Recent::new(board);
    let mut policy = Policy::new(t.policy);
    let playouts = playouts.max(1);
    for _ in 0..playouts {
        scratch.clone_from(board);
        policy_playout(&mut scratch, to_move, &mut rng, &mut recent, &mut policy);
        for p in board.geometry().points() {
            totals[p.index()] += owner_at_end(&scratch, p);
        }
    }
    totals
        .into_iter()
        .map(|t| t as f64 / playouts as f64)
        .collect()
}

/// +1, -1 or 0: who holds `p` once a playout has ended.
pub(crate) fn owner_at_end(board: &Board, p: Point) -> i64 {
    match holder_at_end(board, p) {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => 0,
    }
}

/// Who holds `p` once a playout has ended: its stone's colour, or for an empty point the
/// one colour all its neighbours have (none when they are mixed or one is empty).
pub(crate) fn holder_at_end(board: &Board, p: Point) -> Option<Color> {
    if let Some(c) = board.get(p) {
        return Some(c);
    }
    let mut seen = None;
    for &q in board.geometry().neighbours(p) {
        match (board.get(q), seen) {
            (None, _) => return None,
            (Some(c), None) => seen = Some(c),
            (Some(c), Some(s)) if c != s => return None,
            _ => {}
        }
    }
    seen
}

/// The chains of `board`, each as its stones in index order, chains ordered by first stone.
pub fn chains(board: &Board) -> Vec<Vec<Point>> {
    let geo = board.geometry();
    let mut done = vec![false; geo.num_points()];
    let mut out = Vec::new();
    for p in geo.points() {
        if board.get(p).is_none() || done[p.index()] {
            continue;
        }
        let mut stones: Vec<Point> = board.chain_stones(p).collect();
        stones.sort();
        for s in &stones {
            done[s.index()] = true;
        }
        out.push(stones);
    }
    out
}

/// Life-and-death status of every chain at the end of a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LifeAndDeath {
    pub alive: Vec<Vec<Point>>,
    pub dead: Vec<Vec<Point>>,
    pub seki: Vec<Vec<Point>>,
    /// How sure the least certain alive-or-dead call is: the smallest share, over the
    /// chains not in seki, of playouts agreeing with the chain's status, from 0.5 (a coin
    /// toss) to 1 (every playout). 1 when there is no such chain.
    pub certainty: f64,
}

impl LifeAndDeath {
    /// Every dead stone, for scoring.
    pub fn dead_stones(&self) -> Vec<Point> {
        self.dead.iter().flatten().copied().collect()
    }
}

/// Estimates which chains are alive, dead or in seki, `to_move` moving first in the
/// playouts.
pub fn estimate(
    board: &Board,
    to_move: Color,
    suicide_allowed: bool,
    t: &Tunables,
) -> LifeAndDeath {
    let own = ownership(board, to_move, OWNERSHIP_PLAYOUTS, OWNERSHIP_SEED, t);
    let mut status = LifeAndDeath {
        certainty: 1.0,
        ..LifeAndDeath::default()
    };
    for chain in chains(board) {
        let Some(c) = board.get(chain[0]) else {
            continue;
        };
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let mean = chain.iter().map(|p| own[p.index()]).sum::<f64>() / chain.len() as f64 * sign;
        if in_seki(board, chain[0], suicide_allowed) {
            status.seki.push(chain);
            continue;
        }
        // `mean` is the own share minus the opponent's: (1 + mean) / 2 of the playouts keep
        // the chain's points.
        let kept = (1.0 + mean) / 2.0;
        if mean < DEAD_THRESHOLD {
            status.dead.push(chain);
            status.certainty = status.certainty.min(1.0 - kept);
        } else {
            status.alive.push(chain);
            status.certainty = status.certainty.min(kept);
        }
    }
    status
}

/// Whether `c` playing at the empty point `p` is illegal or leaves the played chain in atari
/// (without capturing anything).
fn is_bad_fill(board: &Board, c: Color, p: Point, suicide_allowed: bool) -> bool {
    if board.captures_something(c, p) {
        return false;
    }
    let mut after = board.clone();
    match after.play(c, Move::Play(p), suicide_allowed) {
        Err(_) => true,
        Ok(outcome) => outcome.suicided > 0 || after.liberty_count(p) <= 1,
    }
}

/// The local seki test: the chain on `p` has at least two liberties, shares one with an
/// opponent chain, and neither colour can play any liberty of either chain without putting
/// itself in atari (or playing an illegal move).
pub fn in_seki(board: &Board, p: Point, suicide_allowed: bool) -> bool {
    let Some(c) = board.get(p) else { return false };
    if board.liberty_count(p) < 2 {
        return false;
    }
    let geo = board.geometry();
    let libs: Vec<Point> = board.liberties(p).collect();
    // An opponent chain touching one of our liberties.
    let partner = libs.iter().find_map(|&l| {
        geo.neighbours(l)
            .iter()
            .copied()
            .find(|&q| board.get(q) == Some(c.other()) && board.liberty_count(q) >= 2)
    });
    let Some(partner) = partner else { return false };
    let mut points: Vec<Point> = libs.clone();
    points.extend(board.liberties(partner));
    points.sort();
    points.dedup();
    points.iter().all(|&l| {
        Color::ALL
            .iter()
            .all(|&x| is_bad_fill(board, x, l, suicide_allowed))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::square_from_diagram(text)
    }

    /// The end of a GNU Go self-play game (random opening, `--level 1`); GNU Go 3.8 marks
    /// A5 and D9 dead and scores W+2.5 with komi 7.5, as we do.
    #[test]
    fn agrees_with_gnu_go_on_a_finished_game() {
        let b = board(
            "
            . . . O . . . . .
            . . X . . . . . X
            . X O X X X X . X
            . X O O O O O X X
            O . X X O . O O X
            . X X O O . . . O
            . X O . . O . O .
            X X O . . . . . .
            X O O . . . . . .",
        );
        let s = estimate(&b, Color::Black, false, &Tunables::default());
        let mut dead: Vec<String> = s
            .dead_stones()
            .iter()
            .map(|&p| b.geometry().format_point(p))
            .collect();
        dead.sort();
        assert_eq!(dead, ["A5", "D9"]);
        let score =
            crate::go::score::score(&b, crate::go::rules::Scoring::Area, 7.5, &s.dead_stones());
        assert_eq!(score.to_string(), "W+2.5");
    }

    #[test]
    fn mutual_life_is_seki() {
        // Black's chain and White's B1 share A1 and C1: whoever fills one is captured.
        let b = board(
            "
            . . . . .
            . . . . .
            O O O O O
            X X X X O
            . O . X O",
        );
        let g = b.geometry();
        assert!(in_seki(&b, g.parse_point("A2").unwrap(), false));
        assert!(in_seki(&b, g.parse_point("B1").unwrap(), false));
        assert!(!in_seki(&b, g.parse_point("A3").unwrap(), false));
        let s = estimate(&b, Color::Black, false, &Tunables::default());
        assert_eq!(s.seki.len(), 2);
        assert!(s.dead.is_empty());
    }
}
