//! What the network sees of a position: binary planes over the points and a few numbers for
//! the whole board, from the side to move's point of view. The one encoding for training
//! (`train/src/net_data.rs` writes it for the trainer) and for play.
//!
//! Planes are point-major in the board's point order (row by row from the bottom): value
//! `[point * BINARY_PLANES + plane]`, which is the layout the network's convolutions read.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::tactics::chains::chain_heads;
use crate::go::tactics::{ladder_attack, ladder_escape};

/// Moves of the history the network sees, newest first.
pub const HISTORY: usize = 5;

/// The binary planes, in order.
pub mod plane {
    /// 1 on every point: with zero padding the network sees the edge.
    pub const ON_BOARD: usize = 0;
    pub const OWN: usize = 1;
    pub const OPPONENT: usize = 2;
    /// Own chains with 1, 2 and 3 liberties (three planes from here).
    pub const OWN_LIBERTIES: usize = 3;
    /// Opponent chains with 1, 2 and 3 liberties.
    pub const OPPONENT_LIBERTIES: usize = 6;
    /// The point the side to move may not play now by the simple ko rule.
    pub const KO: usize = 9;
    /// The last `HISTORY` moves' points, newest first (a pass marks nothing).
    pub const HISTORY: usize = 10;
    /// Own chains a strict ladder captures: in atari with no escape, or with two liberties
    /// and the opponent's ladder working.
    pub const OWN_LADDERED: usize = 15;
    /// The same for the opponent's chains, the side to move attacking.
    pub const OPPONENT_LADDERED: usize = 16;
    /// The first ataris of the side to move's working ladders.
    pub const LADDER_ATTACKS: usize = 17;
    /// The first ataris of the opponent's working ladders against the side to move.
    pub const LADDER_THREATS: usize = 18;
}

/// Binary planes a point.
pub const BINARY_PLANES: usize = 19;

/// Numbers for the whole board: the komi from the side to move's view over 15 (what it
/// gains), and 1 when the last move was a pass.
pub const GLOBALS: usize = 2;

/// A position as the network is asked about it.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    /// The last moves' points, newest first; `None` for a pass or before the game's start.
    pub history: [Option<Point>; HISTORY],
    /// The last move was a pass.
    pub last_was_pass: bool,
    /// Komi (White's points).
    pub komi: f32,
}

/// The encoded inputs of one position.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// `num_points * BINARY_PLANES`, point-major.
    pub planes: Vec<u8>,
    pub globals: [f32; GLOBALS],
}

impl Inputs {
    /// Encodes `pos`, reusing this value's storage.
    pub fn encode(&mut self, pos: &Position) {
        let board = pos.board;
        let geo = board.geometry();
        let n = geo.num_points();
        self.planes.clear();
        self.planes.resize(n * BINARY_PLANES, 0);
        let me = pos.to_move;
        let planes = &mut self.planes;
        let mut set = |p: Point, plane: usize| planes[p.index() * BINARY_PLANES + plane] = 1;
        for p in geo.points() {
            set(p, plane::ON_BOARD);
            let Some(c) = board.get(p) else { continue };
            let own = c == me;
            set(p, if own { plane::OWN } else { plane::OPPONENT });
            let libs = board.liberty_count(p);
            if libs <= 3 {
                let base = if own {
                    plane::OWN_LIBERTIES
                } else {
                    plane::OPPONENT_LIBERTIES
                };
                set(p, base + libs - 1);
            }
        }
        if let Some(ko) = board.ko()
            && ko.banned == me
        {
            set(ko.point, plane::KO);
        }
        for (i, p) in pos.history.iter().enumerate() {
            if let Some(p) = p {
                set(*p, plane::HISTORY + i);
            }
        }
        for head in chain_heads(board) {
            let Some(c) = board.get(head) else { continue };
            let own = c == me;
            // The ladder's attacker and whether it works: for a chain in atari, its owner
            // moves first only when it is the side to move (else it is simply captured).
            let (caught, attack) = match board.liberty_count(head) {
                1 if own => (!ladder_escape(board, head).0.succeeds(), None),
                2 => match ladder_attack(board, head) {
                    (outcome, first) if outcome.succeeds() => (true, first),
                    _ => (false, None),
                },
                _ => (false, None),
            };
            if !caught {
                continue;
            }
            let chain_plane = if own {
                plane::OWN_LADDERED
            } else {
                plane::OPPONENT_LADDERED
            };
            for s in board.chain_stones(head) {
                set(s, chain_plane);
            }
            if let Some(a) = attack {
                set(
                    a,
                    if own {
                        plane::LADDER_THREATS
                    } else {
                        plane::LADDER_ATTACKS
                    },
                );
            }
        }
        let komi = if me == Color::White {
            pos.komi
        } else {
            -pos.komi
        };
        self.globals = [komi / 15.0, if pos.last_was_pass { 1.0 } else { 0.0 }];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};

    fn encode(diagram: &str, to_move: Color, komi: f32) -> (Inputs, &'static Geometry, Board) {
        let geo = Geometry::get(7, Topology::Plane).unwrap();
        let board = Board::from_diagram(geo, diagram).unwrap();
        let mut inputs = Inputs::default();
        inputs.encode(&Position {
            board: &board,
            to_move,
            history: [None; HISTORY],
            last_was_pass: false,
            komi,
        });
        (inputs, geo, board)
    }

    fn on(inputs: &Inputs, geo: &Geometry, vertex: &str, plane: usize) -> bool {
        let p = geo.parse_point(vertex).unwrap();
        inputs.planes[p.index() * BINARY_PLANES + plane] == 1
    }

    /// White's stone at C3 has two liberties, C4 and D3, and Black's D4 stands where it
    /// would run: Black to move ladders it. The reader's answer shows on both sides' planes.
    const LADDER: &str = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .";

    #[test]
    fn a_working_ladder_marks_the_chain_and_the_first_atari() {
        let (inputs, geo, _) = encode(LADDER, Color::Black, 7.5);
        assert!(on(&inputs, geo, "C3", plane::OPPONENT_LADDERED));
        assert!(on(&inputs, geo, "C3", plane::OPPONENT_LIBERTIES + 1));
        let attacks: Vec<&str> = ["D3", "C4"]
            .into_iter()
            .filter(|v| on(&inputs, geo, v, plane::LADDER_ATTACKS))
            .collect();
        assert_eq!(attacks.len(), 1, "one first atari marked");
        // Seen from White, the same chain is its own and the atari a threat.
        let (inputs, geo, _) = encode(LADDER, Color::White, 7.5);
        assert!(on(&inputs, geo, "C3", plane::OWN_LADDERED));
        assert!(on(&inputs, geo, attacks[0], plane::LADDER_THREATS));
        assert!(!on(&inputs, geo, "C3", plane::OPPONENT_LADDERED));
    }

    #[test]
    fn no_ladder_no_marks() {
        // Without D4, White extends to three liberties whichever side Black ataris from.
        let free = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .";
        let (inputs, geo, _) = encode(free, Color::Black, 7.5);
        assert!(!on(&inputs, geo, "C3", plane::OPPONENT_LADDERED));
        assert!(
            geo.points()
                .all(|p| inputs.planes[p.index() * BINARY_PLANES + plane::LADDER_ATTACKS] == 0)
        );
    }

    #[test]
    fn stones_liberties_and_komi_are_from_the_side_to_move() {
        let (black, geo, _) = encode(LADDER, Color::Black, 7.5);
        assert!(on(&black, geo, "B3", plane::OWN) && on(&black, geo, "C3", plane::OPPONENT));
        assert!(
            geo.points()
                .all(|p| black.planes[p.index() * BINARY_PLANES + plane::ON_BOARD] == 1)
        );
        assert_eq!(black.globals, [-0.5, 0.0]);
        let (white, geo, _) = encode(LADDER, Color::White, 7.5);
        assert!(on(&white, geo, "C3", plane::OWN) && on(&white, geo, "B3", plane::OPPONENT));
        assert_eq!(white.globals, [0.5, 0.0]);
        // B3 and C2 have three liberties each, C3 two.
        assert!(on(&white, geo, "B3", plane::OPPONENT_LIBERTIES + 2));
        assert!(on(&white, geo, "C2", plane::OPPONENT_LIBERTIES + 2));
        assert!(on(&white, geo, "C3", plane::OWN_LIBERTIES + 1));
        assert!(!on(&white, geo, "C3", plane::OWN_LIBERTIES + 2));
    }
}
