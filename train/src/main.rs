//! `shicho-train`: the jobs that make committed data and must use shicho's own code, one
//! subcommand each. What Python does better stays in Python beside it: labelling with the
//! teacher (`train/teacher.py`) and PyTorch's training (`train/train.py`). `train/README.md`
//! says what each tool makes, from what, and how to rerun it.
//!
//! They are subcommands of one binary rather than three: each release binary is a whole
//! link-time-optimised copy of the engine, and `cargo build --release --bins` (the test
//! suite's) builds every one.

mod net_data;
mod net_precision;
mod othello_eval;
mod priors;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Makes shicho's committed data with shicho's own code (train/README.md says what each job
/// makes, from what, and how to rerun it). Default paths are relative to the repository
/// root: run it from there.
#[derive(Parser)]
#[command(name = "shicho-train")]
struct Cli {
    #[command(subcommand)]
    job: Job,
}

#[derive(Subcommand)]
enum Job {
    NetData(net_data::Args),
    NetPrecision(net_precision::Args),
    Priors(priors::Args),
    OthelloEval(othello_eval::Settings),
}

fn main() -> ExitCode {
    match Cli::parse().job {
        Job::NetData(args) => {
            if let Err(e) = net_data::run(args) {
                eprintln!("shicho-train net-data: {e}");
                return ExitCode::FAILURE;
            }
        }
        Job::NetPrecision(args) => {
            if let Err(e) = net_precision::run(args) {
                eprintln!("shicho-train net-precision: {e}");
                return ExitCode::FAILURE;
            }
        }
        Job::Priors(args) => priors::run(args),
        Job::OthelloEval(settings) => othello_eval::run(settings),
    }
    ExitCode::SUCCESS
}
