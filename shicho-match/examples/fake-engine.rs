//! A scriptable fake GTP engine for the referee's tests (`fake-engine --help`).
//!
//! It knows nothing about Go: it answers `genmove` from a fixed list and misbehaves on
//! cue, which is exactly what the referee has to survive. It is written in Rust so the tests
//! need nothing but cargo, and it is an example of the referee's crate so that `cargo test`
//! builds it (beside the test binaries, in `target/debug/examples/`) while the release
//! binaries leave it out.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use clap::Parser;

use shicho::gtp::parse::{parse_command_line, preprocess};

/// A scriptable fake GTP engine for shicho-match's tests: it answers `genmove` from a fixed
/// list and misbehaves on cue.
#[derive(Parser, Debug, Clone)]
#[command(name = "fake-engine")]
struct FakeEngine {
    /// Answer to `name`.
    #[arg(long, default_value = "fake")]
    name: String,
    /// Answer to `version`.
    #[arg(long, default_value = "0")]
    version: String,
    /// Answers to `genmove`/`kgs-genmove_cleanup` in order, blank-separated, any text
    /// (`resign`, an occupied point, `Z99`, `hello`); `pass` once they run out. The list
    /// restarts at `clear_board`.
    #[arg(long, default_value = "")]
    moves: String,
    /// Answer to `final_status_list dead`; without it the command is not listed.
    #[arg(long)]
    dead: Option<String>,
    /// Sleep before answering the N-th genmove of a game (1-based).
    #[arg(long)]
    sleep_at: Option<usize>,
    /// Seconds to sleep.
    #[arg(long, default_value_t = 30.0)]
    sleep_secs: f64,
    /// Seconds to take over each genmove of a game before answering, in order,
    /// blank-separated (none once they run out): a clock's course, move by move.
    #[arg(long, default_value = "")]
    think: String,
    /// Exit abruptly (status 3, no answer) on the N-th genmove of a game.
    #[arg(long)]
    exit_at: Option<usize>,
    /// Sleep or exit only if this file does not exist yet, creating it: the misbehaviour
    /// then happens once even across restarts.
    #[arg(long)]
    once: Option<PathBuf>,
    /// Commands to answer with `? refused`.
    #[arg(long)]
    refuse: Vec<String>,
    /// List and accept `kata-set-rules`.
    #[arg(long)]
    rules_command: bool,
    /// List and accept KataGo's `kata-time_settings`, and `kata-list_time_settings`
    /// answering `--kata-kinds`.
    #[arg(long)]
    kata_time: bool,
    /// The answer to `kata-list_time_settings`.
    #[arg(
        long,
        default_value = "none absolute byoyomi canadian fischer fischer-capped"
    )]
    kata_kinds: String,
    /// List and accept KGS's `kgs-time_settings`.
    #[arg(long)]
    kgs_time: bool,
    /// Leave `cputime` out (it otherwise reports 0.25 s per genmove answered).
    #[arg(long)]
    no_cputime: bool,
    /// Resign at the first `genmove` of a game with this probability: a hash of `--seed`,
    /// the moves it was told and the colour asked decides, so a game's outcome is fixed by
    /// its opening and colours (the same in any run, shard or order of games).
    #[arg(long, value_name = "P")]
    resign_chance: Option<f64>,
    /// Seeds `--resign-chance`.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Answer live analysis: `kata` lists kata-analyze (win rates as fractions), `lz`
    /// lists lz-analyze (ten-thousandths). Reports every 10 ms, 10 more visits each time,
    /// until the next command.
    #[arg(long, value_name = "kata|lz")]
    analyze: Option<String>,
    /// Black's win rate in the position after N moves (`play` commands since
    /// `clear_board`) is the N-th of these (0-based; the last one repeats); at a komi
    /// larger than the board, 0.02 (White wins).
    #[arg(long, default_value = "0.5")]
    winrates: String,
    /// Report win rates as Black's (`black`) rather than the side to move's (`side`).
    #[arg(long, default_value = "side")]
    report: String,
}

/// A hash of the words, for `--resign-chance` (FNV-1a, then splitmix's finalizer).
fn hash_words(seed: u64, words: &[String]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325 ^ seed;
    for w in words {
        for b in w.bytes().chain(std::iter::once(b' ')) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

impl FakeEngine {
    /// Whether the cue should be acted on now (consuming the `--once` marker).
    fn cue(&self) -> bool {
        match &self.once {
            None => true,
            Some(path) if path.exists() => false,
            Some(path) => std::fs::write(path, b"").is_ok(),
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        let mut list = vec![
            "protocol_version",
            "name",
            "version",
            "known_command",
            "list_commands",
            "quit",
            "boardsize",
            "clear_board",
            "komi",
            "play",
            "genmove",
            "kgs-genmove_cleanup",
            "set_free_handicap",
            "time_settings",
            "time_left",
        ];
        if self.dead.is_some() {
            list.push("final_status_list");
        }
        if !self.no_cputime {
            list.push("cputime");
        }
        if self.rules_command {
            list.push("kata-set-rules");
        }
        if self.kata_time {
            list.extend(["kata-time_settings", "kata-list_time_settings"]);
        }
        if self.kgs_time {
            list.push("kgs-time_settings");
        }
        match self.analyze.as_deref() {
            Some("kata") => list.push("kata-analyze"),
            Some("lz") => list.push("lz-analyze"),
            _ => {}
        }
        list
    }

    /// Black's win rate after `played` moves at `komi` on a board of `size`.
    fn black_winrate(&self, played: usize, komi: f64, size: usize) -> f64 {
        if komi > (size * size) as f64 {
            return 0.02;
        }
        let list: Vec<f64> = self
            .winrates
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        list.get(played).or(list.last()).copied().unwrap_or(0.5)
    }

    /// Serves GTP on stdin/stdout until `quit` or the end of input.
    fn run(&self) -> io::Result<()> {
        let moves: Vec<&str> = self.moves.split_whitespace().collect();
        let think: Vec<f64> = self
            .think
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            // What `Duration::from_secs_f64` takes without a panic, and more than a test waits.
            .filter(|t| (0.0..1e6).contains(t))
            .collect();
        let mut played = 0usize;
        let mut answered_total = 0usize;
        // What the game so far was told: the moves since `clear_board`, for the resign
        // draw and the analysis.
        let mut told: Vec<String> = Vec::new();
        let (mut komi, mut size) = (7.5f64, 19usize);
        // stdin is read by a thread of its own, so a streaming analysis can watch for the
        // next command while it reports.
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for raw in io::stdin().lock().split(b'\n') {
                let Ok(raw) = raw else { break };
                if tx.send(raw).is_err() {
                    break;
                }
            }
        });
        let mut out = io::stdout().lock();
        let mut next: Option<Vec<u8>> = None;
        loop {
            let raw = match next.take() {
                Some(raw) => raw,
                None => match rx.recv() {
                    Ok(raw) => raw,
                    Err(_) => return Ok(()),
                },
            };
            let Some(line) = preprocess(&raw) else {
                continue;
            };
            // Something on stderr for every command, so the tests see it kept off the
            // terminal.
            eprintln!("fake {}: got '{line}'", self.name);
            let Ok(command) = parse_command_line(&line) else {
                continue;
            };
            let id = command.id.clone().unwrap_or_default();
            let name = command.name.as_str();
            let answer: Result<String, &str> = if self.refuse.iter().any(|r| r == name) {
                Err("refused")
            } else {
                match name {
                    "protocol_version" => Ok("2".into()),
                    "name" => Ok(self.name.clone()),
                    "version" => Ok(self.version.clone()),
                    "list_commands" => Ok(self.commands().join("\n")),
                    "known_command" => Ok(command
                        .args
                        .first()
                        .is_some_and(|c| self.commands().contains(&c.as_str()))
                        .to_string()),
                    "clear_board" => {
                        played = 0;
                        told.clear();
                        Ok(String::new())
                    }
                    "play" => {
                        told.push(command.args.join(" "));
                        Ok(String::new())
                    }
                    "boardsize" => {
                        size = command
                            .args
                            .first()
                            .and_then(|a| a.parse().ok())
                            .unwrap_or(19);
                        Ok(String::new())
                    }
                    "komi" => {
                        komi = command
                            .args
                            .first()
                            .and_then(|a| a.parse().ok())
                            .unwrap_or(7.5);
                        Ok(String::new())
                    }
                    "set_free_handicap" | "time_settings" | "time_left" => Ok(String::new()),
                    "kata-set-rules" if self.rules_command => Ok(String::new()),
                    "kata-time_settings" if self.kata_time => Ok(String::new()),
                    "kata-list_time_settings" if self.kata_time => Ok(self.kata_kinds.clone()),
                    "kgs-time_settings" if self.kgs_time => Ok(String::new()),
                    "kata-analyze" | "lz-analyze" if self.commands().contains(&name) => {
                        let black = self.black_winrate(told.len(), komi, size);
                        let to_move_black = command
                            .args
                            .first()
                            .is_none_or(|c| c.eq_ignore_ascii_case("b"));
                        let reported = if self.report == "black" || to_move_black {
                            black
                        } else {
                            1.0 - black
                        };
                        let value = if name == "lz-analyze" {
                            format!("{}", (reported * 10000.0).round())
                        } else {
                            format!("{reported}")
                        };
                        writeln!(out, "={id}")?;
                        out.flush()?;
                        let mut visits = 0;
                        loop {
                            visits += 10;
                            writeln!(
                                out,
                                "info move pass visits {visits} winrate {value} order 0 pv pass"
                            )?;
                            out.flush()?;
                            match rx.recv_timeout(Duration::from_millis(10)) {
                                Ok(raw) => {
                                    next = Some(raw);
                                    break;
                                }
                                Err(RecvTimeoutError::Timeout) => {}
                                Err(RecvTimeoutError::Disconnected) => return Ok(()),
                            }
                        }
                        writeln!(out)?;
                        out.flush()?;
                        continue;
                    }
                    "genmove" | "kgs-genmove_cleanup" => {
                        played += 1;
                        if self.exit_at == Some(played) && self.cue() {
                            std::process::exit(3);
                        }
                        if self.sleep_at == Some(played) && self.cue() {
                            std::thread::sleep(Duration::from_secs_f64(self.sleep_secs));
                        }
                        if let Some(&secs) = think.get(played - 1) {
                            std::thread::sleep(Duration::from_secs_f64(secs));
                        }
                        answered_total += 1;
                        let mut words = told.clone();
                        words.extend(command.args.iter().cloned());
                        let draw = hash_words(self.seed, &words) as f64 / u64::MAX as f64;
                        if played == 1 && self.resign_chance.is_some_and(|p| draw < p) {
                            Ok("resign".to_string())
                        } else {
                            Ok(moves.get(played - 1).unwrap_or(&"pass").to_string())
                        }
                    }
                    "final_status_list" if self.dead.is_some() => {
                        Ok(self.dead.clone().unwrap_or_default())
                    }
                    "cputime" if !self.no_cputime => {
                        Ok(format!("{:.3}", 0.25 * answered_total as f64))
                    }
                    "quit" => {
                        write!(out, "={id} \n\n")?;
                        out.flush()?;
                        return Ok(());
                    }
                    _ => Err("unknown command"),
                }
            };
            match answer {
                Ok(text) => write!(out, "={id} {text}\n\n")?,
                Err(text) => write!(out, "?{id} {text}\n\n")?,
            }
            out.flush()?;
        }
    }
}

fn main() -> ExitCode {
    match FakeEngine::parse().run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
