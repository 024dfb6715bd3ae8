//! Time control: what `time_settings` (or `kata-time_settings`, `kgs-time_settings`) tells
//! the engines and the clock the referee keeps.
//!
//! The referee measures wall time from writing `genmove` to reading the answer, so pipe and
//! scheduling latency count against the engine; a *grace* allowance added to every limit
//! absorbs that (as Leela Zero's 1 s lag buffer does from the engine's side). A move that
//! arrives later than its limit plus grace loses on time, and so does one that never
//! arrives: the referee stops waiting at the limit plus grace.

use std::fmt;
use std::str::FromStr;

/// What follows the main time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overtime {
    /// Nothing: absolute time, sudden death after the main time.
    None,
    /// Canadian byo-yomi as GTP's `time_settings main period stones` means it: every
    /// period of `period` seconds must hold `stones` moves.
    Canadian { period: u32, stones: u32 },
    /// Japanese byo-yomi: `periods` periods of `period` seconds. A move within a period
    /// costs nothing (the next starts it afresh), a move that overruns it uses it up and
    /// goes on in the next, and overrunning the last one loses.
    Japanese { period: u32, periods: u32 },
    /// Fischer: `increment` seconds added to the clock after every move.
    Fischer { increment: u32 },
}

/// `main` seconds, then the overtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub main: u32,
    pub overtime: Overtime,
}

impl TimeControl {
    /// The increment of a Fischer clock, `None` for any other.
    pub fn fischer(&self) -> Option<u32> {
        match self.overtime {
            Overtime::Fischer { increment } => Some(increment),
            _ => None,
        }
    }

    /// The GTP command announcing it. GTP knows only Canadian byo-yomi (absolute time is
    /// its period of 0 s), so the other two go in the nearest Canadian words:
    ///
    /// - A Fischer clock as OGS's bridge GTP2OGS sends it to engines without
    ///   `kata-time_settings`: a one-stone period of the increment, main time less one
    ///   increment. Whatever an engine may spend on a move by that, main time and the
    ///   period, the Fischer clock allows, and after the move the clock's increment is the
    ///   period starting afresh ([`RefereeClock::time_left`] keeps the engine's view up to
    ///   date).
    /// - Japanese byo-yomi as one-stone periods of the period's length, the other periods
    ///   left out: stricter than the clock, since an engine that keeps each move within
    ///   its period never uses one up, so one that follows it never loses on time; it only
    ///   never spends the spare periods. (GTP2OGS instead counts all but the last period
    ///   as main time, told afresh before each move, which lets an engine spend them on a
    ///   few long moves.)
    pub fn gtp_command(&self) -> String {
        let (main, period, stones) = match self.overtime {
            Overtime::None => (self.main, 0, 0),
            Overtime::Canadian { period, stones } => (self.main, period, stones),
            Overtime::Japanese { period, .. } => (self.main, period, 1),
            Overtime::Fischer { increment } => (self.main.saturating_sub(increment), increment, 1),
        };
        format!("time_settings {main} {period} {stones}")
    }

    /// The kind of `kata-time_settings` that says a Fischer clock (`fischer`) or Japanese
    /// byo-yomi (`byoyomi`), as `kata-list_time_settings` names it; `None` for the controls
    /// GTP's own command says as they are.
    pub fn kata_kind(&self) -> Option<&'static str> {
        match self.overtime {
            Overtime::Fischer { .. } => Some("fischer"),
            Overtime::Japanese { .. } => Some("byoyomi"),
            Overtime::None | Overtime::Canadian { .. } => None,
        }
    }

    /// KataGo's command (shicho answers it too) for a Fischer clock or Japanese byo-yomi
    /// (KGS's arguments), `None` for any other control.
    pub fn kata_command(&self) -> Option<String> {
        match self.overtime {
            Overtime::Fischer { increment } => Some(format!(
                "kata-time_settings fischer {} {increment}",
                self.main
            )),
            Overtime::Japanese { period, periods } => Some(format!(
                "kata-time_settings byoyomi {} {period} {periods}",
                self.main
            )),
            Overtime::None | Overtime::Canadian { .. } => None,
        }
    }

    /// KGS's command for Japanese byo-yomi (kgsGtp sends it; GTP2OGS too, to engines that
    /// list it), `None` for any other control.
    pub fn kgs_command(&self) -> Option<String> {
        match self.overtime {
            Overtime::Japanese { period, periods } => Some(format!(
                "kgs-time_settings byoyomi {} {period} {periods}",
                self.main
            )),
            _ => None,
        }
    }

    /// SGF `OT` text as KGS writes it (`10/5 Canadian`, `3x10 byo-yomi`: stones or periods
    /// first), and `2 Fischer`; `None` for absolute time.
    pub fn sgf_overtime(&self) -> Option<String> {
        match self.overtime {
            Overtime::None => None,
            Overtime::Canadian { period, stones } => Some(format!("{stones}/{period} Canadian")),
            Overtime::Japanese { period, periods } => Some(format!("{periods}x{period} byo-yomi")),
            Overtime::Fischer { increment } => Some(format!("{increment} Fischer")),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s", self.main)?;
        match self.overtime {
            Overtime::None => Ok(()),
            Overtime::Canadian { period, stones } => write!(f, "+{period}s/{stones}"),
            Overtime::Japanese { period, periods: 1 } => write!(f, "+1 period of {period}s"),
            Overtime::Japanese { period, periods } => {
                write!(f, "+{periods} periods of {period}s")
            }
            Overtime::Fischer { increment } => write!(f, "+{increment}s a move"),
        }
    }
}

/// A `--time` value that does not follow `MAIN[+BYO/STONES|+BYOxPERIODS|+INC]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTimeControl(pub String);

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control '{}': expected MAIN (absolute), MAIN+BYO/STONES (Canadian), \
             MAIN+BYOxPERIODS (Japanese byo-yomi) or MAIN+INC (Fischer), times in whole \
             seconds with an optional s or m suffix (e.g. 60, 5m+30s/10, 0+10/1, 60+10x3, \
             60+2)",
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
    let count = parse_count(digits)?;
    count.checked_mul(factor)
}

/// A plain whole number: digits only (no sign, unlike `u32::from_str`).
fn parse_count(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `MAIN` (absolute), `MAIN+BYO/STONES` (Canadian), `MAIN+BYOxPERIODS` (Japanese
    /// byo-yomi) or `MAIN+INC` (Fischer, as chess writes it), e.g. `60`, `5m+30s/10`,
    /// `60+10x3`, `60+2`. The overtime's separator tells the three apart: `/` a stone
    /// count, `x` a period count, neither an increment; `m` and `s` only end a time, so
    /// `60+10sx3` reads as it looks. Byo-yomi is written in the order of GTP's arguments,
    /// the period's length first (`time_settings`, `kgs-time_settings byoyomi M T P`),
    /// where KGS and SGF's `OT` put the count first (`3x10 byo-yomi`). GTP times are
    /// integers, so are these.
    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.to_string());
        let text = text.trim();
        let (main, overtime) = match text.split_once('+') {
            Some((m, o)) => (m, Some(o)),
            None => (text, None),
        };
        let main = parse_seconds(main).ok_or_else(bad)?;
        let overtime = match overtime {
            None => Overtime::None,
            Some(o) => {
                if let Some((t, s)) = o.split_once('/') {
                    let (period, stones) = (parse_seconds(t), parse_count(s));
                    // `time_settings M B 0` with B > 0 means "no limit" in GTP: never
                    // what a user of this option wants.
                    match (period, stones) {
                        (Some(period), Some(stones)) if period > 0 && stones > 0 => {
                            Overtime::Canadian { period, stones }
                        }
                        _ => return Err(bad()),
                    }
                } else if let Some((t, p)) = o.split_once('x') {
                    match (parse_seconds(t), parse_count(p)) {
                        (Some(period), Some(periods)) if period > 0 && periods > 0 => {
                            Overtime::Japanese { period, periods }
                        }
                        _ => return Err(bad()),
                    }
                } else {
                    // No main time and an increment would leave nothing for the first
                    // move: the increment comes after it.
                    match parse_seconds(o).ok_or_else(bad)? {
                        _ if main == 0 => return Err(bad()),
                        // Chess's "no increment" is absolute time.
                        0 => Overtime::None,
                        increment => Overtime::Fischer { increment },
                    }
                }
            }
        };
        if main == 0 && overtime == Overtime::None {
            return Err(bad());
        }
        Ok(TimeControl { main, overtime })
    }
}

/// A clock's reading: the seconds left (of main time, or of the current period) and, in
/// byo-yomi, what is left of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockReading {
    pub seconds: f64,
    /// Canadian byo-yomi: the stones still to play in the period; 0 in main time and under
    /// any other control.
    pub stones: u32,
    /// Japanese byo-yomi: the periods left, the current one included, each of `seconds`;
    /// 0 in main time and under any other control.
    pub periods: u32,
}

impl fmt::Display for ClockReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.periods, self.stones) {
            (1, _) => write!(f, "1 period of {:.2} s left", self.seconds),
            (n, _) if n > 1 => write!(f, "{n} periods of {:.2} s left", self.seconds),
            (_, 0) => write!(f, "{:.2} s left", self.seconds),
            (_, 1) => write!(f, "{:.2} s left for 1 stone", self.seconds),
            (_, n) => write!(f, "{:.2} s left for {n} stones", self.seconds),
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
    /// Canadian: the seconds left in the current period.
    period_left: f64,
    /// Canadian: the stones still to play in the current period.
    stones_left: u32,
    /// Japanese: the periods left, the current one included. Each move starts the current
    /// one afresh, so what is left of it is always the whole period.
    periods_left: u32,
    /// The engine was told a Fischer clock or Japanese byo-yomi in GTP's Canadian terms
    /// ([`TimeControl::gtp_command`]); `time_left` speaks them.
    told_as_canadian: bool,
}

impl RefereeClock {
    pub fn new(control: Option<TimeControl>, move_limit: Option<f64>) -> RefereeClock {
        let main = control.map_or(0, |c| c.main);
        let mut clock = RefereeClock {
            control,
            move_limit,
            main_left: f64::from(main),
            in_byo_yomi: false,
            period_left: 0.0,
            stones_left: 0,
            periods_left: 0,
            told_as_canadian: false,
        };
        match control.map(|c| c.overtime) {
            Some(Overtime::Japanese { periods, .. }) => {
                clock.periods_left = periods;
                clock.in_byo_yomi = main == 0;
            }
            Some(Overtime::Canadian { .. }) if main == 0 => clock.start_period(),
            _ => {}
        }
        clock
    }

    /// Starts a Canadian period.
    fn start_period(&mut self) {
        if let Some(Overtime::Canadian { period, stones }) = self.control.map(|c| c.overtime) {
            self.in_byo_yomi = true;
            self.period_left = f64::from(period);
            self.stones_left = stones;
        }
    }

    /// Seconds the next move may take (grace not included), what is left before a loss on
    /// time; `None` without any limit.
    pub fn allowed(&self) -> Option<f64> {
        let by_control = self.control.map(|c| match c.overtime {
            Overtime::Canadian { .. } if self.in_byo_yomi => self.period_left,
            // Main time running out in mid-move carries on into the first period.
            Overtime::Canadian { period, .. } => self.main_left + f64::from(period),
            // Main time (none once in byo-yomi), then a move may run through every period
            // left: only the last one overrun loses.
            Overtime::Japanese { period, .. } => {
                self.main_left + f64::from(self.periods_left) * f64::from(period)
            }
            Overtime::None | Overtime::Fischer { .. } => self.main_left,
        });
        match (by_control, self.move_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Charges a move that took `seconds`. Whether it was in time is the caller's business
    /// (it knows the grace); this only keeps the books, never below zero. A move the grace
    /// let past the end of the clock so leaves nothing for the next but the grace.
    pub fn charge(&mut self, seconds: f64) {
        let Some(c) = self.control else { return };
        match c.overtime {
            Overtime::None => self.main_left = (self.main_left - seconds).max(0.0),
            Overtime::Fischer { increment } => {
                self.main_left = (self.main_left - seconds).max(0.0) + f64::from(increment);
            }
            Overtime::Canadian { .. } => self.charge_canadian(seconds),
            Overtime::Japanese { period, .. } => self.charge_japanese(seconds, period),
        }
    }

    fn charge_canadian(&mut self, seconds: f64) {
        let mut seconds = seconds;
        if !self.in_byo_yomi {
            if seconds < self.main_left {
                self.main_left -= seconds;
                return;
            }
            seconds -= self.main_left;
            self.main_left = 0.0;
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

    fn charge_japanese(&mut self, seconds: f64, period: u32) {
        if seconds < self.main_left {
            self.main_left -= seconds;
            return;
        }
        // What the move took past main time (all of it once in byo-yomi) is counted
        // against the periods, the current one first.
        let over = seconds - self.main_left;
        self.main_left = 0.0;
        self.in_byo_yomi = true;
        // Every period the move ran past is used up, and the one it ended in is whole
        // again for the next move. A move that ends exactly as a period does kept it, as
        // a move exactly on its limit is in time. (`max` also reads a move of no time, and
        // the NaN of 0 s over a period of 0 s, as one that ran past none.)
        let ended_in = (over / f64::from(period)).ceil().max(1.0);
        let used = (ended_in - 1.0) as u32;
        self.periods_left = self.periods_left.saturating_sub(used);
    }

    /// Has `time_left` speak GTP's Canadian byo-yomi, the terms the engine was told a
    /// Fischer clock or Japanese byo-yomi in (no change for the other controls, which
    /// GTP says as they are).
    pub fn tell_as_canadian(&mut self) {
        self.told_as_canadian = true;
    }

    /// The clock now; `None` without a time control.
    pub fn reading(&self) -> Option<ClockReading> {
        let c = self.control?;
        let main = ClockReading {
            seconds: self.main_left,
            stones: 0,
            periods: 0,
        };
        Some(match c.overtime {
            Overtime::Canadian { .. } if self.in_byo_yomi => ClockReading {
                seconds: self.period_left,
                stones: self.stones_left,
                periods: 0,
            },
            Overtime::Japanese { period, .. } if self.in_byo_yomi => ClockReading {
                // Nothing at all once the last period is gone (a move the grace let
                // through).
                seconds: if self.periods_left > 0 {
                    f64::from(period)
                } else {
                    0.0
                },
                stones: 0,
                periods: self.periods_left,
            },
            _ => main,
        })
    }

    /// What `time_left` should say: whole seconds left (main time, or in the current
    /// period) and, after them, 0 in main time, in Canadian byo-yomi the stones left in
    /// the period, in Japanese byo-yomi the periods left (the current one included, as
    /// kgsGtp and GTP2OGS send them and KataGo and shicho read them after
    /// `kgs-time_settings` or `kata-time_settings byoyomi`); `None` without a time
    /// control. Told as Canadian, a Fischer clock is main time less one increment while
    /// there is more than that, then its one-stone period (as GTP2OGS tells it), and
    /// Japanese byo-yomi is a one-stone period whatever the periods left.
    pub fn time_left(&self) -> Option<(u32, u32)> {
        let c = self.control?;
        let reading = self.reading()?;
        let seconds = |s: f64| s.max(0.0) as u32;
        Some(match c.overtime {
            Overtime::Fischer { increment } if self.told_as_canadian => {
                let main = self.main_left - f64::from(increment);
                if main > 0.0 {
                    (seconds(main), 0)
                } else {
                    (seconds(self.main_left), 1)
                }
            }
            // Past the last period, 0 s in it: `0 0` would be main time, which KataGo reads
            // as all periods still to come.
            Overtime::Japanese { .. } if self.in_byo_yomi && reading.periods == 0 => (0, 1),
            Overtime::Japanese { .. } if self.in_byo_yomi && self.told_as_canadian => {
                (seconds(reading.seconds), 1)
            }
            Overtime::Japanese { .. } if self.in_byo_yomi => {
                (seconds(reading.seconds), reading.periods)
            }
            _ => (seconds(reading.seconds), reading.stones),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(main: u32, overtime: Overtime) -> TimeControl {
        TimeControl { main, overtime }
    }

    #[test]
    fn parses_time_controls() {
        let canadian = |m, period, stones| tc(m, Overtime::Canadian { period, stones });
        assert_eq!("60".parse(), Ok(tc(60, Overtime::None)));
        assert_eq!("5m+30s/10".parse(), Ok(canadian(300, 30, 10)));
        assert_eq!("0+10/1".parse(), Ok(canadian(0, 10, 1)));
        let fischer = tc(60, Overtime::Fischer { increment: 2 });
        assert_eq!("1m+2s".parse(), Ok(fischer));
        // Chess's "no increment" is absolute time.
        assert_eq!("60+0".parse(), Ok(tc(60, Overtime::None)));
        for bad in [
            "", "0", "1.5", "-3", "60+", "0+10", "60+x", "60+0/5", "60+10/0", "x+1/1", "60+10/+5",
            "0+0",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(canadian(300, 30, 10).to_string(), "300s+30s/10");
        assert_eq!(
            canadian(300, 30, 10).gtp_command(),
            "time_settings 300 30 10"
        );
        assert_eq!(canadian(300, 30, 10).kata_command(), None);
        assert_eq!(canadian(300, 30, 10).kata_kind(), None);
        assert_eq!(canadian(300, 30, 10).kgs_command(), None);
        assert_eq!(
            canadian(300, 30, 10).sgf_overtime().as_deref(),
            Some("10/30 Canadian")
        );
        assert_eq!(tc(60, Overtime::None).gtp_command(), "time_settings 60 0 0");
        assert_eq!(tc(60, Overtime::None).sgf_overtime(), None);
        assert_eq!(fischer.to_string(), "60s+2s a move");
        assert_eq!(fischer.sgf_overtime().as_deref(), Some("2 Fischer"));
        assert_eq!(
            fischer.kata_command().as_deref(),
            Some("kata-time_settings fischer 60 2")
        );
        assert_eq!(fischer.kata_kind(), Some("fischer"));
        assert_eq!(fischer.kgs_command(), None);
        assert_eq!(fischer.gtp_command(), "time_settings 58 2 1");
    }

    #[test]
    fn parses_japanese_byo_yomi_beside_the_others() {
        let japanese = |m, period, periods| tc(m, Overtime::Japanese { period, periods });
        assert_eq!("60+10x3".parse(), Ok(japanese(60, 10, 3)));
        // The suffixes end times only, so a period's length reads as it looks.
        assert_eq!("1m+30sx5".parse(), Ok(japanese(60, 30, 5)));
        assert_eq!("60+1mx2".parse(), Ok(japanese(60, 60, 2)));
        // No main time: byo-yomi from the first move.
        assert_eq!("0+10x3".parse(), Ok(japanese(0, 10, 3)));
        assert_eq!(" 10+2x3 ".parse(), Ok(japanese(10, 2, 3)));
        for bad in [
            "60+10x0",
            "60+0x3",
            "60+10x",
            "60+x3",
            "60+10x3x2",
            "60+10x-3",
            "60+10x+3",
            "60+10x3s",
            "60+10X3",
            "60+10/3x2",
            "60+10x3/2",
            "60x3",
            "60+10x3+2",
            "0+0x3",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let byo = japanese(60, 10, 3);
        assert_eq!(byo.to_string(), "60s+3 periods of 10s");
        assert_eq!(japanese(60, 10, 1).to_string(), "60s+1 period of 10s");
        assert_eq!(
            byo.kata_command().as_deref(),
            Some("kata-time_settings byoyomi 60 10 3")
        );
        assert_eq!(byo.kata_kind(), Some("byoyomi"));
        assert_eq!(
            byo.kgs_command().as_deref(),
            Some("kgs-time_settings byoyomi 60 10 3")
        );
        // Plain GTP: a one-stone period of the period's length, the spare ones left out.
        assert_eq!(byo.gtp_command(), "time_settings 60 10 1");
        // SGF as KGS writes it: the count first.
        assert_eq!(byo.sgf_overtime().as_deref(), Some("3x10 byo-yomi"));
        let message = "60+10x".parse::<TimeControl>().unwrap_err().to_string();
        assert!(
            message.contains("MAIN+BYOxPERIODS (Japanese byo-yomi)"),
            "{message}"
        );
        assert!(message.contains("60+10x3"), "{message}");
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
                stones: 0,
                periods: 0,
            })
        );
        // A per-move limit still holds.
        let clock = RefereeClock::new("10+2".parse().ok(), Some(3.0));
        assert_eq!(clock.allowed(), Some(3.0));
    }

    #[test]
    fn a_fischer_clock_told_as_canadian_keeps_the_engines_view() {
        let mut clock = RefereeClock::new("10+2".parse().ok(), None);
        clock.tell_as_canadian();
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
        // Said in GTP's own terms already: telling it so changes nothing.
        clock.tell_as_canadian();
        assert_eq!(clock.time_left(), Some((4, 1)));
        clock.charge(3.0);
        // Two stones played in the period: a fresh one.
        assert_eq!(clock.time_left(), Some((6, 2)));
        assert_eq!(
            clock.reading().map(|r| r.to_string()).as_deref(),
            Some("6.00 s left for 2 stones")
        );
    }

    /// The reading as the SGF comment shows it.
    fn shown(clock: &RefereeClock) -> String {
        clock.reading().map(|r| r.to_string()).unwrap_or_default()
    }

    #[test]
    fn japanese_main_time_running_out_in_mid_move_carries_into_the_periods() {
        let mut clock = RefereeClock::new("10+5x3".parse().ok(), None);
        // Main time, then a move may run through all three periods.
        assert_eq!(clock.allowed(), Some(25.0));
        assert_eq!(clock.time_left(), Some((10, 0)));
        clock.charge(4.0);
        assert_eq!(clock.allowed(), Some(21.0));
        assert_eq!(clock.time_left(), Some((6, 0)));
        assert_eq!(shown(&clock), "6.00 s left");
        // 6 s of main time, the move takes 9: 3 s into the first period, which it ends
        // within, so all three are left and the next move starts one afresh.
        clock.charge(9.0);
        assert_eq!(clock.allowed(), Some(15.0));
        assert_eq!(clock.time_left(), Some((5, 3)));
        assert_eq!(shown(&clock), "3 periods of 5.00 s left");
        // A move within the period costs nothing.
        clock.charge(4.9);
        assert_eq!(clock.allowed(), Some(15.0));
        // Told `time_settings 10 5 1`, the engine hears of one period for one stone.
        clock.tell_as_canadian();
        assert_eq!(clock.time_left(), Some((5, 1)));
    }

    #[test]
    fn japanese_periods_end_exactly_where_they_should() {
        let mut clock = RefereeClock::new("10+5x3".parse().ok(), None);
        // Main time ends exactly with the move: byo-yomi next, every period left.
        clock.charge(10.0);
        assert_eq!(clock.allowed(), Some(15.0));
        assert_eq!(clock.time_left(), Some((5, 3)));
        // Exactly a period: kept, as a move exactly on its limit is in time.
        clock.charge(5.0);
        assert_eq!(clock.allowed(), Some(15.0));
        // A hair over: that period is used up.
        clock.charge(5.001);
        assert_eq!(clock.allowed(), Some(10.0));
        assert_eq!(clock.time_left(), Some((5, 2)));
        // Exactly two periods: the first used up, the move ended with the second, kept.
        clock.charge(10.0);
        assert_eq!(clock.allowed(), Some(5.0));
        assert_eq!(clock.time_left(), Some((5, 1)));
        assert_eq!(shown(&clock), "1 period of 5.00 s left");
        // A move of no time at all keeps it too.
        clock.charge(0.0);
        assert_eq!(clock.time_left(), Some((5, 1)));
    }

    #[test]
    fn a_slow_japanese_move_uses_up_every_period_it_runs_past() {
        // No main time: byo-yomi from the first move.
        let mut clock = RefereeClock::new("0+5x4".parse().ok(), None);
        assert_eq!(clock.allowed(), Some(20.0));
        assert_eq!(clock.time_left(), Some((5, 4)));
        assert_eq!(shown(&clock), "4 periods of 5.00 s left");
        // 16 s ends in the fourth period: three are used up.
        clock.charge(16.0);
        assert_eq!(clock.allowed(), Some(5.0));
        assert_eq!(clock.time_left(), Some((5, 1)));
        // Main time running out mid-move counts the rest against the periods the same way.
        let mut clock = RefereeClock::new("3+5x4".parse().ok(), None);
        clock.charge(14.0);
        assert_eq!(clock.allowed(), Some(10.0));
    }

    #[test]
    fn overrunning_the_last_japanese_period_leaves_nothing() {
        let mut clock = RefereeClock::new("0+5x2".parse().ok(), None);
        assert_eq!(clock.allowed(), Some(10.0));
        // Past both periods: a loss on time unless the grace let it through; then the books
        // hold nothing for the next move but the grace.
        clock.charge(10.2);
        assert_eq!(clock.allowed(), Some(0.0));
        assert_eq!(shown(&clock), "0.00 s left");
        // Not `0 0`, which reads as main time with every period to come.
        assert_eq!(clock.time_left(), Some((0, 1)));
        // A move limit below the periods holds.
        let clock = RefereeClock::new("0+5x2".parse().ok(), Some(3.0));
        assert_eq!(clock.allowed(), Some(3.0));
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
