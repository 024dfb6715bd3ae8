//! What a reading query finds: [`Outcome`], in GNU Go's codes.

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
