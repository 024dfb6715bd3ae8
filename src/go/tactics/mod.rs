//! Tactical reading: ladders, and capture/defence of chains with few liberties.
//!
//! Everything here reads a `&Board` and owns no state between calls (Pachi's `tactics/` cut):
//! - [`ladder`]: the strict ladder (`ladder_attack`, `ladder_escape`) and the list of every
//!   chain a ladder captures, for GoGui's analyze command;
//! - [`reading`]: attack/defence by full-width reading of chains with up to four liberties
//!   (nets, snapbacks, shortage of liberties, counter-captures), bounded by a [`Budget`];
//! - [`chains`]: small board helpers the readers and the heuristic player share (liberties
//!   after a play, self-atari, snapback, the chains around a chain, one stone per chain);
//! - [`self_atari`]: which self-ataris a player would still make (a throw-in, a nakade), for
//!   the playouts and the learnt priors;
//! - `budget` and `outcome`: the limits of one query ([`Budget`] and the depth tunables)
//!   and its answer ([`Outcome`]);
//! - `stack`: GTP's reading stack ([`ReadingStack`], `trymove`/`popgo`).
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

mod budget;
pub mod chains;
pub mod ladder;
mod outcome;
pub mod reading;
pub mod self_atari;
mod stack;

pub use budget::{
    Budget, FOUR_LIB_DEPTH, KO_DEPTH, LADDER_PLIES_PER_LINE, MAX_LIBERTIES, NEAR_DEPTH, NET_DEPTH,
    NODE_BUDGET, READ_DEPTH, THREE_LIB_DEPTH,
};
pub use ladder::{LadderCapture, ladder_attack, ladder_captures, ladder_escape};
pub use outcome::Outcome;
pub use reading::{attack, defend, does_attack, does_defend};
pub use stack::{ReadingStack, StackEmpty};
