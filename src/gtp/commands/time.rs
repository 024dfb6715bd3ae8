//! Time commands: the time system and the clocks (GTP's and KGS's). They work for any
//! game's state that keeps a [`Clock`] ([`Clocked`]).

use std::marker::PhantomData;

use crate::gtp::commands::args::{arity, color, float, int};
use crate::gtp::commands::command_table::{Clocked, Command, command};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::search::time::{Clock, TimeSystem};

/// The time family for the state type `S`.
pub struct Time<S>(PhantomData<S>);

impl<S: Clocked> Time<S> {
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

fn time_settings<S: Clocked>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 3)?;
    let main = seconds(&args[0])?;
    let byo = seconds(&args[1])?;
    let stones = int(&args[2])?;
    s.set_clock(Clock::from_gtp(main, byo, stones));
    Ok(String::new())
}

fn time_left<S: Clocked>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 3)?;
    let c = color(&args[0])?;
    let time = float(&args[1])?;
    let stones = int(&args[2])?;
    s.set_time_left(c, time, stones);
    Ok(String::new())
}

/// KGS's `kgs-time_settings none | absolute M | canadian M B S | byoyomi M B P`.
fn kgs_time_settings<S: Clocked>(s: &mut S, args: &[String]) -> Reply {
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
    s.set_clock(Clock::new(system));
    Ok(String::new())
}
