//! How often each rule of the playout policy fires, and the cheap limits it reads with: the
//! policy's part of the search's `Tunables` (`SHICHO_TUNE` sets each field by name).

use crate::go::search::playout::last_moves::MAX_KO_MOVES;
use crate::go::search::tunable::{Range, tunables};

/// A rate in percent.
const PERCENT: Range = Range::Within(0.0, 100.0);

tunables! {
    /// How often each rule of the policy fires (percent), and the cheap limits it reads with.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct PolicyParams {
        /// How often rule 1 answers the last move's ataris: saves an own chain it put in
        /// atari, or captures an opponent chain in atari next to it.
        atari_percent: u32 = 95, PERCENT;
        /// How often rule 2 takes the vital point of a small eye space the last move closed
        /// or shrank.
        nakade_percent: u32 = 90, PERCENT;
        /// How often rule 3 ataris the last move's chain of two liberties that cannot run,
        /// or gives an own chain the last move left with two liberties a third.
        two_lib_percent: u32 = 70, PERCENT;
        /// How often rule 3 also plays the race of an own chain of two to four liberties next
        /// to the last move: captures an opponent chain in atari next to it, or ataris one with
        /// two liberties (extending alone loses a capturing race it could win).
        race_percent: u32 = 0, PERCENT;
        /// How often rule 4 answers the last move with MoGo's 3x3 shapes around it.
        pattern_percent: u32 = 90, PERCENT;
        /// How often the last good reply to the last moves is tried (`replies`; 0: never).
        reply_percent: u32 = 0, PERCENT;
        /// How often, when rules 1 to 5 find nothing, a chain left in atari next to one of the
        /// last moves ([`EARLIER_MOVES`] and the two before) is captured or saved (Pachi's
        /// playouts look at every chain in atari on the board, 90% of the time): without it an
        /// atari the opponent tenukied is only captured by chance.
        left_atari_percent: u32 = 0, PERCENT;
        /// How often rule 0 plays at the point of a recent ko, before any other rule.
        ko_percent: u32 = 0, PERCENT;
        /// For how many moves after its ban lifts a ko's point is rule 0's (1: the next move of
        /// the side that took it, to fill it; 2: the other side's retake as well; at most
        /// [`MAX_KO_MOVES`]).
        ko_moves: u32 = 1, Range::Within(0.0, MAX_KO_MOVES as f32);
        /// How often a bad self-atari is refused in the random step.
        self_atari_percent: u32 = 95, PERCENT;
        /// Random draws of a point with an empty 3x3 neighbourhood before the uniform scan.
        fill_board_tries: u32 = 2, Range::AtLeast(0.0);
        /// Nodes a ladder check may read (0: extensions to two liberties are never checked).
        ladder_nodes: u32 = 120, Range::AtLeast(0.0);
    }
}
