//! Time commands: the time system and the clocks (GTP's, KGS's and KataGo's). They work for
//! any game's state: the clocks are in its [`Common`](crate::gtp::state::Common) part.

use std::marker::PhantomData;

use crate::clock::{Clock, TimeSystem};
use crate::gtp::args::{arity, color, float, int};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::state::GtpState;
use crate::gtp::table::{Command, command};

/// The time family for the state type `S`.
pub struct Time<S>(PhantomData<S>);

impl<S: GtpState> Time<S> {
    pub const COMMANDS: &'static [Command<S>] = &[
        command("time_settings", time_settings::<S>),
        command("time_left", time_left::<S>),
        command("kgs-time_settings", kgs_time_settings::<S>),
        command("kata-time_settings", |s, a| set_system(s, a, &KATA_KINDS)),
        command("kata-list_time_settings", |_, a| {
            arity(a, 0).map(|()| KATA_KINDS.join(" "))
        }),
    ];
}

/// The time systems `kgs-time_settings` names.
const KGS_KINDS: [&str; 4] = ["none", "absolute", "byoyomi", "canadian"];

/// The time systems `kata-time_settings` names, in the order (and one line) KataGo's
/// `kata-list_time_settings` answers them: GTP2OGS looks for `fischer-capped` in it.
const KATA_KINDS: [&str; 6] = [
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "fischer",
    "fischer-capped",
];

/// A time value: GTP says int, KataGo-style controllers send floats; both are taken.
fn seconds(text: &str) -> Result<f64, GtpError> {
    let x = float(text)?;
    if x < 0.0 {
        Err(GtpError::Syntax)
    } else {
        Ok(x)
    }
}

/// A limit of `fischer-capped`: KataGo's convention is that a negative one (`-1`, which
/// GTP2OGS sends for the time per move) means there is none.
fn optional_seconds(text: &str) -> Result<Option<f64>, GtpError> {
    let x = float(text)?;
    Ok((x >= 0.0).then_some(x))
}

fn time_settings<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 3)?;
    let main = seconds(&args[0])?;
    let byo = seconds(&args[1])?;
    let stones = int(&args[2])?;
    s.common_mut().clock = Clock::from_gtp(main, byo, stones);
    Ok(String::new())
}

fn time_left<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 3)?;
    let c = color(&args[0])?;
    let time = float(&args[1])?;
    let stones = int(&args[2])?;
    // Stones under a Fischer clock would leave the budget nothing to read; KataGo refuses
    // them too.
    let fischer = matches!(s.common().clock.system(), TimeSystem::Fischer { .. });
    if stones > 0 && fischer {
        return Err(GtpError::NoByoYomi);
    }
    s.common_mut().clock.set_left(c, time, stones);
    Ok(String::new())
}

/// KGS's command keeps the answer it always gave to a kind it does not take, GTP's syntax
/// error; KataGo's names the kinds.
fn kgs_time_settings<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    set_system(s, args, &KGS_KINDS).map_err(|e| match e {
        GtpError::UnknownTimeSystem(_) => GtpError::Syntax,
        e => e,
    })
}

/// KGS's `kgs-time_settings none | absolute M | canadian M B S | byoyomi M B P` and, with
/// the `kinds` of KataGo's `kata-time_settings`, `fischer M I` and `fischer-capped M I L T`
/// (main time never above L, no move longer than T; negative: no such limit). Canadian with
/// no stones reads as GTP's `time_settings` does: no limit, or absolute without a period.
fn set_system<S: GtpState>(s: &mut S, args: &[String], kinds: &'static [&'static str]) -> Reply {
    let Some((kind, values)) = args.split_first() else {
        return Err(GtpError::Syntax);
    };
    if !kinds.contains(&kind.as_str()) {
        return Err(GtpError::UnknownTimeSystem(kinds));
    }
    let system = match (kind.as_str(), values) {
        ("none", []) => TimeSystem::Unlimited,
        ("absolute", [main]) => TimeSystem::Absolute {
            main: seconds(main)?,
        },
        ("canadian", [main, period, stones]) => {
            Clock::from_gtp(seconds(main)?, seconds(period)?, int(stones)?).system()
        }
        ("byoyomi", [main, period, periods]) => {
            let (main, period, periods) = (seconds(main)?, seconds(period)?, int(periods)?);
            if periods == 0 {
                TimeSystem::Absolute { main }
            } else {
                TimeSystem::Japanese {
                    main,
                    period,
                    periods,
                }
            }
        }
        ("fischer", [main, increment]) => TimeSystem::Fischer {
            main: seconds(main)?,
            increment: seconds(increment)?,
            limit: None,
            per_move: None,
        },
        ("fischer-capped", [main, increment, limit, per_move]) => {
            let (main, increment) = (seconds(main)?, seconds(increment)?);
            let (limit, per_move) = (optional_seconds(limit)?, optional_seconds(per_move)?);
            if limit.is_some_and(|limit| limit < main) {
                return Err(GtpError::LimitBelowMainTime);
            }
            TimeSystem::Fischer {
                main,
                increment,
                limit,
                per_move,
            }
        }
        _ => return Err(GtpError::Syntax),
    };
    s.common_mut().clock = Clock::new(system);
    Ok(String::new())
}

/// `cputime`: the process's CPU seconds (user and system), as GoGui shows them.
pub fn cputime<S>(_: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(format!("{:.3}", process_cpu_seconds()))
}

#[cfg(unix)]
fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we hand it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

#[cfg(not(unix))]
fn process_cpu_seconds() -> f64 {
    0.0
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::go::gtp::GO;
    use crate::go::gtp::state::{Config, State};

    fn run(s: &mut State, line: &str) -> Reply {
        let mut words = line.split_whitespace().map(String::from);
        let name = words.next().unwrap_or_default();
        let args: Vec<String> = words.collect();
        let command = GO.find(s, &name).ok_or(GtpError::UnknownCommand)?;
        (command.run)(s, &args)
    }

    fn state() -> State {
        State::with_interrupt(&Config::default(), &GO, Arc::default())
    }

    #[test]
    fn kata_time_settings_reads_each_kind_as_katago_does() {
        let mut s = state();
        let cases = [
            ("none", TimeSystem::Unlimited),
            ("absolute 600", TimeSystem::Absolute { main: 600.0 }),
            (
                "canadian 600 30.5 5",
                TimeSystem::Canadian {
                    main: 600.0,
                    period: 30.5,
                    stones: 5,
                },
            ),
            // No stones: no limit with a period, absolute without.
            ("canadian 600 30 0", TimeSystem::Unlimited),
            ("canadian 600 0 0", TimeSystem::Absolute { main: 600.0 }),
            (
                "byoyomi 600 30 5",
                TimeSystem::Japanese {
                    main: 600.0,
                    period: 30.0,
                    periods: 5,
                },
            ),
            ("byoyomi 600 30 0", TimeSystem::Absolute { main: 600.0 }),
            (
                "fischer 60 2.5",
                TimeSystem::Fischer {
                    main: 60.0,
                    increment: 2.5,
                    limit: None,
                    per_move: None,
                },
            ),
            // GTP2OGS's form: OGS's cap on main time, no limit per move.
            (
                "fischer-capped 60 2 120 -1",
                TimeSystem::Fischer {
                    main: 60.0,
                    increment: 2.0,
                    limit: Some(120.0),
                    per_move: None,
                },
            ),
            (
                "fischer-capped 60 2 -1 10",
                TimeSystem::Fischer {
                    main: 60.0,
                    increment: 2.0,
                    limit: None,
                    per_move: Some(10.0),
                },
            ),
        ];
        for (args, system) in cases {
            assert_eq!(
                run(&mut s, &format!("kata-time_settings {args}")),
                Ok(String::new())
            );
            assert_eq!(s.common().clock.system(), system, "{args}");
        }
        assert_eq!(
            run(&mut s, "kata-list_time_settings"),
            Ok("none absolute byoyomi canadian fischer fischer-capped".to_string())
        );
    }

    #[test]
    fn a_refused_time_command_leaves_the_clocks_as_they_were() {
        let mut s = state();
        run(&mut s, "kata-time_settings fischer-capped 60 2 90 -1").unwrap();
        run(&mut s, "time_left b 42.5 0").unwrap();
        let before = s.common().clock.clone();
        let refused = [
            ("kata-time_settings", GtpError::Syntax),
            ("kata-time_settings fischer 60", GtpError::Syntax),
            ("kata-time_settings fischer 60 2 3", GtpError::Syntax),
            ("kata-time_settings fischer -60 2", GtpError::Syntax),
            ("kata-time_settings fischer 60 nan", GtpError::Syntax),
            (
                "kata-time_settings fischer-capped 60 2 x -1",
                GtpError::Syntax,
            ),
            (
                "kata-time_settings fischer-capped 60 2 30 -1",
                GtpError::LimitBelowMainTime,
            ),
            (
                "kata-time_settings blitz 60",
                GtpError::UnknownTimeSystem(&KATA_KINDS),
            ),
            (
                "kata-time_settings Fischer 60 2",
                GtpError::UnknownTimeSystem(&KATA_KINDS),
            ),
            ("kgs-time_settings fischer 60 2", GtpError::Syntax),
            ("kata-time_settings none 5", GtpError::Syntax),
            ("kata-list_time_settings x", GtpError::Syntax),
            // A Fischer clock has no periods to count stones in.
            ("time_left b 30 1", GtpError::NoByoYomi),
            ("time_left w 30", GtpError::Syntax),
        ];
        for (line, error) in refused {
            assert_eq!(run(&mut s, line), Err(error), "{line}");
            assert_eq!(s.common().clock, before, "{line}");
        }
    }
}
