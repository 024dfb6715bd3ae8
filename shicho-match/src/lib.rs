//! The match referee behind `shicho-match` and `scripts/match`: plays games between two
//! GTP engines and checks every move with the engine's own rules core.
//!
//! It is a crate of its own, built on the `shicho` library (rules core, SGF records, GTP
//! parsing) like any other GTP controller would be; its API is what its binary and its
//! tests need.
//!
//! # How to read this
//!
//! - [`config`](MatchConfig): what a match is; checked before anything starts.
//! - [`engine_process`](EngineProcess): one GTP engine as a child process, with deadlines;
//!   a [`Slot`] restarts it after a failure.
//! - `game`: one refereed game (`play_game`), the same for every game through the rules
//!   core's `BoardGame`: setup, checked moves, clocks ([`RefereeClock`]), the move limit, the
//!   record. What differs per game is a `RefereedGame`'s: `game/go` (rules, komi, handicap,
//!   the count after `game/settle` has decided the dead stones, in the order its module
//!   comment gives) and `game/othello` (`--game othello`: the engines switched with
//!   `set_game`, forced passes played by the referee, the discs counted).
//! - `record`: the SGF file (built by `shicho::sgf`'s record builder, plus players, result,
//!   times) and the CSV row of a game (the CSV columns are listed there).
//! - `stats` ([`Tally`]): wins per engine and colour; `rating`: Wilson interval, Elo.
//! - `sprt` ([`Sprt`]): the sequential test that stops a match once it has decided
//!   (`--sprt`): logistic Elo, the GSPRT's likelihood ratio over single games or pairs.
//! - `runner` ([`run_match`]): worker threads, results file in game order, the test,
//!   progress, summary; `--shard` slices.
//! - `results`: reading `results.csv` back; `settings`: `settings.txt`, what a resumed
//!   directory keeps; `merge`: shards joined (`shicho-match merge`).
//! - `judge`: a strong engine's win rate on every position (`--judge`,
//!   `shicho-match judge`): the records annotated for Sabaki and Lizzie, `judge.csv`, mean
//!   loss and blunders by phase.
//!
//! # Decisions
//!
//! - **Engine 0 and engine 1** (`--black`/`--white`, twogtp's names): engine 0 is Black
//!   unless colours alternate, in which case the engines swap every other game and each
//!   pair of games shares one opening, so an opening that favours a colour favours nobody.
//!   Statistics are always per engine ("A" = engine 0, "B" = engine 1).
//! - **Blame**: every failure is pinned on the engine whose turn or command it was, and
//!   loses it the game: an unparsable or illegal move or `?` to `genmove` (`illegal`), a
//!   move past its time (`time`), an exit or silence (`crash`, engine killed and restarted
//!   for the next game), refusing a command every engine must accept such as a legal
//!   `play` (`error`). Nothing an engine writes can stop the referee.
//! - **Time** is wall time measured by the referee around `genmove`, with a grace allowance
//!   for latency; see [`RefereeClock`]. `time_left` is sent before each `genmove` to engines that
//!   list it. A Fischer clock (`--time 60+2`) goes to engines whose `kata-list_time_settings`
//!   names it as `kata-time_settings fischer`, and to the others as OGS's bridge GTP2OGS
//!   sends it: Canadian byo-yomi whose one-stone period is the increment (see
//!   [`TimeControl::gtp_command`]); either way the referee's clock adds the increment after
//!   each move. Japanese byo-yomi (`--time 60+10x3`) goes as `kata-time_settings byoyomi`
//!   to engines that take it, else as `kgs-time_settings byoyomi` to engines that list
//!   that, with the periods left in `time_left`, and to the others as one-stone periods
//!   (`time_settings 60 10 1`), stricter than the clock so that an engine keeping to it
//!   never loses on time.
//! - **Move limit**: a game reaching `max_moves` is counted as if both had passed
//!   (reason `maxmoves`) rather than thrown away, so a looping pair of engines still gives
//!   a result.
//! - **Rules** go to engines that list `kata-set-rules` (KataGo's command, which shicho
//!   answers too; GTP has none; `chinese` as `chinese-ogs`, KataGo's name for positional
//!   superko), else `kgs-rules` for the four rule sets KGS names (Pachi), first in the
//!   setup since a change of topology replaces the board. A refusal is logged and the
//!   engine plays on by its own rules.
//! - **Torus** (`daoqi`) games are recorded with `RU[daoqi]` and the root comment every
//!   shicho record of a torus game has (`shicho::go::sgf::TORUS_COMMENT`), since SGF has no
//!   property for the topology.
//! - **Output directory**: `game-NNNN.sgf` per game, `results.csv` (rows in game order),
//!   `summary.txt` (this run's summary, and the test and the judge over the directory),
//!   `settings.txt` (what later runs keep: the test, colours, seed, shard),
//!   `logs/worker-K.log` (each worker's GTP traffic, `A> cmd`, `A< answer`, and engines'
//!   stderr, `A! line`; stderr never reaches the terminal), `logs/probe.log`, and with a
//!   judge `judge.csv`, `judge.txt` and `logs/judge.log`. Reusing a directory appends to
//!   `results.csv` and continues the game numbers, and with them the alternating colours,
//!   the openings (the seed is kept) and the test.
//! - **The test** ([`Sprt`]) is a function of the results file: games in number order, the
//!   first crossing of a bound decides. No game starts after it; games already under way
//!   finish and are recorded but do not count. A shard does not stop on its slice; `merge`
//!   gives the verdict of the union.
//! - **Shards** slice by unit (a pair of games with alternating colours, else a game):
//!   unit `u` belongs to shard `u mod N + 1`. Colours, openings and the fakes' draws follow
//!   the game number, so N shards play the games one run would.

mod clock;
mod config;
mod engine_process;
mod game;
mod judge;
mod merge;
mod rating;
mod record;
mod results;
mod runner;
mod settings;
mod sprt;
mod stats;

pub use clock::{BadTimeControl, ClockReading, Overtime, RefereeClock, TimeControl};
pub use config::{ConfigError, MatchConfig, Openings, default_max_moves, handicap_points};
pub use engine_process::{EngineError, EngineProcess, SharedLog, Slot, file_log, null_log};
pub use game::settle::parse_dead;
pub use game::{EndReason, GameRecord, MoveKind, MoveRecord, Outcome, Played, PlayedMove};
pub use judge::config::JudgeConfig;
pub use judge::evaluate::Evaluation;
pub use judge::info::{Dialect, Report, parse_report};
pub use judge::pass::judge_directory;
pub use judge::report::{JUDGE_FILE, JUDGE_HEADER, JUDGE_SUMMARY_FILE, JudgeRow, read_judge};
pub use merge::merge;
pub use rating::{Z95, elo, format_elo, wilson};
pub use record::{
    CSV_HEADER, CSV_OTHELLO_COLUMNS, csv_header, csv_row, iso_date, iso_time, othello_sgf,
    sgf_file_name, sgf_game, sgf_text, split_csv_line,
};
pub use results::{RESULTS_FILE, ResultRow, SUMMARY_FILE, read_results};
pub use runner::{MatchError, MatchReport, run_match, sprt_model};
pub use settings::{RunSettings, SETTINGS_FILE, Shard};
pub use sprt::{Hypothesis, Model, Sprt, SprtSpec, expected_score, llr};
pub use stats::{Tally, Wld};
