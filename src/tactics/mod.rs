//! Tactical reading: ladders, and capture/defence of chains with few liberties.
//!
//! Everything here reads a `&Board` and owns no state between calls (Pachi's `tactics/` cut):
//! - [`ladder`]: the strict ladder (`ladder_attack`, `ladder_escape`) and the list of every
//!   chain a ladder captures, for GoGui's analyze command;
//! - [`reading`]: attack/defence by full-width reading of chains with up to four liberties
//!   (nets, snapbacks, shortage of liberties, counter-captures), bounded by a [`Budget`];
//! - [`atari`]: small board helpers the readers and the move generator share (liberties after
//!   a play, self-atari, snapback).
//!
//! How to read the results: every query answers from the point of view of the side that
//! moves first (the attacker for `attack`, the owner of the chain for `defend`) with an
//! [`Outcome`] and, where it succeeds, the first move. The codes are GNU Go's, so the GTP layer
//! prints `code()` and the move unchanged.
//!
//! # Ko
//! The board knows only the simple ko point. Inside reading:
//! - a play that captures a ko (so the other side could retake) is an ordinary move; the side
//!   that would like to retake must wait, exactly as the board's ko point says;
//! - a side may retake a banned ko "after a threat": the move is played anyway, and the best
//!   that side can get from that line is [`Outcome::KoNeedsThreat`]. The first side to do so
//!   becomes the *ko master* of the line, and from then on only it may retake banned kos
//!   (GNU Go's komaster idea, simplified): so a ko fight cannot loop. Such retakes are read
//!   only up to [`KO_DEPTH`] plies (GNU Go's `ko_depth`): a ko deeper in a line is lost for
//!   the side that would need the threat;
//! - a capture of the target itself that the owner could retake is [`Outcome::KoWin`] while
//!   the owner is allowed to fight kos in that line.
//!
//! Superko is ignored in reading (as GNU Go does); a position repeated inside one line counts
//! as an escape for the chain, which also stops a ladder that circles a torus.
//!
//! Suicide is never tried in reading: removing one's own stones cannot capture the target or
//! give it liberties, so the presets' suicide rule does not change any answer here. Only the
//! [`ReadingStack`] (GTP's `trymove`) needs to know it.

pub mod atari;
pub mod ladder;
pub mod reading;

use std::fmt;

use crate::board::{Board, IllegalMove};
use crate::color::Color;
use crate::point::Move;

pub use ladder::{LadderCapture, ladder_attack, ladder_captures, ladder_escape};
pub use reading::{attack, defend, does_attack, does_defend};

// ---------------------------------------------------------------------------------------------
// Tunables. Depths are in plies from the position asked about.

/// Plies of full-width reading. Beyond it only ladder moves are read (ataris on two-liberty
/// chains, escapes from atari), like GNU Go's `depth`: deep lines are nearly always ladders.
pub const READ_DEPTH: u32 = 16;
/// Moves one query may play before it gives up. An unfinished line counts as a failed attack
/// and so a successful defence: limits favour the defender, as in GNU Go. A query on GNU Go's
/// reading suites stays under 0.15 s in release; the move generator has its own, smaller
/// budget.
pub const NODE_BUDGET: u32 = 100_000;
/// Plies up to which a chain with three liberties is attacked (a fraction of the depth:
/// three-liberty attacks branch widely and rarely matter deep in a line).
pub const THREE_LIB_DEPTH: u32 = 9;
/// Plies up to which a chain with four liberties is attacked (GNU Go's `fourlib_depth`,
/// 7 at its default level). With killer moves ordering both sides, 9 and 7 fit in the node
/// budget and agree best with GNU Go on its reading suites (230/252, was 225 at 8 and 5);
/// reading is about half as fast for it.
pub const FOUR_LIB_DEPTH: u32 = 7;
/// Plies up to which moves off the liberties are tried: nets (geta), approach moves,
/// reinforcing a weak surrounding chain, escaping a net by a hane, races and backfilling
/// (GNU Go's `backfill_depth` is 12 too).
pub const NET_DEPTH: u32 = 12;
/// Plies up to which captures (and rescues) of chains in atari near the target are tried:
/// a chain next to an attacking chain that touches the target or one of its liberties.
pub const NEAR_DEPTH: u32 = 5;
/// Plies up to which a side may retake a banned ko "after a threat" (GNU Go's `ko_depth`):
/// deeper, a ko counts as lost for the side that would need the threat.
pub const KO_DEPTH: u32 = 8;
/// More liberties than this and a chain is safe for tactical reading.
pub const MAX_LIBERTIES: usize = 4;
/// A ladder may run this many plies per point of board size before it counts as an escape:
/// a ladder moves one point a ply on average and may cross the board twice on a torus.
pub const LADDER_PLIES_PER_LINE: u32 = 6;

/// What the side moving first achieves. The codes are GNU Go's (`gtp_print_code`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// No success (code 0).
    Fail,
    /// Unconditional success (code 1).
    Win,
    /// Success through a ko that the side moving first takes first: the other side needs the
    /// first ko threat (code 2, GNU Go's KO_A).
    KoWin,
    /// Success through a ko where the side moving first must find a ko threat first (code 3,
    /// GNU Go's KO_B).
    KoNeedsThreat,
}

impl Outcome {
    /// GNU Go's result code: 0 fail, 1 success, 2 ko taken first, 3 ko needing a threat.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Fail => 0,
            Outcome::Win => 1,
            Outcome::KoWin => 2,
            Outcome::KoNeedsThreat => 3,
        }
    }

    /// Whether the side moving first succeeds, unconditionally or through a ko.
    pub fn succeeds(self) -> bool {
        self != Outcome::Fail
    }

    /// How good the outcome is for the side it belongs to: higher is better.
    pub(crate) fn rank(self) -> u8 {
        match self {
            Outcome::Fail => 0,
            Outcome::KoNeedsThreat => 1,
            Outcome::KoWin => 2,
            Outcome::Win => 3,
        }
    }

    /// The same result seen by the other side, the one that answers.
    pub(crate) fn for_opponent(self) -> Outcome {
        match self {
            Outcome::Fail => Outcome::Win,
            Outcome::Win => Outcome::Fail,
            // The opponent wins a ko it takes first: we must find the first threat.
            Outcome::KoWin => Outcome::KoNeedsThreat,
            Outcome::KoNeedsThreat => Outcome::KoWin,
        }
    }

    /// At most `KoNeedsThreat`: the line began by retaking a ko, which costs a threat.
    pub(crate) fn after_threat(self) -> Outcome {
        if self.rank() > Outcome::KoNeedsThreat.rank() {
            Outcome::KoNeedsThreat
        } else {
            self
        }
    }
}

/// How much reading one query may do. `Default` is GNU Go-like: see the tunables above.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    /// Moves (nodes) one query may play.
    pub nodes: u32,
    /// Plies of full-width reading (the other depths follow it, see [`Budget::scaled`]).
    pub depth: u32,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            nodes: NODE_BUDGET,
            depth: READ_DEPTH,
        }
    }
}

impl Budget {
    /// A budget of `nodes` moves at the default depth.
    pub fn with_nodes(nodes: u32) -> Budget {
        Budget {
            nodes,
            ..Budget::default()
        }
    }

    /// GTP `increase_depths`: one ply deeper and twice the nodes.
    pub fn increase_depths(&mut self) {
        self.depth = (self.depth + 1).min(4 * READ_DEPTH);
        self.nodes = self.nodes.saturating_mul(2).min(64 * NODE_BUDGET);
    }

    /// GTP `decrease_depths`: one ply shallower and half the nodes (never below one ply and
    /// a hundred nodes, so that a ladder can still be read).
    pub fn decrease_depths(&mut self) {
        self.depth = self.depth.saturating_sub(1).max(1);
        self.nodes = (self.nodes / 2).max(100);
    }

    /// A secondary depth scaled like `depth` against its default (`READ_DEPTH`).
    pub(crate) fn scaled(&self, default: u32) -> u32 {
        default * self.depth / READ_DEPTH
    }
}

/// GTP's reading stack (`trymove`, `tryko`, `popgo`): moves played on top of a base position
/// that `attack` and friends then read from. The base is never changed.
#[derive(Clone, Debug)]
pub struct ReadingStack {
    boards: Vec<Board>,
    suicide_allowed: bool,
}

/// `popgo` with nothing to pop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StackEmpty;

impl fmt::Display for StackEmpty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // GNU Go's exact text.
        f.write_str("Stack empty.")
    }
}

impl std::error::Error for StackEmpty {}

impl ReadingStack {
    /// An empty stack over `base`. `suicide_allowed` decides whether `trymove` accepts a
    /// suicide (the game's rules).
    pub fn new(base: Board, suicide_allowed: bool) -> ReadingStack {
        ReadingStack {
            boards: vec![base],
            suicide_allowed,
        }
    }

    /// Replaces the base and empties the stack (the game moved on underneath it).
    pub fn reset(&mut self, base: Board, suicide_allowed: bool) {
        self.boards.truncate(1);
        self.boards[0] = base;
        self.suicide_allowed = suicide_allowed;
    }

    /// The position on top of the stack: the base when nothing was tried.
    pub fn board(&self) -> &Board {
        // The base is never popped, so the stack is never empty.
        self.boards
            .last()
            .expect("the base board stays on the stack")
    }

    /// Number of moves tried on top of the base.
    pub fn depth(&self) -> usize {
        self.boards.len() - 1
    }

    /// GTP `trymove`: plays a legal move (simple ko and the suicide rule; no superko, as in
    /// GNU Go) on top of the stack.
    ///
    /// # Errors
    /// Why the move is illegal; the stack is unchanged.
    pub fn trymove(&mut self, c: Color, m: Move) -> Result<(), IllegalMove> {
        let mut next = self.board().clone();
        next.play(c, m, self.suicide_allowed)?;
        self.boards.push(next);
        Ok(())
    }

    /// GTP `tryko`: like `trymove`, but a retake of the ko point is allowed (as if a ko
    /// threat had been answered).
    ///
    /// # Errors
    /// The point is occupied or the play is a forbidden suicide; the stack is unchanged.
    pub fn tryko(&mut self, c: Color, m: Move) -> Result<(), IllegalMove> {
        let board = self.board();
        if let Move::Play(p) = m {
            if board.get(p).is_some() {
                return Err(IllegalMove::Occupied);
            }
            if !self.suicide_allowed && board.is_suicide(c, p) {
                return Err(IllegalMove::Suicide);
            }
        }
        let mut next = board.clone();
        next.play_unchecked(c, m);
        self.boards.push(next);
        Ok(())
    }

    /// GTP `popgo`: takes back the last tried move.
    ///
    /// # Errors
    /// `StackEmpty` when no move was tried.
    pub fn popgo(&mut self) -> Result<(), StackEmpty> {
        if self.boards.len() <= 1 {
            return Err(StackEmpty);
        }
        self.boards.pop();
        Ok(())
    }
}
