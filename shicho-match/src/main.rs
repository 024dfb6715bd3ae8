//! `shicho-match`: plays GTP engines against each other under a referee that checks every
//! move with shicho's rules core. See the crate's library (`lib.rs`) for the decisions and
//! file formats; `scripts/match` builds and runs this.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Parser;

use shicho::game::GameKind;
use shicho::{KoRule, Rules, Scoring, SuicideRule, Topology};
use shicho_match::{
    self as referee, JudgeConfig, MatchConfig, Openings, RunSettings, Shard, SprtSpec, TimeControl,
    default_max_moves,
};

/// Games played with --sprt when -n is not given: the test normally decides long before.
const SPRT_DEFAULT_GAMES: usize = 20_000;

const SUBCOMMANDS: &str = "\
Other commands:
  shicho-match judge DIR --judge CMD [...]   judge the games of an output directory
  shicho-match merge -o OUT DIR...           merge output directories (shards) into one
(each with --help)";

/// Plays N games between two GTP engines; every move is checked by shicho's rules.
///
/// Engine A (--black) plays Black and engine B (--white) White, swapping every other game
/// with --alternate. Results: one SGF per game, a row per game in results.csv, a summary
/// (wins per engine and colour, win rate with 95% interval, Elo difference) on stdout and
/// in summary.txt. With --sprt the match stops as soon as a sequential test decides; with
/// --judge a strong engine rates every move; with --shard it plays one slice of the games
/// (doc/match.md says how to spread a match over a cluster).
#[derive(Parser, Debug)]
#[command(name = "shicho-match", version, after_help = SUBCOMMANDS)]
struct Cli {
    /// The game: go, or othello (engines get `set_game Othello`; an illegal or unparsable
    /// move loses; the discs decide; SGF GM[2]; results.csv gains the disc counts).
    #[arg(long, default_value = "go")]
    game: GameKind,
    /// Command line of engine A, split like a shell would (quotes allowed).
    #[arg(long, value_name = "CMD")]
    black: Option<String>,
    /// Command line of engine B.
    #[arg(long, value_name = "CMD")]
    white: Option<String>,
    /// Shortcut: engine B is GNU Go at this level (`gnugo --mode gtp --level N` plus the
    /// flags for the rules); engine A defaults to the `shicho` built next to this program.
    /// Needs `gnugo` on PATH.
    #[arg(long, value_name = "N", conflicts_with = "white")]
    gnugo_level: Option<u32>,
    /// Engine asked `final_status_list dead` when the players disagree on dead stones
    /// (without it, disputed games are played out).
    #[arg(long, value_name = "CMD")]
    referee: Option<String>,
    /// Board size [default: the rules' default, 19, or 16 on a torus; Othello 8].
    #[arg(long)]
    size: Option<usize>,
    /// Komi [default: the rules' default: 7.5 area, 6.5 territory, 4 on a torus].
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// Rules preset (japanese, chinese, aga, new-zealand, tromp-taylor, daoqi = torus) or
    /// ko=..,suicide=..,scoring=..,topology=..; engines that list kata-set-rules (or
    /// kgs-rules, for the four KGS has) are told them.
    #[arg(long, default_value = "chinese")]
    rules: Rules,
    /// Number of games to play in this run (in an existing --out directory, that many more;
    /// with --sprt the most to play) [default: 10; with --sprt 20000].
    #[arg(long, short = 'n')]
    games: Option<usize>,
    /// Stop as soon as a sequential probability ratio test decides between H0: Elo A - B =
    /// ELO0 and H1: Elo A - B = ELO1 (logistic Elo), with error rates ALPHA and BETA
    /// [default 0.05 each]. Units: pairs of games with --alternate, single games without.
    /// An existing --out directory continues its test.
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    sprt: Option<SprtSpec>,
    /// Play only the K-th of N disjoint slices of the games (colours, openings and seeds
    /// follow the game number, so N shards equal one run); `shicho-match merge` joins them.
    /// Needs --seed with --random-opening.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// A GTP engine with kata-analyze or lz-analyze (KataGo, shicho) that judges every
    /// position of every game as it finishes: win rates in the SGF records (Sabaki's SBKV,
    /// Lizzie's LZ), each move's loss in judge.csv, mean loss and blunders in the summary.
    #[arg(long, value_name = "CMD")]
    judge: Option<String>,
    /// Visits the judge searches each position for.
    #[arg(long, value_name = "N", default_value_t = 100)]
    judge_visits: u64,
    /// Seconds the judge may take on one position at most.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    judge_time: f64,
    /// Swap colours every other game (both games of a pair share the opening).
    #[arg(long)]
    alternate: bool,
    /// Fixed handicap stones for Black (2-9, GNU Go's placement).
    #[arg(long, default_value_t = 0)]
    handicap: u32,
    /// Time control told to the engines and enforced: MAIN (absolute), MAIN+BYO/STONES
    /// (Canadian), MAIN+BYOxPERIODS (Japanese byo-yomi: PERIODS periods of BYO seconds;
    /// sent as kata-time_settings or kgs-time_settings to engines that list them, else as
    /// a one-stone period of BYO) or MAIN+INC (Fischer: INC added after every move; sent
    /// as kata-time_settings to engines that list it, else as Canadian byo-yomi with INC as
    /// a one-stone period), whole seconds, optional s/m suffix, e.g. 60, 5m+30s/10,
    /// 60+10x3, 60+2.
    #[arg(long, value_name = "SPEC")]
    time: Option<TimeControl>,
    /// Limit in seconds on every single move (told to engines as `time_settings 0 T 1`
    /// when --time is absent).
    #[arg(long, value_name = "SECS")]
    move_time: Option<f64>,
    /// Seconds of latency allowed on top of every time limit.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    grace: f64,
    /// Seconds any answer may take when no clock limits it; a silent engine loses.
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    answer_timeout: f64,
    /// Moves after which the position is counted [default: 3 per point].
    #[arg(long)]
    max_moves: Option<usize>,
    /// Games played at once [default: number of cores].
    #[arg(long, short = 'j')]
    parallel: Option<usize>,
    /// Start every game (pair of games with --alternate) with K random moves.
    #[arg(long, value_name = "K", conflicts_with = "openings")]
    random_opening: Option<usize>,
    /// File of openings, one per line as GTP vertices (`E5 C3 G7`; Othello's: `d3 c5`),
    /// used in turn.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed for random openings [default: the one an existing --out directory recorded, else
    /// from the clock; printed in the summary].
    #[arg(long)]
    seed: Option<u64>,
    /// Output directory [default: match-out/<UTC date-time>]. An existing one is added to:
    /// its results are kept and this run's -n games take the next numbers.
    #[arg(long, short = 'o')]
    out: Option<PathBuf>,
    /// No progress line.
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match args.get(1).and_then(|a| a.to_str()) {
        Some("judge") => return judge_command(JudgeCli::parse_from(&args[1..])),
        Some("merge") => return merge_command(MergeCli::parse_from(&args[1..])),
        _ => {}
    }
    let cli = Cli::parse();
    let cfg = match config(cli) {
        Ok(cfg) => cfg,
        Err(msg) => {
            eprintln!("shicho-match: {msg}");
            return ExitCode::from(2);
        }
    };
    match referee::run_match(&cfg) {
        Ok(report) => {
            println!("{}", report.summary);
            println!(
                "records: {}",
                cfg.out_dir.join(referee::RESULTS_FILE).display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shicho-match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Judges the games of an output directory that are not judged yet: win rates into the
/// records (Sabaki's SBKV, Lizzie's LZ), each move's loss into judge.csv, the summary into
/// judge.txt and on stdout.
#[derive(Parser, Debug)]
#[command(name = "shicho-match judge")]
struct JudgeCli {
    /// The output directory of a Go match.
    dir: PathBuf,
    /// The judge: a GTP engine with kata-analyze or lz-analyze.
    #[arg(long, value_name = "CMD")]
    judge: String,
    /// Visits the judge searches each position for.
    #[arg(long, value_name = "N", default_value_t = 100)]
    judge_visits: u64,
    /// Seconds the judge may take on one position at most.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    judge_time: f64,
    /// Seconds any other answer of the judge may take.
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    answer_timeout: f64,
    /// Judge every game again, not only those judge.csv does not hold.
    #[arg(long)]
    again: bool,
    /// No progress lines.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Merges output directories of one match (the shards of `--shard K/N`, or runs into
/// different directories) into one: results.csv in game order, the records, judge.csv, and
/// summary.txt with the test's verdict over the union.
#[derive(Parser, Debug)]
#[command(name = "shicho-match merge")]
struct MergeCli {
    /// The directories to merge.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The merged directory (new, or without a results.csv).
    #[arg(long, short = 'o')]
    out: PathBuf,
}

fn judge_config(line: &str, visits: u64, time: f64) -> Result<JudgeConfig, String> {
    if visits == 0 {
        return Err("--judge-visits must be at least 1".into());
    }
    let time = seconds("--judge-time", time)?;
    if time.is_zero() {
        return Err("--judge-time must be above 0".into());
    }
    Ok(JudgeConfig {
        argv: split("--judge", line)?,
        visits,
        time,
    })
}

fn judge_command(cli: JudgeCli) -> ExitCode {
    let run = || -> Result<String, String> {
        let cfg = judge_config(&cli.judge, cli.judge_visits, cli.judge_time)?;
        let timeout = seconds("--answer-timeout", cli.answer_timeout)?;
        referee::judge_directory(&cli.dir, &cfg, timeout, cli.again, !cli.quiet)
    };
    match run() {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shicho-match judge: {e}");
            ExitCode::FAILURE
        }
    }
}

fn merge_command(cli: MergeCli) -> ExitCode {
    match referee::merge(&cli.dirs, &cli.out) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shicho-match merge: {e}");
            ExitCode::FAILURE
        }
    }
}

fn split(what: &str, line: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(line).map_err(|e| format!("{what}: {e}"))?;
    if words.is_empty() {
        return Err(format!("{what}: empty command line"));
    }
    Ok(words)
}

fn config(cli: Cli) -> Result<MatchConfig, String> {
    let rules = cli.rules;
    let othello = cli.game == GameKind::Othello;
    if othello && cli.gnugo_level.is_some() {
        return Err("GNU Go plays Go only; give --black and --white for Othello".into());
    }
    let size = cli.size.unwrap_or_else(|| {
        if othello {
            shicho::othello::sgf::OTHELLO_DEFAULT_SIZE
        } else {
            rules.default_size()
        }
    });
    let komi = cli
        .komi
        .unwrap_or_else(|| if othello { 0.0 } else { rules.default_komi() });
    let (black, white) = match cli.gnugo_level {
        Some(level) => {
            let black = match &cli.black {
                Some(line) => split("--black", line)?,
                None => shicho_command(rules, size, komi)?,
            };
            (black, gnugo_command(level, rules, size)?)
        }
        None => match (&cli.black, &cli.white) {
            (Some(b), Some(w)) => (split("--black", b)?, split("--white", w)?),
            _ => return Err("give both --black and --white, or --gnugo-level".into()),
        },
    };
    let out = cli.out.unwrap_or_else(|| {
        let stamp = referee::iso_time(SystemTime::now()).replace([':', '-'], "");
        PathBuf::from("match-out").join(stamp)
    });
    let mut cfg = MatchConfig::new([black, white], out);
    cfg.game = cli.game;
    cfg.referee = cli
        .referee
        .as_deref()
        .map(|r| split("--referee", r))
        .transpose()?;
    cfg.size = size;
    cfg.komi = komi;
    cfg.rules = rules;
    cfg.games = cli.games.unwrap_or(if cli.sprt.is_some() {
        SPRT_DEFAULT_GAMES
    } else {
        10
    });
    cfg.sprt = cli.sprt;
    cfg.shard = cli.shard;
    if cli.shard.is_some() && cli.random_opening.is_some() && cli.seed.is_none() {
        return Err(
            "--shard with --random-opening needs --seed, the same for every shard, so that \
             the shards play the openings one run would"
                .into(),
        );
    }
    cfg.judge = cli
        .judge
        .as_deref()
        .map(|line| judge_config(line, cli.judge_visits, cli.judge_time))
        .transpose()?;
    cfg.alternate = cli.alternate;
    cfg.handicap = cli.handicap;
    cfg.time = cli.time;
    cfg.move_time = cli.move_time;
    cfg.grace = seconds("--grace", cli.grace)?;
    cfg.answer_timeout = seconds("--answer-timeout", cli.answer_timeout)?;
    cfg.max_moves = cli.max_moves.unwrap_or_else(|| default_max_moves(size));
    cfg.parallel = cli.parallel.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    cfg.openings = match (cli.random_opening, &cli.openings) {
        (Some(k), _) => Openings::Random(k),
        (None, Some(path)) => Openings::List(read_openings(path)?),
        (None, None) => Openings::None,
    };
    // A resumed directory keeps its seed, so its later games draw the openings one long
    // run would have.
    let stored = RunSettings::load(&cfg.out_dir)?;
    cfg.seed = cli.seed.or(stored.seed).unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    cfg.progress = !cli.quiet;
    cfg.validate().map_err(|e| e.to_string())?;
    Ok(cfg)
}

fn seconds(what: &str, s: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s).map_err(|_| format!("{what} must be a number of seconds >= 0"))
}

/// Openings file: one opening per line, blank-separated vertices; `#` starts a comment.
fn read_openings(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect())
}

/// `shicho` from the same directory as this program, told the match's rules.
fn shicho_command(rules: Rules, size: usize, komi: f64) -> Result<Vec<String>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate myself: {e}"))?;
    let shicho = exe.with_file_name(format!("shicho{}", std::env::consts::EXE_SUFFIX));
    if !shicho.is_file() {
        return Err(format!(
            "{} not found; build it (cargo build --release --bin shicho) or give --black",
            shicho.display()
        ));
    }
    Ok(vec![
        shicho.display().to_string(),
        "--rules".into(),
        rules.to_string(),
        "--size".into(),
        size.to_string(),
        "--komi".into(),
        komi.to_string(),
    ])
}

/// Whether `program` is an executable file in a PATH directory.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// GNU Go at `level` with the flags that make it play by `rules`.
fn gnugo_command(level: u32, rules: Rules, size: usize) -> Result<Vec<String>, String> {
    if !on_path("gnugo") {
        let mut msg = "--gnugo-level needs GNU Go's `gnugo` on PATH. Install it with \
                       `apt-get install gnugo`; Debian puts it in /usr/games, which is \
                       often not on PATH: run with PATH=\"$PATH:/usr/games\"."
            .to_string();
        if Path::new("/usr/games/gnugo").is_file() {
            msg.push_str(" (/usr/games/gnugo is installed.)");
        }
        return Err(msg);
    }
    if rules.topology == Topology::Torus {
        return Err("GNU Go cannot play on a torus (daoqi rules)".into());
    }
    if size > 19 {
        return Err("GNU Go plays on boards up to 19x19".into());
    }
    let mut argv: Vec<String> = ["gnugo", "--mode", "gtp", "--level"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    argv.push(level.to_string());
    if rules.scoring == Scoring::Area {
        argv.push("--chinese-rules".into());
    }
    match rules.ko {
        KoRule::Simple => {}
        KoRule::Positional => argv.push("--positional-superko".into()),
        KoRule::Situational => argv.push("--situational-superko".into()),
    }
    if rules.suicide == SuicideRule::Allowed {
        argv.push("--allow-all-suicide".into());
    }
    Ok(argv)
}
