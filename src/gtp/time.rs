//! Time commands: the time system and the clocks (GTP's and KGS's). They work for any
//! game's state: the clocks are in its [`Common`](crate::gtp::state::Common) part.

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
    ];
}

/// A time value: GTP says int, KataGo-style controllers send floats; both are taken.
fn seconds(text: &str) -> Result<f64, GtpError> {
    let x = float(text)?;
    if x < 0.0 {
        Err(GtpError::Syntax)
    } else {
        Ok(x)
    }
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
    s.common_mut().clock.set_left(c, time, stones);
    Ok(String::new())
}

/// KGS's `kgs-time_settings none | absolute M | canadian M B S | byoyomi M B P`.
fn kgs_time_settings<S: GtpState>(s: &mut S, args: &[String]) -> Reply {
    let system = match args.first().map(String::as_str) {
        Some("none") if args.len() == 1 => TimeSystem::Unlimited,
        Some("absolute") if args.len() == 2 => TimeSystem::Absolute {
            main: seconds(&args[1])?,
        },
        Some("canadian") if args.len() == 4 => {
            let (main, period, stones) = (seconds(&args[1])?, seconds(&args[2])?, int(&args[3])?);
            if stones == 0 {
                TimeSystem::Unlimited
            } else {
                TimeSystem::Canadian {
                    main,
                    period,
                    stones,
                }
            }
        }
        Some("byoyomi") if args.len() == 4 => {
            let (main, period, periods) = (seconds(&args[1])?, seconds(&args[2])?, int(&args[3])?);
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
