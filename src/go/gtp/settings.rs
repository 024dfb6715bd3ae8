//! Settings changed while the engine runs, for the settings shicho has, in two dialects:
//! - KataGo's (its `docs/GTP_Extensions.md`): `kata-set-param NAME VALUE`,
//!   `kata-get-param NAME`, `kata-list-params`; KataGo's names where it has one
//!   (`maxVisits`, `maxPlayouts`, `maxTime`, `numSearchThreads`, `ponderingEnabled`,
//!   `wideRootNoise`, `analysisWideRootNoise`) and its way with them, shicho's own beside
//!   them (`level`, `maxMemory`).
//! - Leela Zero's (its `src/GTP.cpp`): `lz-setoption name NAME value VALUE`, the name of
//!   one or more words in any case (`Visits`, `Playouts`, `Maximum Memory Use (MiB)`,
//!   `Pondering`, and shicho's `Level`), as LizzieYzy and scripts around Leela Zero send
//!   them; without arguments, the options in UCI's form.
//!
//! A value is checked whole before anything changes: a failed command changes nothing.

use std::time::Duration;

use crate::go::analysis::settings;
use crate::go::gtp::state::State;
use crate::go::search::memory;
use crate::go::search::{DEFAULT_PLAYOUTS, Level};
use crate::gtp::args::arity;
use crate::gtp::error::GtpError;
use crate::gtp::parse::parse_float;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("kata-list-params", kata_list_params),
    command("kata-get-param", kata_get_param),
    command("kata-set-param", kata_set_param),
    command("lz-setoption", lz_setoption),
];

/// The settings, in the order `kata-list-params` gives them.
pub const PARAMS: &[&str] = &[
    "maxVisits",
    "maxPlayouts",
    "maxTime",
    "numSearchThreads",
    "ponderingEnabled",
    "wideRootNoise",
    "analysisWideRootNoise",
    "level",
    "maxMemory",
];

/// KataGo's figure for "no limit" on simulations (its default `maxVisits`, 2^50), reported
/// when only the clock limits a search.
const NO_SIMULATION_CAP: u64 = 1 << 50;
/// KataGo's figure for "no limit" on a move's time (its default `maxTime`), reported when
/// none is set. A `maxTime` from [`NO_TIME_CAP_FROM`] on sets none.
const NO_TIME_CAP: &str = "1e20";
/// Seconds from which a `maxTime` is no limit at all (a thousand years).
const NO_TIME_CAP_FROM: f64 = 3.2e10;
/// The most search threads (as `--threads`).
const MAX_THREADS: usize = 64;

fn kata_list_params(_: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(PARAMS.join(" "))
}

/// `kata-get-param NAME`: the setting's value, as `kata-set-param` takes it back.
fn kata_get_param(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let params = s.params();
    let value = match args[0].as_str() {
        // Simulations per move: the cap set, else the default's without a time limit.
        "maxVisits" | "maxPlayouts" => match (params.playouts, params.time) {
            (Some(n), _) => n.to_string(),
            (None, None) => DEFAULT_PLAYOUTS.to_string(),
            (None, Some(_)) => NO_SIMULATION_CAP.to_string(),
        },
        "maxTime" => match params.time {
            Some(t) => t.as_secs_f64().to_string(),
            None => NO_TIME_CAP.to_string(),
        },
        "numSearchThreads" => params.threads.to_string(),
        "ponderingEnabled" => s.ponder().to_string(),
        "wideRootNoise" => s.wide_root_noise().to_string(),
        "analysisWideRootNoise" => s.analysis_wide_root_noise().to_string(),
        "level" => s.level().to_string(),
        "maxMemory" => s
            .max_memory()
            .unwrap_or_else(|| memory::default_mib(params.threads))
            .to_string(),
        other => return Err(bad(format!("Invalid parameter: {other}"))),
    };
    Ok(value)
}

/// `kata-set-param NAME VALUE`: changes a setting from the next search on.
/// - `maxVisits`, `maxPlayouts`: the simulations a search runs at most (a whole number
///   from 1). shicho counts the simulations of one search, not the visits a kept tree
///   brought, so the two are one setting.
/// - `maxTime`: the seconds a move may take (above 0), besides the clock's budget; from a
///   thousand years on, none.
/// - `numSearchThreads`: 1 to 64.
/// - `ponderingEnabled`: `true` or `false` (`--ponder`).
/// - `wideRootNoise`, `analysisWideRootNoise`: 0 to 5, the root noise of genmove's searches
///   and of `kata-analyze`/`lz-analyze` (0 by default: no noise).
/// - `level`: 1 to 10 (`--level`).
/// - `maxMemory`: MiB (`--max-memory`).
fn kata_set_param(s: &mut State, args: &[String]) -> Reply {
    arity(args, 2)?;
    let (name, value) = (args[0].as_str(), args[1].as_str());
    let could_not = |why: String| bad(format!("Could not set params: {why}"));
    match name {
        "maxVisits" | "maxPlayouts" => {
            let n = value
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| could_not(format!("{name} must be a whole number from 1")))?;
            s.set_playout_cap(Some(usize::try_from(n).unwrap_or(usize::MAX)));
        }
        "maxTime" => {
            // Above 0 once a Duration: a time that rounds to nothing would stop every search
            // before its first simulation.
            let seconds = parse_float(value)
                .ok()
                .filter(|&t| t.is_finite() && t >= 1e-9)
                .ok_or_else(|| could_not("maxTime must be seconds above 0".into()))?;
            let time = (seconds < NO_TIME_CAP_FROM).then(|| Duration::from_secs_f64(seconds));
            s.set_move_time(time);
        }
        "numSearchThreads" => {
            let threads = value
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_THREADS).contains(n))
                .ok_or_else(|| could_not(format!("{name} must be 1 to {MAX_THREADS}")))?;
            s.set_memory_and_threads(s.max_memory(), threads)
                .map_err(|e| could_not(format!("maxMemory {e}")))?;
        }
        "ponderingEnabled" => {
            let ponder = value
                .parse::<bool>()
                .map_err(|_| could_not(format!("{name} must be true or false")))?;
            s.set_ponder(ponder);
        }
        "wideRootNoise" | "analysisWideRootNoise" => {
            let noise = settings::wide_root_noise(name, value).map_err(could_not)?;
            if name == "wideRootNoise" {
                s.set_wide_root_noise(noise);
            } else {
                s.set_analysis_wide_root_noise(noise);
            }
        }
        "level" => {
            let level = value
                .parse::<Level>()
                .map_err(|e| could_not(e.to_string()))?;
            s.set_level(level);
        }
        "maxMemory" => {
            let mib = value
                .parse::<usize>()
                .map_err(|_| could_not("maxMemory must be a whole number of MiB".into()))?;
            let threads = s.params().threads;
            s.set_memory_and_threads(Some(mib), threads)
                .map_err(|e| could_not(format!("maxMemory {e}")))?;
        }
        other => {
            return Err(could_not(format!(
                "Unrecognized or non-overridable parameter in kata-set-params: {other}"
            )));
        }
    }
    Ok(String::new())
}

/// The most `Maximum Memory Use (MiB)` takes (1 TiB; the spin option needs a top).
const LZ_MAX_MEMORY: usize = 1 << 20;
/// Leela Zero's top for `Visits` and `Playouts`.
const LZ_MAX_VISITS: usize = 1_000_000_000;

/// `lz-setoption name NAME value VALUE`: changes a setting from the next search on, as
/// `kata-set-param` does; the name in any case.
/// - `Visits`, `Playouts`: the simulations a search runs at most; 0 none of its own (as
///   without `--playouts`: the default, or what the clock allows).
/// - `Maximum Memory Use (MiB)`: as `maxMemory`.
/// - `Pondering`: `true` or `false`.
/// - `Level`: 1 to 10.
///
/// Without arguments: the options, one a line, as Leela Zero lists them.
fn lz_setoption(s: &mut State, args: &[String]) -> Reply {
    if args.is_empty() {
        return Ok(lz_options(s));
    }
    let syntax = || bad("incorrect syntax for lz-setoption".into());
    // Leela Zero reads its whole input in lower case.
    if !args[0].eq_ignore_ascii_case("name") {
        return Err(syntax());
    }
    let at_value = args
        .iter()
        .position(|a| a.eq_ignore_ascii_case("value"))
        .ok_or_else(syntax)?;
    let name = args[1..at_value].join(" ").to_ascii_lowercase();
    let value = args[at_value + 1..].join(" ").to_ascii_lowercase();
    if name.is_empty() || value.is_empty() {
        return Err(syntax());
    }
    let incorrect = |why: &str| bad(format!("incorrect value: {why}"));
    match name.as_str() {
        "visits" | "playouts" => {
            let n = value
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= LZ_MAX_VISITS)
                .ok_or_else(|| incorrect(&format!("{name} must be 0 to {LZ_MAX_VISITS}")))?;
            s.set_playout_cap((n > 0).then_some(n));
        }
        "maximum memory use (mib)" => {
            let mib = value
                .parse::<usize>()
                .ok()
                .filter(|&mib| mib <= LZ_MAX_MEMORY)
                .ok_or_else(|| incorrect("a whole number of MiB"))?;
            let threads = s.params().threads;
            s.set_memory_and_threads(Some(mib), threads)
                .map_err(|e| incorrect(&e.to_string()))?;
        }
        "pondering" => {
            let ponder = value
                .parse::<bool>()
                .map_err(|_| incorrect("pondering must be true or false"))?;
            s.set_ponder(ponder);
        }
        "level" => {
            let level = value
                .parse::<Level>()
                .map_err(|e| incorrect(&e.to_string()))?;
            s.set_level(level);
        }
        _ => return Err(bad("Unknown option".into())),
    }
    Ok(String::new())
}

/// The options `lz-setoption` takes, in UCI's form as Leela Zero gives them, each with the
/// value the engine has without options (the memory's for the threads it has now).
fn lz_options(s: &State) -> String {
    let threads = s.params().threads;
    [
        format!(
            "option name Maximum Memory Use (MiB) type spin default {} min {} max {LZ_MAX_MEMORY}",
            memory::default_mib(threads),
            memory::min_mib(threads)
        ),
        format!("option name Visits type spin default 0 min 0 max {LZ_MAX_VISITS}"),
        format!("option name Playouts type spin default 0 min 0 max {LZ_MAX_VISITS}"),
        "option name Pondering type check default false".into(),
        "option name Level type spin default 10 min 1 max 10".into(),
    ]
    .join("\n")
}

fn bad(text: String) -> GtpError {
    GtpError::BadArgument(text)
}
