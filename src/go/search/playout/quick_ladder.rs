//! The playouts' own ladder reader, for rule 1's question "is this extension caught?": a
//! strict ladder only, within a node budget, and cheap enough to ask in every playout (the
//! tactical reader, `tactics::ladder`, reads ko ladders too and costs more).

use crate::color::Color;
use crate::go::board::Board;
use crate::go::board::undo::{PlaysAndReads, Spares};
use crate::go::point::{Move, Point};
use crate::go::search::playout::candidates::Candidates;

/// A strict ladder reader for playouts: no allocation after the first use, a node budget,
/// one copy of the board a query (plays that capture take a copy of their own; the others
/// are undone in place).
pub(super) struct Ladder {
    spares: Spares,
    nodes_per_query: u32,
    nodes: u32,
}

impl PlaysAndReads for Ladder {
    fn spares(&mut self) -> &mut Spares {
        &mut self.spares
    }
}

impl Ladder {
    pub(super) fn new(nodes_per_query: u32) -> Ladder {
        Ladder {
            spares: Spares::default(),
            nodes_per_query,
            nodes: 0,
        }
    }

    /// Whether, after `c` extends at `p` to a chain with two liberties, the opponent takes
    /// that chain in a strict ladder. Out of budget counts as an escape.
    pub(super) fn captures_after(&mut self, board: &Board, c: Color, p: Point) -> bool {
        if self.nodes_per_query == 0 {
            return false;
        }
        self.nodes = self.nodes_per_query;
        let mut after = self.spares.copy_of(board);
        after.play_unchecked(c, Move::Play(p));
        let captured = self.attacker_wins(&mut after, p);
        self.spares.give_back(after);
        captured
    }

    /// The chain on `target` has two liberties and the attacker moves: does an atari on
    /// one of them win?
    fn attacker_wins(&mut self, b: &mut Board, target: Point) -> bool {
        let Some(defender) = b.get(target) else {
            return true;
        };
        let attacker = defender.other();
        let mut libs = b.liberties(target);
        let (Some(x), Some(y)) = (libs.next(), libs.next()) else {
            return false;
        };
        for (atari, other) in [(x, y), (y, x)] {
            if self.nodes == 0 {
                return false;
            }
            self.nodes -= 1;
            if b.playout_candidate(attacker, atari).is_none() {
                continue;
            }
            // Read without playing where the answer is plain: if the extension at the other
            // liberty would have three liberties once `atari` is filled, this atari fails.
            // (A capture by the atari stone would only add liberties.)
            if b.liberties_after(defender, other).is_some_and(|n| n >= 4) {
                continue;
            }
            let wins = self.after_play(b, attacker, atari, |ladder, next| {
                next.get(target).is_none()
                    || (next.liberty_count(target) == 1 && ladder.defender_loses(next, target))
            });
            if wins {
                return true;
            }
        }
        false
    }

    /// The chain on `target` is in atari and its owner moves: do all its escapes fail?
    fn defender_loses(&mut self, b: &mut Board, target: Point) -> bool {
        let Some(defender) = b.get(target) else {
            return true;
        };
        let geo = b.geometry();
        // Escapes: capture an adjacent attacker chain in atari, or extend at the liberty.
        let mut escapes = Candidates::new();
        for s in b.chain_stones(target) {
            for &t in geo.neighbours(s) {
                if b.get(t) == Some(defender.other())
                    && b.liberty_count(t) == 1
                    && let Some(lib) = b.first_liberty(t)
                {
                    escapes.push(lib);
                }
            }
        }
        if let Some(lib) = b.first_liberty(target) {
            escapes.push(lib);
        }
        for &e in &escapes.points[..escapes.len] {
            if self.nodes == 0 {
                return false;
            }
            self.nodes -= 1;
            if b.playout_candidate(defender, e).is_none() {
                continue;
            }
            // A move that captures nothing is read without playing it unless it leaves
            // exactly two liberties, where the ladder goes on.
            match b.liberties_after(defender, e) {
                Some(n) if n >= 3 => return false,
                Some(0 | 1) => continue,
                _ => {}
            }
            let lost = self.after_play(b, defender, e, |ladder, next| {
                let libs = if next.get(target).is_some() {
                    next.liberty_count(target)
                } else {
                    0
                };
                match libs {
                    0 | 1 => true,
                    2 => ladder.attacker_wins(next, target),
                    _ => false,
                }
            });
            if !lost {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::search::playout::Recent;
    use crate::rng::Rng;

    /// The playout ladder reader against the tactical reader's strict ladder, on every
    /// extension to two liberties found in positions from random games (ko ladders left
    /// out).
    #[test]
    fn ladder_reader_agrees_with_the_tactical_ladder() {
        use crate::go::geometry::{Geometry, Topology};
        use crate::go::tactics::ladder_attack;
        let mut ladder = Ladder::new(100_000);
        let mut rng = Rng::new(7);
        let (mut checked, mut captured) = (0, 0);
        for size in [7, 9, 13] {
            let geo = Geometry::get(size, Topology::Plane).unwrap();
            for game in 0..40 {
                let mut b = Board::new(geo);
                let mut recent = Recent::new(&b);
                let mut c = Color::Black;
                let moves = rng.below(size * size * 3 / 4) + game % 5;
                for _ in 0..moves {
                    let m = crate::go::search::playout::random_move(&b, c, &mut rng, &recent);
                    b.play_unchecked(c, m);
                    recent.push(b.hash());
                    c = c.other();
                }
                for &p in b.empties() {
                    for c in Color::ALL {
                        if b.liberties_after(c, p) != Some(2)
                            || !geo
                                .neighbours(p)
                                .iter()
                                .any(|&q| b.get(q) == Some(c) && b.liberty_count(q) == 1)
                        {
                            continue;
                        }
                        let mut after = b.clone();
                        after.play_unchecked(c, Move::Play(p));
                        // Ko ladders are the tactical reader's business: the playout
                        // reader knows only the board's ko point.
                        let expected = match ladder_attack(&after, p).0 {
                            crate::go::tactics::Outcome::Win => true,
                            crate::go::tactics::Outcome::Fail => false,
                            _ => continue,
                        };
                        let got = ladder.captures_after(&b, c, p);
                        assert_eq!(
                            got,
                            expected,
                            "{c} extends at {}:\n{b:?}",
                            geo.format_point(p)
                        );
                        checked += 1;
                        captured += got as usize;
                    }
                }
            }
        }
        assert!(
            checked > 60 && captured > 20,
            "{checked} checked, {captured} captured"
        );
    }
}
