//! A scriptable fake GTP engine for the referee's tests (`shicho-match fake-engine ...`).
//!
//! It knows nothing about Go: it answers `genmove` from a fixed list and misbehaves on
//! cue, which is exactly what the referee has to survive. It lives in the match binary
//! rather than in a script so the tests need nothing but cargo.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use shicho::gtp::parse::{parse_command_line, preprocess};

/// Command-line options of the fake engine.
#[derive(Parser, Debug, Clone)]
#[command(name = "shicho-match fake-engine")]
pub struct FakeEngine {
    /// Answer to `name`.
    #[arg(long, default_value = "fake")]
    pub name: String,
    /// Answer to `version`.
    #[arg(long, default_value = "0")]
    pub version: String,
    /// Answers to `genmove`/`kgs-genmove_cleanup` in order, blank-separated, any text
    /// (`resign`, an occupied point, `Z99`, `hello`); `pass` once they run out. The list
    /// restarts at `clear_board`.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Answer to `final_status_list dead`; without it the command is not listed.
    #[arg(long)]
    pub dead: Option<String>,
    /// Sleep before answering the N-th genmove of a game (1-based).
    #[arg(long)]
    pub sleep_at: Option<usize>,
    /// Seconds to sleep.
    #[arg(long, default_value_t = 30.0)]
    pub sleep_secs: f64,
    /// Exit abruptly (status 3, no answer) on the N-th genmove of a game.
    #[arg(long)]
    pub exit_at: Option<usize>,
    /// Sleep or exit only if this file does not exist yet, creating it: the misbehaviour
    /// then happens once even across restarts.
    #[arg(long)]
    pub once: Option<PathBuf>,
    /// Commands to answer with `? refused`.
    #[arg(long)]
    pub refuse: Vec<String>,
    /// List and accept `kata-set-rules`.
    #[arg(long)]
    pub rules_command: bool,
    /// Leave `cputime` out (it otherwise reports 0.25 s per genmove answered).
    #[arg(long)]
    pub no_cputime: bool,
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
        list
    }

    /// Serves GTP on stdin/stdout until `quit` or the end of input.
    pub fn run(&self) -> io::Result<()> {
        let moves: Vec<&str> = self.moves.split_whitespace().collect();
        let mut played = 0usize;
        let mut answered_total = 0usize;
        let stdin = io::stdin();
        let mut out = io::stdout().lock();
        for raw in stdin.lock().split(b'\n') {
            let raw = raw?;
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
                        Ok(String::new())
                    }
                    "boardsize" | "komi" | "play" | "set_free_handicap" | "time_settings"
                    | "time_left" => Ok(String::new()),
                    "kata-set-rules" if self.rules_command => Ok(String::new()),
                    "genmove" | "kgs-genmove_cleanup" => {
                        played += 1;
                        if self.exit_at == Some(played) && self.cue() {
                            std::process::exit(3);
                        }
                        if self.sleep_at == Some(played) && self.cue() {
                            std::thread::sleep(Duration::from_secs_f64(self.sleep_secs));
                        }
                        answered_total += 1;
                        Ok(moves.get(played - 1).unwrap_or(&"pass").to_string())
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
        Ok(())
    }
}
