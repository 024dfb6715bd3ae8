//! How often each rule of the playout policy fires, and the cheap limits it reads with: the
//! policy's part of the search's `Tunables` (`SHICHO_TUNE` sets each field by name).

/// How often each rule of the policy fires (percent), and the cheap limits it reads with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyParams {
    pub atari_percent: u32,
    pub nakade_percent: u32,
    pub two_lib_percent: u32,
    /// How often rule 3 also plays the race of an own chain of two to four liberties next
    /// to the last move: captures an opponent chain in atari next to it, or ataris one with
    /// two liberties (extending alone loses a capturing race it could win).
    pub race_percent: u32,
    pub pattern_percent: u32,
    /// How often the last good reply to the last moves is tried (`replies`; 0: never).
    pub reply_percent: u32,
    /// How often, when rules 1 to 5 find nothing, a chain left in atari next to one of the
    /// last moves ([`EARLIER_MOVES`] and the two before) is captured or saved (Pachi's
    /// playouts look at every chain in atari on the board, 90% of the time): without it an
    /// atari the opponent tenukied is only captured by chance.
    pub left_atari_percent: u32,
    /// How often rule 0 plays at the point of a recent ko, before any other rule.
    pub ko_percent: u32,
    /// For how many moves after its ban lifts a ko's point is rule 0's (1: the next move of
    /// the side that took it, to fill it; 2: the other side's retake as well; at most
    /// [`MAX_KO_MOVES`]).
    pub ko_moves: u32,
    /// How often a bad self-atari is refused in the random step.
    pub self_atari_percent: u32,
    /// Random draws of a point with an empty 3x3 neighbourhood before the uniform scan.
    pub fill_board_tries: u32,
    /// Nodes a ladder check may read (0: extensions to two liberties are never checked).
    pub ladder_nodes: u32,
}

impl Default for PolicyParams {
    fn default() -> PolicyParams {
        PolicyParams {
            atari_percent: 95,
            nakade_percent: 90,
            two_lib_percent: 70,
            race_percent: 0,
            pattern_percent: 90,
            reply_percent: 0,
            left_atari_percent: 0,
            ko_percent: 0,
            ko_moves: 1,
            self_atari_percent: 95,
            fill_board_tries: 2,
            ladder_nodes: 120,
        }
    }
}
