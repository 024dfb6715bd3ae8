//! Time control: what `time_settings` (or `kata-time_settings`) tells the engines and the
//! clock the referee keeps.
//!
//! The referee measures wall time from writing `genmove` to reading the answer, so pipe and
//! scheduling latency count against the engine; a *grace* allowance added to every limit
//! absorbs that (as Leela Zero's 1 s lag buffer does from the engine's side). A move that
//! arrives later than its limit plus grace loses on time, and so does one that never
//! arrives: the referee stops waiting at the limit plus grace.

use std::fmt;
use std::str::FromStr;

/// `main` seconds, then Canadian byo-yomi as GTP's `time_settings main byo_time byo_stones`
/// means it (every period of `byo_time` seconds must hold `byo_stones` moves; `byo_time ==
/// 0` is absolute time, sudden death after `main`), or a Fischer increment: `increment`
/// seconds added to the clock after every move. Never both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub main: u32,
    pub byo_time: u32,
    pub byo_stones: u32,
    pub increment: u32,
}

impl TimeControl {
    /// Whether there is byo-yomi after the main time.
    pub fn has_byo_yomi(&self) -> bool {
        self.byo_time > 0 && self.byo_stones > 0
    }

    /// The increment of a Fischer clock, `None` for any other.
    pub fn fischer(&self) -> Option<u32> {
        (self.increment > 0).then_some(self.increment)
    }

    /// The GTP command announcing it. GTP has no Fischer clock: one goes as OGS's bridge
    /// GTP2OGS sends it to engines without `kata-time_settings`, Canadian byo-yomi with the
    /// increment as a one-stone period and main time less one increment. Whatever an engine
    /// may spend on a move by that, main time and the period, the Fischer clock allows, and
    /// after the move the clock's increment is the period starting afresh
    /// ([`RefereeClock::time_left`] keeps the engine's view up to date).
    pub fn gtp_command(&self) -> String {
        match self.fischer() {
            Some(increment) => format!(
                "time_settings {} {increment} 1",
                self.main.saturating_sub(increment)
            ),
            None => format!(
                "time_settings {} {} {}",
                self.main, self.byo_time, self.byo_stones
            ),
        }
    }

    /// KataGo's command for a Fischer clock (shicho answers it too), `None` for any other.
    pub fn kata_command(&self) -> Option<String> {
        self.fischer()
            .map(|increment| format!("kata-time_settings fischer {} {increment}", self.main))
    }

    /// SGF `OT` text (`10/5 Canadian`, `2 Fischer`), `None` for absolute time.
    pub fn sgf_overtime(&self) -> Option<String> {
        if let Some(increment) = self.fischer() {
            return Some(format!("{increment} Fischer"));
        }
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
        if let Some(increment) = self.fischer() {
            write!(f, "+{increment}s a move")?;
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
            "bad time control '{}': expected MAIN (absolute), MAIN+BYO/STONES (Canadian) or \
             MAIN+INC (Fischer), times in whole seconds with an optional s or m suffix \
             (e.g. 60, 5m+30s/10, 0+10/1, 60+2)",
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

    /// `MAIN` (absolute), `MAIN+BYO/STONES` (Canadian) or `MAIN+INC` (Fischer, as chess
    /// writes it), e.g. `60`, `5m+30s/10`, `60+2`. GTP times are integers, so are these.
    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.to_string());
        let text = text.trim();
        let (main, overtime) = match text.split_once('+') {
            Some((m, o)) => (m, Some(o)),
            None => (text, None),
        };
        let main = parse_seconds(main).ok_or_else(bad)?;
        let mut control = TimeControl {
            main,
            byo_time: 0,
            byo_stones: 0,
            increment: 0,
        };
        match overtime.map(|o| o.split_once('/').ok_or(o)) {
            None => {}
            Some(Ok((t, s))) => {
                let t = parse_seconds(t).ok_or_else(bad)?;
                let s: u32 = s.parse().map_err(|_| bad())?;
                // `time_settings M B 0` with B > 0 means "no limit" in GTP: never what a
                // user of this option wants.
                if t == 0 || s == 0 {
                    return Err(bad());
                }
                (control.byo_time, control.byo_stones) = (t, s);
            }
            // No main time and an increment would leave nothing for the first move: the
            // increment comes after it.
            Some(Err(increment)) => {
                control.increment = parse_seconds(increment).ok_or_else(bad)?;
                if main == 0 {
                    return Err(bad());
                }
            }
        }
        if main == 0 && control.byo_time == 0 {
            return Err(bad());
        }
        Ok(control)
    }
}

/// A clock's reading: the seconds left (of main time, or of the current period) and, in
/// byo-yomi, the stones still to play in the period.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockReading {
    pub seconds: f64,
    /// 0 in main time.
    pub stones: u32,
}

impl fmt::Display for ClockReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stones {
            0 => write!(f, "{:.2} s left", self.seconds),
            1 => write!(f, "{:.2} s left for 1 stone", self.seconds),
            n => write!(f, "{:.2} s left for {n} stones", self.seconds),
        }
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
    /// The engine was told the Fischer clock as Canadian byo-yomi
    /// ([`TimeControl::gtp_command`]); `time_left` speaks that language.
    fischer_as_canadian: bool,
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
            fischer_as_canadian: false,
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
        if let Some(increment) = c.fischer() {
            self.main_left = (self.main_left - seconds).max(0.0) + f64::from(increment);
            return;
        }
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

    /// Has `time_left` speak the Canadian byo-yomi the engine was told in place of the
    /// Fischer clock.
    pub fn tell_fischer_as_canadian(&mut self) {
        self.fischer_as_canadian = true;
    }

    /// The clock now; `None` without a time control.
    pub fn reading(&self) -> Option<ClockReading> {
        self.control?;
        Some(if self.in_byo_yomi {
            ClockReading {
                seconds: self.period_left,
                stones: self.stones_left,
            }
        } else {
            ClockReading {
                seconds: self.main_left,
                stones: 0,
            }
        })
    }

    /// What `time_left` should say: whole seconds left (main time, or in the current
    /// period) and stones left in the period (0 in main time); `None` without a time
    /// control. Told as Canadian, a Fischer clock is main time less one increment while
    /// there is more than that, then its one-stone period (as GTP2OGS tells it).
    pub fn time_left(&self) -> Option<(u32, u32)> {
        let reading = self.reading()?;
        let seconds = |s: f64| s.max(0.0) as u32;
        Some(match self.control.and_then(|c| c.fischer()) {
            Some(increment) if self.fischer_as_canadian => {
                let main = self.main_left - f64::from(increment);
                if main > 0.0 {
                    (seconds(main), 0)
                } else {
                    (seconds(self.main_left), 1)
                }
            }
            _ => (seconds(reading.seconds), reading.stones),
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
            increment: 0,
        };
        assert_eq!("60".parse(), Ok(tc(60, 0, 0)));
        assert_eq!("5m+30s/10".parse(), Ok(tc(300, 30, 10)));
        assert_eq!("0+10/1".parse(), Ok(tc(0, 10, 1)));
        let fischer = TimeControl {
            increment: 2,
            ..tc(60, 0, 0)
        };
        assert_eq!("1m+2s".parse(), Ok(fischer));
        // Chess's "no increment" is absolute time.
        assert_eq!("60+0".parse(), Ok(tc(60, 0, 0)));
        for bad in [
            "", "0", "1.5", "-3", "60+", "0+10", "60+x", "60+0/5", "60+10/0", "x+1/1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(tc(300, 30, 10).to_string(), "300s+30s/10");
        assert_eq!(tc(300, 30, 10).gtp_command(), "time_settings 300 30 10");
        assert_eq!(tc(300, 30, 10).kata_command(), None);
        assert_eq!(fischer.to_string(), "60s+2s a move");
        assert_eq!(fischer.sgf_overtime().as_deref(), Some("2 Fischer"));
        assert_eq!(
            fischer.kata_command().as_deref(),
            Some("kata-time_settings fischer 60 2")
        );
        assert_eq!(fischer.gtp_command(), "time_settings 58 2 1");
    }

    #[test]
    fn fischer_clock_adds_the_increment_after_each_move() {
        let mut clock = RefereeClock::new("10+2".parse().ok(), None);
        assert_eq!(clock.allowed(), Some(10.0));
        clock.charge(3.5);
        assert_eq!(clock.allowed(), Some(8.5));
        assert_eq!(clock.time_left(), Some((8, 0)));
        // Past the clock (within the grace): nothing is left but the increment.
        clock.charge(9.0);
        assert_eq!(clock.allowed(), Some(2.0));
        assert_eq!(
            clock.reading(),
            Some(ClockReading {
                seconds: 2.0,
                stones: 0
            })
        );
        // A per-move limit still holds.
        let clock = RefereeClock::new("10+2".parse().ok(), Some(3.0));
        assert_eq!(clock.allowed(), Some(3.0));
    }

    #[test]
    fn a_fischer_clock_told_as_canadian_keeps_the_engines_view() {
        let mut clock = RefereeClock::new("10+2".parse().ok(), None);
        clock.tell_fischer_as_canadian();
        // `time_settings 8 2 1`: 8 s of main time, then 2 s for each stone.
        assert_eq!(clock.time_left(), Some((8, 0)));
        clock.charge(7.0);
        // 5 s on the clock: 3 of main time and the period.
        assert_eq!(clock.time_left(), Some((3, 0)));
        clock.charge(5.0);
        // 2 s: no more than an increment, so all of it is the period's.
        assert_eq!(clock.time_left(), Some((2, 1)));
        assert_eq!(
            clock.reading().map(|r| r.to_string()).as_deref(),
            Some("2.00 s left")
        );
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
