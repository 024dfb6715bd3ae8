//! `shicho analysis`: its options and the engine they make (`go::analysis`).
//!
//! KaTrain and other front ends start KataGo's analysis engine with KataGo's own command
//! line: `analysis -model FILE -config FILE -override-config key=value,...`, single
//! dashes, sometimes `-human-model FILE`, `-analysis-threads N`, `-quit-without-waiting`.
//! shicho takes that command line as it comes ([`katago_flags`] reads its single dashes
//! as double ones): `-override-config` sets what shicho has of it (visits, time, threads,
//! the perspective), `-analysis-threads` and `-quit-without-waiting` are honoured, and
//! KataGo's model and configuration files, which shicho cannot use, are ignored with a
//! warning on stderr.

use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Args;

use crate::go::analysis::{self, Config, MAX_SEARCH_THREADS, MAX_VISITS, Perspective, Settings};
use crate::go::search::{DEFAULT_WEIGHTS, Network, Tunables};

/// Run as KataGo's JSON analysis engine (for KaTrain and other review tools): one JSON
/// query a line on stdin, one JSON answer a line on stdout (doc/analysis-engine.md).
#[derive(Args, Clone, Debug, Default)]
pub struct Options {
    /// Positions analysed at once (KataGo's numAnalysisThreads; default: one a core).
    #[arg(long, visible_alias = "analysis-threads")]
    pub threads: Option<usize>,
    /// Threads searching each position together (KataGo's
    /// numSearchThreadsPerAnalysisThread; default 1).
    #[arg(long)]
    pub search_threads: Option<usize>,
    /// Visits (simulations) per position when a query does not say (default 500).
    #[arg(long)]
    pub max_visits: Option<usize>,
    /// Seconds per position at most when a query does not say (default: no limit).
    #[arg(long)]
    pub max_time: Option<f64>,
    /// Whose side win rates, scores and ownership take when a query does not say: black
    /// (default, as KataGo's example configuration), white or sidetomove.
    #[arg(long, value_name = "SIDE")]
    pub report_as: Option<String>,
    /// The neural network: builtin, none (the classic engine) or a safetensors file.
    #[arg(long, default_value = DEFAULT_WEIGHTS)]
    pub weights: String,
    /// The first search's seed (each position searched gets the next).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What `query_version` answers instead of shicho's version.
    #[arg(long, value_name = "VERSION")]
    pub override_version: Option<String>,
    /// When the input ends, stop searching rather than answer every queued position.
    #[arg(long)]
    pub quit_without_waiting: bool,
    /// KataGo's settings, key=value,...: shicho's own are taken (maxVisits, maxTime,
    /// numAnalysisThreads, numSearchThreads, reportAnalysisWinratesAs, its tunables), the
    /// others ignored with a warning.
    #[arg(long, value_name = "SETTINGS")]
    pub override_config: Vec<String>,
    /// KataGo's network file: ignored (shicho plays with --weights), with a warning.
    #[arg(long, value_name = "FILE")]
    pub model: Option<String>,
    /// KataGo's human-like network: ignored, with a warning.
    #[arg(long, value_name = "FILE")]
    pub human_model: Option<String>,
    /// KataGo's configuration file: ignored, with a warning (-override-config is read).
    #[arg(long, value_name = "FILE")]
    pub config: Vec<String>,
}

/// KataGo's flags of its analysis command, which it writes with one dash.
const KATAGO_FLAGS: [&str; 6] = [
    "model",
    "human-model",
    "config",
    "override-config",
    "analysis-threads",
    "quit-without-waiting",
];

/// The command line with KataGo's single-dash flags after `analysis` (`-model FILE`,
/// `-config=FILE`) written with two dashes, as clap reads them.
pub fn katago_flags(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut after_analysis = false;
    args.into_iter()
        .map(|arg| {
            let text = arg.to_string_lossy();
            if !after_analysis {
                after_analysis = text == "analysis";
                return arg;
            }
            let single = text
                .strip_prefix('-')
                .filter(|rest| !rest.starts_with('-'))
                .map(|rest| rest.split('=').next().unwrap_or(rest));
            match single {
                Some(name) if KATAGO_FLAGS.contains(&name) => format!("-{text}").into(),
                _ => arg,
            }
        })
        .collect()
}

/// The engine's configuration from the options, with the warnings for what is ignored.
///
/// # Errors
/// A value shicho cannot use (the text says which).
pub fn config(options: &Options) -> Result<Config, String> {
    if let Some(model) = &options.model {
        log::warn!(
            "-model {model}: shicho cannot read KataGo's networks and analyses with its own \
             (--weights {})",
            options.weights
        );
    }
    if let Some(model) = &options.human_model {
        log::warn!("-human-model {model}: shicho has no human-like network; ignored");
    }
    for file in &options.config {
        log::warn!("-config {file}: shicho reads no KataGo configuration file; ignored");
    }
    let mut settings = Settings {
        tunables: Tunables::from_env(),
        ..Settings::default()
    };
    let mut workers = None;
    for pair in options.override_config.iter().flat_map(|o| o.split(',')) {
        let Some((key, value)) = pair.split_once('=') else {
            if !pair.trim().is_empty() {
                return Err(format!("-override-config: '{pair}' is not key=value"));
            }
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key == "numAnalysisThreads" {
            let n = value
                .parse::<usize>()
                .map_err(|_| format!("-override-config: numAnalysisThreads={value}"))?;
            workers = Some(n);
            continue;
        }
        match settings.set(key, value) {
            Ok(true) => {}
            Ok(false) => log::warn!("-override-config {key}: shicho has no such setting; ignored"),
            Err(why) => return Err(format!("-override-config: {why}")),
        }
    }
    if let Some(n) = options.max_visits {
        settings.max_visits = n.clamp(1, MAX_VISITS);
    }
    if let Some(t) = options.max_time {
        if !(t.is_finite() && t >= 0.0) {
            return Err("--max-time must be a number of seconds, 0 or more".into());
        }
        settings.max_time = Some(Duration::from_secs_f64(t.min(1e9)));
    }
    if let Some(n) = options.search_threads {
        settings.search_threads = n.clamp(1, MAX_SEARCH_THREADS);
    }
    if let Some(side) = &options.report_as {
        settings.perspective = Perspective::parse(side)
            .ok_or_else(|| format!("--report-as {side}: black, white or sidetomove"))?;
    }
    let workers = options
        .threads
        .or(workers)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let network = Network::from_option(&options.weights)?;
    Ok(Config {
        workers,
        settings,
        network,
        seed: options.seed,
        version: options
            .override_version
            .clone()
            .unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string()),
        model_name: options.weights.clone(),
        quit_without_waiting: options.quit_without_waiting,
    })
}

/// Serves the analysis protocol on `input` and `output` until the input ends.
///
/// # Errors
/// Reading or writing failed.
pub fn run(config: &Config, input: impl BufRead, output: impl Write + Send) -> io::Result<()> {
    log::info!(
        "analysis engine: {} positions at once, {} search threads each",
        config.workers,
        config.settings.search_threads
    );
    // KataGo says this on stderr when it is ready; some front ends wait for it.
    eprintln!("Started, ready to begin handling requests");
    analysis::serve(config, input, output)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn katagos_single_dashes_become_double_after_analysis_only() {
        let args = katago_flags(os(&[
            "shicho",
            "-model",
            "analysis",
            "-model",
            "m.bin.gz",
            "-config=a.cfg",
            "-override-config",
            "maxVisits=5",
            "-x",
            "--threads",
            "2",
        ]));
        assert_eq!(
            args,
            os(&[
                "shicho",
                "-model",
                "analysis",
                "--model",
                "m.bin.gz",
                "--config=a.cfg",
                "--override-config",
                "maxVisits=5",
                "-x",
                "--threads",
                "2",
            ])
        );
    }

    #[test]
    fn katrains_command_line_makes_an_engine() {
        let options = Options {
            model: Some("katrain/models/b10.bin.gz".into()),
            config: vec!["analysis_config.cfg".into()],
            override_config: vec![
                "homeDataDir=/root/.katrain,maxVisits=40,numAnalysisThreads=3".into(),
            ],
            weights: "none".into(),
            ..Options::default()
        };
        let config = config(&options).unwrap();
        assert_eq!(config.workers, 3);
        assert_eq!(config.settings.max_visits, 40);
        assert_eq!(config.settings.perspective, Perspective::Black);
        let bad = Options {
            override_config: vec!["maxTime=soon".into()],
            weights: "none".into(),
            ..Options::default()
        };
        assert!(super::config(&bad).is_err());
    }
}
