//! Time control: the settings a controller sends, a clock per colour that genmove charges,
//! and the budget for the next move.
//!
//! GTP's `time_settings main byo_time byo_stones` is Canadian byo-yomi, with two special
//! cases: `byo_time > 0, byo_stones == 0` means no limit, `byo_time == 0` means absolute
//! (sudden death). KGS adds `kgs-time_settings none|absolute|canadian|byoyomi` (Japanese
//! byo-yomi: periods of fixed length), and KataGo's `kata-time_settings` adds Fischer
//! clocks (an increment after every move), capped or not. `time_left` overrides the
//! internal clock: with `stones == 0` it is the main time left, otherwise the time left in
//! the current period and the stones (Canadian) or periods (Japanese) still to play in it.

use std::time::Duration;

use crate::color::{ByColor, Color};

/// Seconds kept in reserve for pipes, GUIs and scheduling: a move must be sent this much
/// before the clock would run out.
pub const SAFETY_MARGIN: f64 = 1.0;

/// The most of a short period the margin may take: `time_settings 0 1 1`, the usual way
/// to ask for 1 s a move, left nothing after a whole second's margin, and the engine
/// played on next to no search (`doc/strength.md`). A quarter keeps 0.25 s for the pipes
/// on 1 s a move, far more than a local controller needs (the root's preparation is
/// inside the budget).
pub const SHORT_PERIOD_MARGIN_SHARE: f64 = 0.25;

/// The margin kept back from `seconds` that a move must fit in.
fn margin_for(seconds: f64) -> f64 {
    SAFETY_MARGIN.min(SHORT_PERIOD_MARGIN_SHARE * seconds.max(0.0))
}

/// Under sudden death, the share of the game's main time also kept back for a long tail:
/// once the budget reaches its floor, every move still costs the root's preparation, and a
/// long 19x19 game under 3 minutes came within a second of losing on time
/// (`doc/strength.md`). 2% of 3 minutes holds dozens more such moves.
pub const SUDDEN_DEATH_RESERVE: f64 = 0.02;

/// How many more moves of its own a player expects to make, per empty point: games end
/// with a fifth or so of the board empty and the players alternate, so 0.3 (an empty 19x19
/// board: 108 moves; a 9x9 one: 24). As the board fills, the expected number falls, and the
/// main time left is spread over fewer moves: the middle game gets more than the opening.
pub const MOVES_EXPECTED_PER_EMPTY_POINT: f64 = 0.3;
/// The fewest moves main time is spread over, however full the board: a long endgame or a
/// ko fight must not find the clock empty.
pub const MIN_MOVES_EXPECTED: f64 = 8.0;

/// The game's phases for [`Clock::middle_game_share`], by the share of the board's points
/// taken: the fuseki ends at a fifth, the yose starts at two fifths (Pachi's defaults; 72
/// and 144 moves on 19x19).
pub const FUSEKI_END_FILL: f64 = 0.2;
pub const YOSE_START_FILL: f64 = 0.4;

/// The time system in force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No limit: genmove uses its default effort.
    Unlimited,
    /// `main` seconds for the whole game.
    Absolute { main: f64 },
    /// After `main`, every `period` seconds must hold `stones` moves.
    Canadian { main: f64, period: f64, stones: u32 },
    /// After `main`, `periods` periods of `period` seconds; a move within a period keeps it.
    Japanese {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// `main` seconds, and `increment` more added after every move. Capped (KataGo's
    /// `fischer-capped`): main time never grows past `limit`, and no move may take more than
    /// `per_move`; `None` where there is no such limit.
    Fischer {
        main: f64,
        increment: f64,
        limit: Option<f64>,
        per_move: Option<f64>,
    },
}

/// One colour's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Side {
    /// Main time left, seconds.
    main: f64,
    /// Time left in the current byo-yomi period (meaningful once main time is gone).
    period_left: f64,
    /// Canadian: stones still to play in this period. Japanese: periods left.
    count: u32,
}

/// The time settings and both clocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    sides: ByColor<Side>,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeSystem::Unlimited)
    }
}

impl Clock {
    pub fn new(system: TimeSystem) -> Clock {
        let side = match system {
            TimeSystem::Unlimited => Side {
                main: 0.0,
                period_left: 0.0,
                count: 0,
            },
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => Side {
                main,
                period_left: 0.0,
                count: 0,
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => Side {
                main,
                period_left: period,
                count: stones,
            },
            TimeSystem::Japanese {
                main,
                period,
                periods,
            } => Side {
                main,
                period_left: period,
                count: periods,
            },
        };
        Clock {
            system,
            sides: ByColor::new(side, side),
        }
    }

    /// GTP `time_settings main byo_time byo_stones` (seconds), with its special cases.
    pub fn from_gtp(main: f64, byo_time: f64, byo_stones: u32) -> Clock {
        let system = if byo_time > 0.0 && byo_stones == 0 {
            TimeSystem::Unlimited
        } else if byo_time <= 0.0 {
            TimeSystem::Absolute { main }
        } else {
            TimeSystem::Canadian {
                main,
                period: byo_time,
                stones: byo_stones,
            }
        };
        Clock::new(system)
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// GTP `time_left colour time stones`.
    pub fn set_left(&mut self, c: Color, time: f64, stones: u32) {
        let side = &mut self.sides[c];
        if stones == 0 {
            side.main = time;
            if time <= 0.0 {
                // Some controllers send 0 0 as main time ends: byo-yomi starts afresh.
                if let TimeSystem::Canadian { period, stones, .. } = self.system {
                    side.period_left = period;
                    side.count = stones;
                }
            }
        } else {
            side.main = 0.0;
            side.period_left = time;
            side.count = stones;
        }
    }

    /// Charges `used` seconds of thinking to `c`'s clock.
    pub fn charge(&mut self, c: Color, used: f64) {
        let system = self.system;
        let side = &mut self.sides[c];
        if let TimeSystem::Fischer {
            increment, limit, ..
        } = system
        {
            side.main = side.main - used + increment;
            if let Some(limit) = limit {
                side.main = side.main.min(limit);
            }
            return;
        }
        let mut used = used;
        if side.main > 0.0 {
            let from_main = used.min(side.main);
            side.main -= from_main;
            used -= from_main;
            if used <= 0.0 {
                return;
            }
        }
        match system {
            // Fischer's main time, the only time it has, was charged above.
            TimeSystem::Unlimited | TimeSystem::Fischer { .. } => {}
            TimeSystem::Absolute { .. } => side.main -= used,
            TimeSystem::Canadian { period, stones, .. } => {
                side.period_left -= used;
                side.count = side.count.saturating_sub(1);
                if side.count == 0 && side.period_left >= 0.0 {
                    side.period_left = period;
                    side.count = stones;
                }
            }
            TimeSystem::Japanese { period, .. } => {
                if used > side.period_left {
                    let lost = ((used - side.period_left) / period).ceil() as u32;
                    side.count = side.count.saturating_sub(lost);
                }
                side.period_left = period;
            }
        }
    }

    /// Seconds `c` may spend on its next move with `empties` empty points on the board, or
    /// `None` without a time limit.
    pub fn budget(&self, c: Color, empties: usize) -> Option<Duration> {
        self.budget_for_moves(c, expected_moves(empties))
    }

    /// The share of `c`'s main time left for its next move, with `empties` empty points on
    /// the board, or `None` without main time (no limit, or in byo-yomi). Unlike the whole
    /// budget, it can be stretched: main time spread over at least [`MIN_MOVES_EXPECTED`]
    /// moves leaves room for a move to take this share twice or more, where a byo-yomi
    /// period may not be overrun.
    pub fn main_share(&self, c: Color, empties: usize) -> Option<Duration> {
        if self.system == TimeSystem::Unlimited {
            return None;
        }
        let share = self.spread_main(c) / expected_moves(empties);
        (share > 0.0).then(|| Duration::from_secs_f64(share.min(3600.0)))
    }

    /// The share of `c`'s main time for a middle-game move, with `empties` of the board's
    /// `points` empty, or `None` without main time. The even share
    /// ([`main_share`](Clock::main_share)) treats every move alike; strong engines (Pachi's
    /// time_stop_conditions) spend more where the game is decided, before the yose: main
    /// time spread over only the moves still to come once the yose starts, as if the moves
    /// up to then cost nothing, and through the fuseki a blend that grows from the even
    /// share to that. From the yose on, the even share of what is left.
    pub fn middle_game_share(&self, c: Color, empties: usize, points: usize) -> Option<Duration> {
        let even = self.main_share(c, empties)?;
        let points = points.max(1) as f64;
        let empties = empties as f64;
        let fill = 1.0 - empties / points;
        if fill >= YOSE_START_FILL {
            return Some(even);
        }
        let own_moves_to_yose = (empties - (1.0 - YOSE_START_FILL) * points) / 2.0;
        let left_at_yose =
            (empties * MOVES_EXPECTED_PER_EMPTY_POINT - own_moves_to_yose).max(MIN_MOVES_EXPECTED);
        let middle = self.spread_main(c) / left_at_yose;
        let even = even.as_secs_f64();
        let share = if middle <= even {
            even
        } else if fill < FUSEKI_END_FILL {
            even + (middle - even) * fill / FUSEKI_END_FILL
        } else {
            middle
        };
        Some(Duration::from_secs_f64(share.min(3600.0)))
    }

    /// The share of `c`'s main time for its next move when a middle-game move weighs
    /// `middle_weight` times a fuseki or yose move, with `empties` of the board's `points`
    /// empty, or `None` without main time. Main time is planned over the moves expected to
    /// come ([`MOVES_EXPECTED_PER_EMPTY_POINT`]), each weighted by the phase it falls in, and
    /// the next move takes its weight's part. Unlike
    /// [`middle_game_share`](Clock::middle_game_share), the fuseki pays for the middle game's
    /// extra: a flat, smaller share through the opening, the most as the middle game starts,
    /// falling as its moves are spent, the shape of Pachi 12.90's own schedule. A weight of 1
    /// is the even share.
    pub fn phase_weighted_share(
        &self,
        c: Color,
        empties: usize,
        points: usize,
        middle_weight: f64,
    ) -> Option<Duration> {
        let even = self.main_share(c, empties)?;
        let points = points.max(1) as f64;
        let empties = empties as f64;
        let own_moves_until = |fill: f64| ((empties - (1.0 - fill) * points) / 2.0).max(0.0);
        let expected = expected_moves(empties as usize);
        let fuseki = own_moves_until(FUSEKI_END_FILL).min(expected);
        let middle = (own_moves_until(YOSE_START_FILL) - fuseki).min(expected - fuseki);
        let rest = expected - fuseki - middle;
        let weight_now = if middle > 0.0 && fuseki == 0.0 {
            middle_weight
        } else {
            1.0
        };
        let planned = fuseki + middle_weight * middle + rest;
        if planned <= 0.0 {
            return Some(even);
        }
        let share = self.spread_main(c) * weight_now / planned;
        (share > 0.0).then(|| Duration::from_secs_f64(share.min(3600.0)))
    }

    /// Main time never spent on a search: the safety margin, and under sudden death and
    /// Fischer the reserve for a long tail (byo-yomi is its own reserve).
    fn reserve(&self) -> f64 {
        match self.system {
            // An increment smaller than what every move costs beside its search (the
            // root's preparation, the pipes) pays for no tail: Fischer keeps the reserve.
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => {
                SAFETY_MARGIN + SUDDEN_DEATH_RESERVE * main
            }
            _ => SAFETY_MARGIN,
        }
    }

    /// `c`'s main time to spread over the moves to come: all but the reserve, and under
    /// Fischer all but the increment too, which every move spends on top of its share since
    /// the clock gives it back after the move.
    fn spread_main(&self, c: Color) -> f64 {
        let increment = match self.system {
            TimeSystem::Fischer { increment, .. } => increment,
            _ => 0.0,
        };
        self.sides[c].main - self.reserve() - increment
    }

    /// The most any one move may take where the time system limits every move (capped
    /// Fischer's `per_move`), its margin kept back; `None` elsewhere. A search stretched
    /// past its budget must stay within it.
    pub fn move_cap(&self) -> Option<Duration> {
        match self.system {
            TimeSystem::Fischer {
                per_move: Some(cap),
                ..
            } => Some(Duration::from_secs_f64(
                (cap - margin_for(cap)).clamp(0.0, 3600.0),
            )),
            _ => None,
        }
    }

    /// Seconds `c` may spend on its next move when main time is to last `expected` more
    /// of its moves (a game that knows its length, Othello's, says so), or `None` without
    /// a time limit.
    pub fn budget_for_moves(&self, c: Color, expected: f64) -> Option<Duration> {
        let side = self.sides[c];
        let expected = expected.max(1.0);
        let seconds = match self.system {
            TimeSystem::Unlimited => return None,
            TimeSystem::Absolute { .. } => (side.main - self.reserve()) / expected,
            TimeSystem::Canadian { period, stones, .. } => {
                if side.main > 0.0 {
                    let per_stone = period / stones.max(1) as f64;
                    let floor = per_stone - margin_for(per_stone);
                    (side.main / expected + floor).max(floor)
                } else {
                    (side.period_left - margin_for(side.period_left)) / side.count.max(1) as f64
                }
            }
            TimeSystem::Japanese {
                period, periods, ..
            } => {
                if side.main > 0.0 {
                    side.main / expected + period - margin_for(period)
                } else if side.count == 0 && periods > 0 {
                    0.0
                } else {
                    // A controller may report the current period part used
                    // (`time_left c 5 1` with 30 s periods): what is left of it is what
                    // the move may take without using up a period, or on the last one,
                    // without losing.
                    let current = if side.period_left > 0.0 {
                        side.period_left.min(period)
                    } else {
                        period
                    };
                    current - margin_for(current)
                }
            }
            TimeSystem::Fischer {
                increment,
                per_move,
                ..
            } => {
                // The increment plus a share of the rest: once main time is down to the
                // reserve and one increment, a move takes the increment and the clock
                // stays where it is; below that it takes less, and the clock climbs back.
                // A cap on main time takes nothing from such a clock: main time starts
                // at or below the cap and a move spending the increment keeps it there.
                let planned = increment + self.spread_main(c) / expected;
                let seconds = planned.min(side.main - margin_for(side.main));
                per_move.map_or(seconds, |cap| seconds.min(cap - margin_for(cap)))
            }
        };
        Some(Duration::from_secs_f64(seconds.clamp(0.01, 3600.0)))
    }
}

/// How many more moves of its own a player expects to make with `empties` empty points
/// on the board.
fn expected_moves(empties: usize) -> f64 {
    (empties as f64 * MOVES_EXPECTED_PER_EMPTY_POINT).max(MIN_MOVES_EXPECTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_special_cases() {
        assert_eq!(Clock::from_gtp(0.0, 1.0, 0).system(), TimeSystem::Unlimited);
        assert_eq!(
            Clock::from_gtp(300.0, 0.0, 0).system(),
            TimeSystem::Absolute { main: 300.0 }
        );
        assert_eq!(
            Clock::from_gtp(60.0, 30.0, 5).system(),
            TimeSystem::Canadian {
                main: 60.0,
                period: 30.0,
                stones: 5
            }
        );
        assert_eq!(Clock::default().budget(Color::Black, 81), None);
    }

    #[test]
    fn absolute_time_spreads_over_the_expected_moves() {
        // An empty 19x19 board: 108 moves expected.
        let mut clock = Clock::from_gtp(109.0, 0.0, 0);
        let b = clock.budget(Color::Black, 361).unwrap().as_secs_f64();
        assert!((b - 1.0).abs() < 0.05, "{b}");
        // Half the board filled: half as many moves left to spread the time over.
        let b = clock.budget(Color::Black, 180).unwrap().as_secs_f64();
        assert!((b - 2.0).abs() < 0.05, "{b}");
        // Nearly full: never fewer than MIN_MOVES_EXPECTED.
        let b = clock.budget(Color::Black, 3).unwrap().as_secs_f64();
        let spendable = 109.0 - SAFETY_MARGIN - SUDDEN_DEATH_RESERVE * 109.0;
        assert!((b - spendable / MIN_MOVES_EXPECTED).abs() < 0.05, "{b}");
        // The reserve is kept: with no more than it left, the budget is the floor.
        let mut tail = clock.clone();
        tail.charge(Color::Black, spendable);
        assert!(tail.budget(Color::Black, 3).unwrap().as_secs_f64() <= 0.01);
        clock.charge(Color::Black, 106.0);
        let b = clock.budget(Color::Black, 361).unwrap().as_secs_f64();
        assert!(b < 0.1, "{b}");
        assert!(clock.budget(Color::White, 361).unwrap().as_secs_f64() > 0.9);
    }

    #[test]
    fn only_main_time_has_a_share_to_stretch() {
        let mut clock = Clock::from_gtp(109.0, 0.0, 0);
        let share = clock.main_share(Color::Black, 361).unwrap().as_secs_f64();
        assert!((share - 1.0).abs() < 0.05, "{share}");
        clock.charge(Color::Black, 108.5);
        assert_eq!(clock.main_share(Color::Black, 361), None);
        assert_eq!(Clock::default().main_share(Color::Black, 81), None);
        // Canadian: only the main time's part of the budget, not the period's.
        let mut clock = Clock::from_gtp(25.0, 30.0, 5);
        let share = clock.main_share(Color::White, 81).unwrap().as_secs_f64();
        assert!((share - 1.0).abs() < 0.05, "{share}");
        clock.set_left(Color::White, 30.0, 5);
        assert_eq!(clock.main_share(Color::White, 81), None);
    }

    /// A 15 min sudden-death clock, and the seconds of it a search may spend.
    fn fifteen_minutes() -> (Clock, f64) {
        let clock = Clock::from_gtp(900.0, 0.0, 0);
        (clock, 900.0 - SAFETY_MARGIN - SUDDEN_DEATH_RESERVE * 900.0)
    }

    fn seconds(share: Option<Duration>) -> f64 {
        share.unwrap().as_secs_f64()
    }

    #[test]
    fn the_middle_game_share_grows_through_the_fuseki_and_falls_back_at_the_yose() {
        let (clock, spendable) = fifteen_minutes();
        let share = |empties| seconds(clock.middle_game_share(Color::Black, empties, 361));
        let even = |empties| seconds(clock.main_share(Color::Black, empties));
        // An empty board: the even share.
        assert!((share(361) - even(361)).abs() < 1e-9);
        // Just past the fuseki's end (a fifth of 361 taken; 288 empty): 86.4 moves
        // expected, 35.7 of them before the yose (216.6 empty), so the time is spread over
        // the other 50.7.
        let middle = spendable / (288.0 * MOVES_EXPECTED_PER_EMPTY_POINT - 35.7);
        assert!(
            (share(288) - middle).abs() < 0.01,
            "{} {middle}",
            share(288)
        );
        // Halfway through the fuseki, between the two.
        let fuseki = share(325);
        assert!(fuseki > even(325) && fuseki < share(288), "{fuseki}");
        // The middle game, and from the yose on the even share again.
        assert!(share(250) > 1.25 * even(250));
        assert!((share(216) - even(216)).abs() < 1e-9);
        assert!((share(100) - even(100)).abs() < 1e-9);
        // Never more than main time spread over the fewest moves (a small board).
        let s = clock.middle_game_share(Color::Black, 22, 25).unwrap();
        assert!(s.as_secs_f64() <= spendable / MIN_MOVES_EXPECTED + 1e-9);
        // No main time, no share.
        let byo = Clock::from_gtp(0.0, 30.0, 5);
        assert_eq!(byo.middle_game_share(Color::Black, 300, 361), None);
    }

    #[test]
    fn the_phase_weighted_share_is_flat_through_the_fuseki_and_peaks_as_the_middle_game_starts() {
        let (clock, spendable) = fifteen_minutes();
        let share = |empties, weight| {
            seconds(clock.phase_weighted_share(Color::Black, empties, 361, weight))
        };
        let even = |empties| seconds(clock.main_share(Color::Black, empties));
        // Weight 1 is the even share, in every phase.
        for empties in [361, 320, 288, 250, 216, 100, 20] {
            assert!(
                (share(empties, 1.0) - even(empties)).abs() < 1e-9,
                "{empties}"
            );
        }
        // An empty board: 108.3 moves expected, 36.1 in the fuseki and 36.1 in the middle
        // game, which weigh 1.5: 126.35 in all, and a fuseki move takes one.
        assert!((share(361, 1.5) - spendable / 126.35).abs() < 0.01);
        assert!(share(361, 1.5) < even(361));
        // The first middle-game move (288 empty): 86.4 moves expected, 35.7 of them before
        // the yose, each taking one and a half: a quarter more than the even share.
        let first_middle = spendable * 1.5 / (1.5 * 35.7 + 86.4 - 35.7);
        assert!(
            (share(288, 1.5) - first_middle).abs() < 0.01,
            "{}",
            share(288, 1.5)
        );
        assert!(share(288, 1.5) > 1.2 * even(288));
        // From the yose on, the even share.
        assert!((share(216, 1.5) - even(216)).abs() < 1e-9);
        // No main time, no share.
        let byo = Clock::from_gtp(0.0, 30.0, 5);
        assert_eq!(byo.phase_weighted_share(Color::Black, 300, 361, 1.5), None);
    }

    #[test]
    fn canadian_byoyomi_uses_the_period_per_stone() {
        let mut clock = Clock::from_gtp(0.0, 50.0, 5);
        let b = clock.budget(Color::White, 81).unwrap().as_secs_f64();
        assert!((b - 9.8).abs() < 0.01, "{b}");
        clock.set_left(Color::White, 11.0, 1);
        let b = clock.budget(Color::White, 81).unwrap().as_secs_f64();
        assert!((b - 10.0).abs() < 0.01, "{b}");
    }

    #[test]
    fn a_short_period_keeps_a_quarter_for_the_margin_not_all_of_it() {
        // `time_settings 0 1 1`: 1 s a move.
        let mut clock = Clock::from_gtp(0.0, 1.0, 1);
        let b = seconds(clock.budget(Color::Black, 81));
        assert!((b - 0.75).abs() < 0.01, "{b}");
        clock.charge(Color::Black, 0.8);
        let b = seconds(clock.budget(Color::Black, 81));
        assert!((b - 0.75).abs() < 0.01, "a new period each stone: {b}");
        // 2 s a move keeps half a second; from 4 s on, the whole margin.
        let two = seconds(Clock::from_gtp(0.0, 2.0, 1).budget(Color::White, 81));
        assert!((two - 1.5).abs() < 0.01, "{two}");
        let eight = seconds(Clock::from_gtp(0.0, 8.0, 1).budget(Color::White, 81));
        assert!((eight - 7.0).abs() < 0.01, "{eight}");
        let japanese = Clock::new(TimeSystem::Japanese {
            main: 0.0,
            period: 1.0,
            periods: 5,
        });
        let b = seconds(japanese.budget(Color::Black, 81));
        assert!((b - 0.75).abs() < 0.01, "{b}");
    }

    #[test]
    fn japanese_byoyomi_keeps_a_period_per_move() {
        let mut clock = Clock::new(TimeSystem::Japanese {
            main: 0.0,
            period: 10.0,
            periods: 3,
        });
        assert!((clock.budget(Color::Black, 81).unwrap().as_secs_f64() - 9.0).abs() < 0.01);
        clock.charge(Color::Black, 25.0);
        assert!((clock.budget(Color::Black, 81).unwrap().as_secs_f64() - 9.0).abs() < 0.01);
        // A server reporting the last period part used: the move keeps within what is left.
        clock.set_left(Color::Black, 5.0, 1);
        let budget = clock.budget(Color::Black, 81).unwrap().as_secs_f64();
        assert!((3.5..5.0).contains(&budget), "{budget}");
    }

    fn fischer(main: f64, increment: f64) -> Clock {
        Clock::new(TimeSystem::Fischer {
            main,
            increment,
            limit: None,
            per_move: None,
        })
    }

    #[test]
    fn fischer_spends_the_increment_and_a_share_of_the_rest() {
        // 60 s + 2 s a move on an empty 9x9 board: 24.3 moves expected, over which main
        // time is spread but for the reserve and the increment, which every move spends.
        let clock = fischer(60.0, 2.0);
        let reserve = SAFETY_MARGIN + SUDDEN_DEATH_RESERVE * 60.0;
        let spread = (60.0 - reserve - 2.0) / 24.3;
        let b = seconds(clock.budget(Color::Black, 81));
        assert!((b - (2.0 + spread)).abs() < 0.01, "{b}");
        // The share a search may stretch by is of main time only.
        let share = seconds(clock.main_share(Color::Black, 81));
        assert!((share - spread).abs() < 0.01, "{share}");
        // Down to the reserve and one increment: the increment, and nothing to stretch.
        let mut low = clock.clone();
        low.set_left(Color::Black, reserve + 2.0, 0);
        let b = seconds(low.budget(Color::Black, 81));
        assert!((b - 2.0).abs() < 0.01, "{b}");
        assert_eq!(low.main_share(Color::Black, 81), None);
        // Below that, less than the increment, so that the clock climbs back.
        low.set_left(Color::Black, reserve + 1.0, 0);
        let b = seconds(low.budget(Color::Black, 81));
        assert!((b - (2.0 - 1.0 / 24.3)).abs() < 0.01, "{b}");
        // Never more than main time, less its margin.
        low.set_left(Color::Black, 1.0, 0);
        let b = seconds(low.budget(Color::Black, 81));
        assert!((b - 0.75).abs() < 0.01, "{b}");
        // The increment comes after the move.
        let mut clock = clock;
        clock.charge(Color::White, 5.0);
        assert!((clock.sides[Color::White].main - 57.0).abs() < 1e-9);
    }

    #[test]
    fn capped_fischer_keeps_main_time_under_its_limit_and_each_move_under_its_cap() {
        let mut clock = Clock::new(TimeSystem::Fischer {
            main: 30.0,
            increment: 10.0,
            limit: Some(35.0),
            per_move: Some(8.0),
        });
        // 10 s and a share of the rest would be planned; the cap, less its margin, holds.
        assert!((seconds(clock.budget(Color::Black, 81)) - 7.0).abs() < 1e-9);
        assert_eq!(clock.move_cap(), Some(Duration::from_secs(7)));
        clock.charge(Color::Black, 2.0);
        assert_eq!(clock.sides[Color::Black].main, 35.0);
        assert_eq!(fischer(30.0, 10.0).move_cap(), None);
    }

    #[test]
    fn a_fischer_clock_never_runs_out_whatever_the_increment() {
        // Each move takes its budget, the stretch a search still undecided may add, and
        // 50 ms the budget does not see (the root's preparation, the pipes): main time must
        // never run out over a long game, from a tenth of a second a move up.
        for (points, main, increment) in [
            (81, 60.0, 2.0),
            (81, 10.0, 0.1),
            (361, 180.0, 5.0),
            (361, 30.0, 0.25),
        ] {
            let mut clock = fischer(main, increment);
            let mut lowest = main;
            for own_moves in 0..300 {
                let empties = points - (2 * own_moves).min(points * 4 / 5);
                let budget = seconds(clock.budget(Color::Black, empties));
                let stretch = clock
                    .main_share(Color::Black, empties)
                    .map_or(0.0, |s| s.as_secs_f64());
                let used = budget + stretch + 0.05;
                let left = clock.sides[Color::Black].main;
                assert!(
                    used < left,
                    "{main}+{increment} on {points} points, move {own_moves}: {used} of {left}"
                );
                lowest = lowest.min(left - used);
                clock.charge(Color::Black, used);
            }
            // What is left at the worst moment is no accident.
            assert!(lowest > 0.2, "{main}+{increment}: {lowest}");
        }
    }
}
