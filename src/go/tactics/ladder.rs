//! The strict ladder, read move by move rather than recognised by pattern.
//!
//! ```text
//!   . . . . . .      White O has two liberties. Black ataris (1), White extends (2),
//!   . . . . . .      Black ataris again (3) from the other side, and so on towards the
//!   . . . 3 . .      corner, where White runs out of liberties.
//!   . X O 2 . .
//!   . . X 1 . .
//!   . . . . . .
//! ```
//!
//! Rules of the strict ladder (GNU Go's `simple_ladder`):
//! - the attacker plays an atari on one of the two liberties, and tries both;
//! - the defender, in atari, either extends at its last liberty or captures an adjacent
//!   attacking chain that is in atari (a chasing stone left short of liberties);
//! - with three or more liberties the defender has escaped; with one after its move the
//!   attacker captures.
//!
//! Breakers (stones of either colour in the ladder's path) and edges need no special case:
//! they change the liberties, and the reading sees it. On a torus a ladder may circle the
//! board: a repeated position or a line longer than `LADDER_PLIES_PER_LINE` plies per board
//! line counts as an escape, so the reading always ends.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::tactics::budget::Budget;
use crate::go::tactics::chains::chain_heads;
use crate::go::tactics::outcome::Outcome;
use crate::go::tactics::reading::{Mode, Reader, Side};

/// Nodes one ladder query may play: far more than any real ladder needs (a ladder has little
/// branching), but a bound all the same.
const LADDER_NODES: u32 = 20_000;

fn ladder_budget() -> Budget {
    Budget {
        nodes: LADDER_NODES,
        // Depth does not limit a ladder: `LADDER_PLIES_PER_LINE` does.
        ..Budget::default()
    }
}

/// The attacker of the two-liberty chain on `target`, moving first, in a strict ladder:
/// `(outcome, first atari)`. A chain without exactly two liberties gives `(Fail, None)` (GTP
/// answers `string must have exactly 2 liberties` before asking).
pub fn ladder_attack(board: &Board, target: Point) -> (Outcome, Option<Point>) {
    if board.get(target).is_none() || board.liberty_count(target) != 2 {
        return (Outcome::Fail, None);
    }
    Reader::new(board, target, ladder_budget(), Mode::Ladder).root(board, Side::Attack)
}

/// The owner of the chain on `target`, in atari and to move: can it escape the strict
/// ladder (`Win` with the extension or capture that does it)? A chain not in atari gives
/// `(Win, None)` when it has more liberties, `(Fail, None)` for an empty point.
pub fn ladder_escape(board: &Board, target: Point) -> (Outcome, Option<Point>) {
    if board.get(target).is_none() {
        return (Outcome::Fail, None);
    }
    if board.liberty_count(target) != 1 {
        return (Outcome::Win, None);
    }
    Reader::new(board, target, ladder_budget(), Mode::Ladder).root(board, Side::Defend)
}

/// A chain that a strict ladder captures (see [`ladder_captures`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LadderCapture {
    /// One stone of the chain (its head).
    pub chain: Point,
    /// The chain's colour.
    pub color: Color,
    /// The attacker's first move: the atari, or the capture of a chain that cannot escape.
    pub attack: Point,
    /// The outcome for the attacker (a ko at the end of the ladder shows here).
    pub outcome: Outcome,
}

/// Every chain a strict ladder captures with its attacker moving first: chains with two
/// liberties that `ladder_attack` takes, and chains in atari that cannot escape even when
/// their owner moves first. For GoGui's analyze command; in point order of the chains' heads.
pub fn ladder_captures(board: &Board) -> Vec<LadderCapture> {
    let mut out = Vec::new();
    for head in chain_heads(board) {
        let Some(color) = board.get(head) else {
            continue;
        };
        let found = match board.liberty_count(head) {
            2 => ladder_attack(board, head),
            1 => match ladder_escape(board, head) {
                (Outcome::Fail, _) => (Outcome::Win, board.first_liberty(head)),
                // It escapes, unless only through a ko the attacker can win.
                (Outcome::KoNeedsThreat, _) => (Outcome::KoWin, board.first_liberty(head)),
                (Outcome::KoWin, _) => (Outcome::KoNeedsThreat, board.first_liberty(head)),
                (Outcome::Win, _) => (Outcome::Fail, None),
            },
            _ => (Outcome::Fail, None),
        };
        if let (outcome, Some(attack)) = found
            && outcome.succeeds()
        {
            {
                out.push(LadderCapture {
                    chain: head,
                    color,
                    attack,
                    outcome,
                });
            }
        }
    }
    out
}
