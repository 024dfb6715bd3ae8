//! The engine's loop: lines are read on the calling thread and answered at once (actions,
//! errors, warnings) or queued (positions); a pool of workers analyses the queued
//! positions, several at a time, and writes each answer when its search ends, so answers
//! come in the order searches finish, not the order of the queries.
//!
//! When the input ends the queued positions are still analysed and answered, then
//! [`serve`] returns (with `quit_without_waiting`, the searches stop and nothing more is
//! written, as KataGo's `-quit-without-waiting`). When the output closes, every search
//! stops and `serve` returns the write's error.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use serde_json::{Map, Value};

use crate::go::network::model::Evaluation;
use crate::go::search::memory::DEFAULT_TREE_NODES;
use crate::go::search::{Analysis, AnalysisOptions, Network, Params, raw_evaluation};

use super::answer;
use super::query::{self, Action, Query, Request};
use super::queue::{Job, Queue, Target};
use super::settings::Settings;

/// How the engine is set up (the command line's choices).
#[derive(Clone, Debug)]
pub struct Config {
    /// Positions analysed at once: the workers.
    pub workers: usize,
    /// Every query's settings before its `overrideSettings`.
    pub settings: Settings,
    /// The network for the priors, the scores and the ownership; `None`: the classic
    /// engine, its playouts' scores and ownership.
    pub network: Option<Network>,
    /// The searches' seeds start from it (each position its own).
    pub seed: u64,
    /// What `query_version` answers.
    pub version: String,
    /// What `query_models` calls the network.
    pub model_name: String,
    /// At the end of input, stop the searches rather than finish them.
    pub quit_without_waiting: bool,
}

/// The output, shared by the reading thread and the workers: one whole line at a time.
struct Output<W: Write> {
    out: Mutex<W>,
    /// The first write error: nobody reads what is written any more.
    failed: Mutex<Option<io::Error>>,
    broken: AtomicBool,
}

impl<W: Write> Output<W> {
    fn write(&self, value: &Value) {
        if self.broken.load(Ordering::Relaxed) {
            return;
        }
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = writeln!(out, "{value}").and_then(|()| out.flush()) {
            self.broken.store(true, Ordering::Relaxed);
            let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
            failed.get_or_insert(e);
        }
    }
}

/// What the reader and the workers share.
struct Engine<'c, W: Write> {
    config: &'c Config,
    queue: Queue,
    output: Output<W>,
    /// The searches stop and nothing more is written.
    quitting: AtomicBool,
}

/// Serves KataGo's analysis protocol: queries from `input`, one JSON object a line,
/// answers to `output`, until the input ends (then the queued positions are answered, see
/// the module's doc).
///
/// # Errors
/// Reading the input or writing the output failed.
pub fn serve<R: BufRead, W: Write + Send>(
    config: &Config,
    mut input: R,
    output: W,
) -> io::Result<()> {
    let engine = Engine {
        config,
        queue: Queue::default(),
        output: Output {
            out: Mutex::new(output),
            failed: Mutex::new(None),
            broken: AtomicBool::new(false),
        },
        quitting: AtomicBool::new(false),
    };
    let read = std::thread::scope(|scope| {
        for worker in 0..config.workers.max(1) {
            let engine = &engine;
            let spawned = std::thread::Builder::new()
                .name(format!("analysis-{worker}"))
                .spawn_scoped(scope, move || engine.work());
            if let Err(e) = spawned {
                log::error!("cannot start an analysis worker: {e}");
            }
        }
        let read = engine.read(&mut input);
        if read.is_err()
            || config.quit_without_waiting
            || engine.output.broken.load(Ordering::Relaxed)
        {
            engine.quitting.store(true, Ordering::Relaxed);
            engine.queue.terminate(&Target {
                id: None,
                turns: None,
            });
        }
        engine.queue.close();
        read
    });
    read?;
    match engine
        .output
        .failed
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl<W: Write> Engine<'_, W> {
    /// Reads and answers lines until the input ends or the output closes.
    fn read(&self, input: &mut dyn BufRead) -> io::Result<()> {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                return Ok(());
            }
            let text = String::from_utf8_lossy(&bytes);
            let line = text.trim();
            if !line.is_empty() {
                self.answer_line(line);
            }
            if self.output.broken.load(Ordering::Relaxed) {
                return Ok(());
            }
        }
    }

    fn answer_line(&self, line: &str) {
        log::debug!("request: {line}");
        let parsed = query::parse(line, &self.config.settings);
        for message in &parsed.messages {
            if message.is_error() {
                log::info!("error: {}", message.text);
            }
            self.output.write(&message.to_json());
        }
        match parsed.request {
            None => {}
            Some(Request::Analyse(query)) => self.queue.push(*query),
            Some(Request::Action(action, echo)) => self.act(&action, echo),
        }
    }

    /// Runs an action and echoes its line, as KataGo does.
    fn act(&self, action: &Action, mut echo: Map<String, Value>) {
        match action {
            Action::QueryVersion => {
                echo.insert("version".into(), Value::from(self.config.version.as_str()));
                echo.insert("git_hash".into(), Value::from("<omitted>"));
            }
            Action::QueryModels => {
                let models: Vec<Value> = self
                    .config
                    .network
                    .iter()
                    .map(|_| {
                        serde_json::json!({
                            "name": self.config.model_name,
                            "internalName": self.config.model_name,
                            "maxBatchSize": 1,
                            "usesHumanSLProfile": false,
                            "version": 1,
                            "usingFP16": "false",
                        })
                    })
                    .collect();
                echo.insert("models".into(), Value::Array(models));
            }
            Action::ClearCache => {
                if let Some(network) = &self.config.network {
                    network.0.clear_cache();
                }
            }
            Action::Terminate { id, turns } => {
                let target = Target {
                    id: id.as_deref(),
                    turns: turns.as_deref(),
                };
                for (id, turn) in self.queue.terminate(&target) {
                    self.output.write(&answer::no_results(&id, turn));
                }
            }
        }
        self.output.write(&Value::Object(echo));
    }

    /// A worker: analyses queued positions until the queue is closed and empty.
    fn work(&self) {
        while let Some(job) = self.queue.next() {
            if !self.quitting.load(Ordering::Relaxed) {
                self.analyse(&job);
            }
            self.queue.close_job(job.seq);
        }
    }

    /// Searches one position as its query asks, writing the reports it asks for during
    /// the search, then the answer.
    fn analyse(&self, job: &Job) {
        let query: &Query = &job.query;
        let turn = &query.turns[job.turn];
        let settings = &query.settings;
        let params = Params {
            playouts: None,
            time: None,
            extension: None,
            resign_below: 0.0,
            threads: settings.search_threads,
            tunables: settings.tunables.clone(),
            network: self.config.network.clone(),
        };
        let options = AnalysisOptions {
            ownership: query.include.ownership || query.include.moves_ownership,
            avoid: query.avoid.clone(),
            max_pv: query.include.pv_len + 1,
            ..AnalysisOptions::new()
        };
        let seed = self.config.seed.wrapping_add(job.seq);
        let stop = || job.status.terminated() || self.quitting.load(Ordering::Relaxed);
        // Each position in flight searches a tree of the default size; its memory is touched
        // only as the tree grows (`--max-memory` bounds GTP's search, not this engine's).
        let mut analysis = Analysis::new(
            &turn.game,
            turn.to_move,
            seed,
            &params,
            &options,
            DEFAULT_TREE_NODES,
        );
        let mut raw: Option<Option<Evaluation>> = None;
        let mut write = |analysis: &mut Analysis<'_>, during_search: bool| {
            let raw = raw.get_or_insert_with(|| {
                let network = self.config.network.as_ref()?;
                raw_evaluation(network, &turn.game, turn.to_move, 0)
            });
            let report = analysis.report();
            self.output.write(&answer::analysis(
                &query.id,
                turn,
                &report,
                raw.as_ref(),
                settings.perspective,
                &query.include,
                during_search,
            ));
        };
        let start = Instant::now();
        let deadline = settings.max_time.and_then(|t| start.checked_add(t));
        let mut next_report = query
            .report_during_search
            .and_then(|(first, _)| start.checked_add(first));
        loop {
            let left = settings.max_visits.saturating_sub(analysis.playouts);
            if left == 0 || stop() || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let until = match (deadline, next_report) {
                (Some(d), Some(r)) => Some(d.min(r)),
                (d, r) => d.or(r),
            };
            analysis.run(until, left, &stop);
            if let Some(at) = next_report
                && Instant::now() >= at
                && !stop()
                && analysis.playouts > 0
                && analysis.playouts < settings.max_visits
            {
                write(&mut analysis, true);
                next_report = query
                    .report_during_search
                    .and_then(|(_, every)| Instant::now().checked_add(every));
            }
        }
        if self.quitting.load(Ordering::Relaxed) {
            return;
        }
        if analysis.playouts == 0 && job.status.terminated() {
            self.output
                .write(&answer::no_results(&query.id, turn.number));
        } else {
            write(&mut analysis, false);
        }
        log::info!(
            "{} turn {}: {} playouts in {:.2}s",
            query.id,
            turn.number,
            analysis.playouts,
            start.elapsed().as_secs_f64()
        );
    }
}
