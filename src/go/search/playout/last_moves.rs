//! What a playout move knows of the moves before it: the last two, a few earlier ones for
//! the left-atari rule, and the last ko taken while the ko rule may still play its point.
//! The tree's priors read the same record of the last moves (`Last`), so that a node and a
//! playout see a move's surroundings alike.

use crate::go::board::Board;
use crate::go::point::Point;

/// The moves before [`Last::before`] a playout move remembers: an atari the opponent left
/// unanswered is found around one of them.
pub const EARLIER_MOVES: usize = 6;

/// The most moves after a ko's ban lifts that rule 0 may play its point.
pub const MAX_KO_MOVES: u32 = 3;

/// A ko taken a few moves ago.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecentKo {
    /// The point of the stone it captured: where the other side would retake.
    pub point: Point,
    /// Moves played since the capture (0: the banned side is to move).
    pub moves_since: u32,
}

/// What a playout move may know of the moves before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Last {
    /// The opponent's last move, if it was a stone.
    pub point: Option<Point>,
    /// The move before it (the mover's own last move), if a stone.
    pub before: Option<Point>,
    /// The stones played before those, newest first, as far as the caller knows them.
    pub earlier: [Option<Point>; EARLIER_MOVES],
    /// The last ko taken, while rule 0 may still play its point.
    pub ko: Option<RecentKo>,
}

impl Last {
    /// What the next move knows once `played` (a stone's point; `None`: a pass) is played.
    #[must_use]
    pub fn then(self, played: Option<Point>) -> Last {
        let mut earlier = [None; EARLIER_MOVES];
        earlier[0] = self.before;
        earlier[1..].copy_from_slice(&self.earlier[..EARLIER_MOVES - 1]);
        let ko = self
            .ko
            .map(|ko| RecentKo {
                moves_since: ko.moves_since + 1,
                ..ko
            })
            .filter(|ko| ko.moves_since <= MAX_KO_MOVES);
        Last {
            point: played,
            before: self.point,
            earlier,
            ko,
        }
    }

    /// The same, remembering the ko the last move took if `board` (after it) has a ko ban:
    /// a ban lasts one move, so it is the last move's.
    #[must_use]
    pub fn with_ko_of(self, board: &Board) -> Last {
        match board.ko() {
            Some(ko) => Last {
                ko: Some(RecentKo {
                    point: ko.point,
                    moves_since: 0,
                }),
                ..self
            },
            None => self,
        }
    }

    /// The stones of every remembered move, newest first.
    pub(super) fn points(&self) -> impl Iterator<Item = Point> + '_ {
        [self.point, self.before]
            .into_iter()
            .chain(self.earlier)
            .flatten()
    }
}
