//! Time control: what `time_settings` tells the engines and the clock the referee keeps.
//!
//! The referee measures wall time from writing `genmove` to reading the answer, so pipe and
//! scheduling latency count against the engine; a *grace* allowance added to every limit
//! absorbs that (as Leela Zero's 1 s lag buffer does from the engine's side). A move that
//! arrives later than its limit plus grace loses on time, and so does one that never
//! arrives: the referee stops waiting at the limit plus grace.

use std::fmt;
use std::str::FromStr;

/// Canadian byo-yomi as GTP's `time_settings main byo_time byo_stones` means it: `main`
/// seconds, then every period of `byo_time` seconds must hold `byo_stones` moves.
/// `byo_time == 0` is absolute time (sudden death after `main`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub main: u32,
    pub byo_time: u32,
    pub byo_stones: u32,
}

impl TimeControl {
    /// Whether there is byo-yomi after the main time.
    pub fn has_byo_yomi(&self) -> bool {
        self.byo_time > 0 && self.byo_stones > 0
    }

    /// The GTP command announcing it.
    pub fn gtp_command(&self) -> String {
        format!(
            "time_settings {} {} {}",
            self.main, self.byo_time, self.byo_stones
        )
    }

    /// SGF `OT` text (`10/5 Canadian`), `None` for absolute time.
    pub fn sgf_overtime(&self) -> Option<String> {
        self.has_byo_yomi()
            .then(|| format!("{}/{} Canadian", self.byo_stones, self.byo_time))
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s", self.main)?;
        if self.has_byo_yomi() {
            write!(f, "+{}s/{}", self.byo_time, self.byo_stones)?;
        }
        Ok(())
    }
}

/// A `--time` value that does not follow `MAIN[+BYO/STONES]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTimeControl(pub String);

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control '{}': expected MAIN or MAIN+BYO/STONES, times in whole seconds \
             with an optional s or m suffix (e.g. 60, 5m+30s/10, 0+10/1)",
            self.0
        )
    }
}

impl std::error::Error for BadTimeControl {}

/// Whole seconds with an optional `s` or `m` (minutes) suffix.
fn parse_seconds(text: &str) -> Option<u32> {
    let (digits, factor) = if let Some(d) = text.strip_suffix('m') {
        (d, 60)
    } else if let Some(d) = text.strip_suffix('s') {
        (d, 1)
    } else {
        (text, 1)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u32>().ok()?.checked_mul(factor)
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `MAIN` (absolute) or `MAIN+BYO/STONES` (Canadian), e.g. `60`, `5m+30s/10`.
    /// GTP times are integers, so are these.
    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.to_string());
        let text = text.trim();
        let (main, overtime) = match text.split_once('+') {
            Some((m, o)) => (m, Some(o)),
            None => (text, None),
        };
        let main = parse_seconds(main).ok_or_else(bad)?;
        let (byo_time, byo_stones) = match overtime {
            None => (0, 0),
            Some(o) => {
                let (t, s) = o.split_once('/').ok_or_else(bad)?;
                let t = parse_seconds(t).ok_or_else(bad)?;
                let s: u32 = s.parse().map_err(|_| bad())?;
                // `time_settings M B 0` with B > 0 means "no limit" in GTP: never what a
                // user of this option wants.
                if t == 0 || s == 0 {
                    return Err(bad());
                }
                (t, s)
            }
        };
        if main == 0 && byo_time == 0 {
            return Err(bad());
        }
        Ok(TimeControl {
            main,
            byo_time,
            byo_stones,
        })
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct RefereeClock {
    control: Option<TimeControl>,
    /// A limit on every single move, on top of (or instead of) the time control.
    move_limit: Option<f64>,
    main_left: f64,
    in_byo_yomi: bool,
    period_left: f64,
    stones_left: u32,
}

impl RefereeClock {
    pub fn new(control: Option<TimeControl>, move_limit: Option<f64>) -> RefereeClock {
        let main = control.map_or(0.0, |c| f64::from(c.main));
        let mut clock = RefereeClock {
            control,
            move_limit,
            main_left: main,
            in_byo_yomi: false,
            period_left: 0.0,
            stones_left: 0,
        };
        if main == 0.0 && control.is_some_and(|c| c.has_byo_yomi()) {
            clock.start_period();
        }
        clock
    }

    fn start_period(&mut self) {
        if let Some(c) = self.control {
            self.in_byo_yomi = true;
            self.period_left = f64::from(c.byo_time);
            self.stones_left = c.byo_stones;
        }
    }

    /// Seconds the next move may take (grace not included); `None` without any limit.
    pub fn allowed(&self) -> Option<f64> {
        let by_control = self.control.map(|c| {
            if self.in_byo_yomi {
                self.period_left
            } else if c.has_byo_yomi() {
                // Main time running out in mid-move carries on into the first period.
                self.main_left + f64::from(c.byo_time)
            } else {
                self.main_left
            }
        });
        match (by_control, self.move_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Charges a move that took `seconds`. Whether it was in time is the caller's business
    /// (it knows the grace); this only keeps the books, never below zero.
    pub fn charge(&mut self, seconds: f64) {
        let Some(c) = self.control else { return };
        let mut seconds = seconds;
        if !self.in_byo_yomi {
            if seconds < self.main_left {
                self.main_left -= seconds;
                return;
            }
            seconds -= self.main_left;
            self.main_left = 0.0;
            if !c.has_byo_yomi() {
                return;
            }
            self.start_period();
            if seconds == 0.0 {
                // Main time ended exactly with this move: the next one starts a period.
                return;
            }
        }
        self.period_left = (self.period_left - seconds).max(0.0);
        self.stones_left = self.stones_left.saturating_sub(1);
        if self.stones_left == 0 {
            self.start_period();
        }
    }

    /// What `time_left` should say: seconds left (main time, or in the current period) and
    /// stones left in the period (0 in main time); `None` without a time control.
    pub fn time_left(&self) -> Option<(u32, u32)> {
        self.control?;
        Some(if self.in_byo_yomi {
            (self.period_left as u32, self.stones_left)
        } else {
            (self.main_left as u32, 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        let tc = |m, b, s| TimeControl {
            main: m,
            byo_time: b,
            byo_stones: s,
        };
        assert_eq!("60".parse(), Ok(tc(60, 0, 0)));
        assert_eq!("5m+30s/10".parse(), Ok(tc(300, 30, 10)));
        assert_eq!("0+10/1".parse(), Ok(tc(0, 10, 1)));
        for bad in [
            "", "0", "1.5", "-3", "60+", "60+10", "60+0/5", "60+10/0", "x+1/1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(tc(300, 30, 10).to_string(), "300s+30s/10");
        assert_eq!(tc(300, 30, 10).gtp_command(), "time_settings 300 30 10");
    }

    #[test]
    fn canadian_clock_runs_into_byo_yomi_and_renews_periods() {
        let mut clock = RefereeClock::new("10+6/2".parse().ok(), None);
        assert_eq!(clock.allowed(), Some(16.0));
        clock.charge(4.0);
        assert_eq!(clock.time_left(), Some((6, 0)));
        // 6 s of main time left, the move takes 8: 2 s come out of the first period.
        clock.charge(8.0);
        assert_eq!(clock.time_left(), Some((4, 1)));
        assert_eq!(clock.allowed(), Some(4.0));
        clock.charge(3.0);
        // Two stones played in the period: a fresh one.
        assert_eq!(clock.time_left(), Some((6, 2)));
    }

    #[test]
    fn absolute_time_and_move_limits() {
        let mut clock = RefereeClock::new("10".parse().ok(), Some(3.0));
        assert_eq!(clock.allowed(), Some(3.0));
        clock.charge(8.5);
        assert_eq!(clock.allowed(), Some(1.5));
        clock.charge(5.0);
        assert_eq!(clock.allowed(), Some(0.0));
        let free = RefereeClock::new(None, None);
        assert_eq!(free.allowed(), None);
        assert_eq!(free.time_left(), None);
        assert_eq!(RefereeClock::new(None, Some(2.0)).allowed(), Some(2.0));
    }
}
