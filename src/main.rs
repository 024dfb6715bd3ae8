//! `shicho`: the engine, speaking GTP on stdin/stdout.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use shicho::Rules;
use shicho::engine::{Config, Engine};
use shicho::game::GameKind;
use shicho::go::network::direct::Precision;
use shicho::go::network::weights::Weights;
use shicho::go::search::Player;
use shicho::othello::PlayerKind as OthelloPlayer;
use shicho::{go, gtp, othello};

/// A Go and Othello engine speaking GTP v2 on stdin/stdout. Diagnostics go to stderr
/// (RUST_LOG=debug).
#[derive(Parser, Debug)]
#[command(
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = "The Go tree search's weights are tunables, which SHICHO_TUNE=name=value,... \
                  sets (for tuning matches); `shicho tunables` lists them with their \
                  defaults, ranges and what each does."
)]
struct Cli {
    /// The game played from the start: go or othello (GTP's set_game switches).
    #[arg(long, default_value = "go")]
    game: GameKind,
    #[command(subcommand)]
    command: Option<Command>,
    /// Rules: japanese, chinese, aga, new-zealand, tromp-taylor, daoqi (torus), or
    /// ko=..,suicide=..,scoring=..,topology=..
    #[arg(long, default_value = "chinese")]
    rules: Rules,
    /// Board size: Go 2..25, default 19 (16 for daoqi); Othello even 4..26, default 8.
    #[arg(long)]
    size: Option<usize>,
    /// Komi; default 7.5 for area scoring, 6.5 for territory, 4 for daoqi.
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// Seed for genmove's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How genmove chooses. Go: mcts (default), heuristic or random; Othello: searcher
    /// (default), greedy or random.
    #[arg(long)]
    player: Option<String>,
    /// Most simulations per move (tree search); default 20,000, or no cap when a time limit
    /// (--time or a time control over GTP) decides.
    #[arg(long)]
    playouts: Option<usize>,
    /// Most seconds per move (tree search); a time control set over GTP caps it too.
    #[arg(long)]
    time: Option<f64>,
    /// Resign when the best move wins less often than this, two searches in a row (0 never
    /// resigns).
    #[arg(long, default_value_t = 0.1)]
    resign: f64,
    /// Keep searching while the opponent thinks (the next search starts from that tree).
    /// Leave it off in matches where both engines share the machine's cores.
    #[arg(long)]
    ponder: bool,
    /// Search threads, sharing one tree (Othello: the exact solver's threads).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Othello's evaluation at the searcher's leaves: `learnt` (the pattern tables, the
    /// stronger: the Othello log of doc/strength.md) or `hand` (the hand-written terms; the
    /// solver orders its moves with these either way).
    #[arg(long, value_name = "EVAL", default_value = "learnt")]
    eval: String,
    /// What GTP's `version` answers instead of shicho's own. Lizzie 0.7 takes the answer for
    /// Leela Zero's and stops before analysing at one below 0.15: give it 0.17 there, as
    /// KataGo's flag of the same name is given.
    #[arg(long, value_name = "VERSION")]
    override_version: Option<String>,
    /// The neural network for the tree's priors: builtin, none (the classic engine) or a
    /// safetensors file.
    #[arg(long, default_value = shicho::go::search::DEFAULT_WEIGHTS)]
    weights: String,
    /// Go's strength, 1 (a beginner's opponent: moves drawn from the network's policy) to
    /// 10 (full strength, as --playouts and --time say); doc/strength.md has the table.
    #[arg(long, default_value = "10")]
    level: shicho::go::search::Level,
    /// Most memory Go's search may hold, in MiB (its trees, and the rest it needs); default:
    /// 1112 with one thread, the tree of 8 Mi nodes (doc/search.md#memory).
    #[arg(long, value_name = "MIB")]
    max_memory: Option<usize>,
    /// What the network's convolutions compute in: f32, bf16 (AVX-512 BF16) or int8
    /// (AVX-512 VNNI), on cores with those instructions; float32 elsewhere, with a warning.
    /// Default: the precision the network's file names (metadata `precision`) where the core
    /// has it, else f32. Lower precisions change the net's answers a little (README: The
    /// network).
    #[arg(long, value_name = "PRECISION")]
    net_precision: Option<String>,
}

/// A net's precision when `--net-precision` is not given: the one its file names where this
/// core has it (a larger net may be made to run in 8 bits), else float32.
fn default_precision(weights: &Weights) -> Precision {
    match weights.named_precision() {
        Some(named) if named.supported() => named,
        Some(named) => {
            log::info!("the network names {named:?}, which this core lacks: it runs in float32");
            Precision::F32
        }
        None => Precision::F32,
    }
}

/// The Go and Othello players `--player` names: a player of either game (`random` is
/// both); the other game keeps its default, so `--player greedy` serves an engine that a
/// front end switches to Othello.
fn players(name: Option<&str>) -> Result<(Player, OthelloPlayer), String> {
    let Some(name) = name else {
        return Ok((Player::Mcts, OthelloPlayer::Searcher));
    };
    match (
        name.parse::<Player>().ok(),
        name.parse::<OthelloPlayer>().ok(),
    ) {
        (None, None) => Err(format!(
            "--player {name}: Go's players are mcts, heuristic, random; Othello's are \
             searcher, greedy, random"
        )),
        (go, othello) => Ok((
            go.unwrap_or(Player::Mcts),
            othello.unwrap_or(OthelloPlayer::Searcher),
        )),
    }
}

/// Instead of the GTP session.
// Parsed once at start-up: boxing `play`'s options would save nothing worth the noise.
#[allow(clippy::large_enum_variant)]
#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Play in the terminal (Go under any rules, Dao-qi, Othello): a person against the
    /// engine, or two people.
    Play(shicho::engine::play::Options),
    /// List the Go tree search's tunables, which SHICHO_TUNE=name=value,... sets: each with
    /// its default, the values it takes (a value outside its range is clamped) and what it
    /// does.
    Tunables,
    Analysis(shicho::engine::analysis::Options),
}

/// `shicho tunables`: every tunable, its doc comment under it.
fn list_tunables() -> ExitCode {
    let mut out = io::stdout().lock();
    for t in shicho::go::search::Tunables::listing() {
        let listed = writeln!(out, "{} = {} ({}, {})", t.name, t.default, t.kind, t.range)
            .and_then(|()| {
                t.doc_lines()
                    .try_for_each(|line| writeln!(out, "    {line}"))
            });
        if listed.is_err() {
            // A closed pipe (`| head`): nothing more is wanted.
            break;
        }
    }
    ExitCode::SUCCESS
}

/// `shicho analysis`: KataGo's JSON analysis engine on stdin/stdout.
fn analysis(options: &shicho::engine::analysis::Options) -> ExitCode {
    let config = match shicho::engine::analysis::config(options) {
        Ok(c) => c,
        Err(why) => {
            eprintln!("shicho analysis: {why}");
            return ExitCode::from(2);
        }
    };
    let input = io::BufReader::new(io::stdin());
    match shicho::engine::analysis::run(&config, input, io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        // The front end closed our output: nothing more can be said to it.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shicho analysis: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `shicho play`: the terminal board on stdin/stdout.
fn play(options: &shicho::engine::play::Options) -> ExitCode {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    match shicho::engine::play::run(options, &mut input, &mut output) {
        Ok(_) => ExitCode::SUCCESS,
        Err(shicho::terminal::session::PlayError::Options(why)) => {
            eprintln!("shicho play: {why}");
            ExitCode::from(2)
        }
        Err(shicho::terminal::session::PlayError::Io(e))
            if e.kind() == io::ErrorKind::BrokenPipe =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shicho play: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // KaTrain starts the analysis engine with KataGo's single-dash flags.
    let cli = Cli::parse_from(shicho::engine::analysis::katago_flags(std::env::args_os()));
    match &cli.command {
        Some(Command::Play(options)) => return play(options),
        Some(Command::Tunables) => return list_tunables(),
        Some(Command::Analysis(options)) => return analysis(options),
        None => {}
    }
    let othello = cli.game == GameKind::Othello;
    let othello_size = match cli.size.filter(|_| othello) {
        Some(n) if shicho::othello::check_size(n).is_err() => {
            eprintln!("shicho: an Othello board is even, 4..=26, not {n}");
            return ExitCode::from(2);
        }
        Some(n) => n,
        None => 8,
    };
    let (player, othello_player) = match players(cli.player.as_deref()) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("shicho: {msg}");
            return ExitCode::from(2);
        }
    };
    let othello_learnt = match cli.eval.as_str() {
        "learnt" => true,
        "hand" => false,
        other => {
            eprintln!("shicho: --eval {other}: Othello's evaluations are learnt and hand");
            return ExitCode::from(2);
        }
    };
    let size = cli
        .size
        .filter(|_| !othello)
        .unwrap_or(cli.rules.default_size());
    if !(shicho::MIN_SIZE..=shicho::MAX_SIZE).contains(&size) {
        eprintln!(
            "shicho: board size {size} is outside {}..={}",
            shicho::MIN_SIZE,
            shicho::MAX_SIZE
        );
        return ExitCode::from(2);
    }
    let komi = cli.komi.unwrap_or(cli.rules.default_komi());
    if !komi.is_finite() {
        eprintln!("shicho: komi must be a finite number");
        return ExitCode::from(2);
    }
    let time = match cli.time.map(std::time::Duration::try_from_secs_f64) {
        Some(Ok(t)) if !t.is_zero() => Some(t),
        None => None,
        Some(_) => {
            eprintln!("shicho: --time must be a positive number of seconds (below 1.8e19)");
            return ExitCode::from(2);
        }
    };
    let given_precision = match cli
        .net_precision
        .as_deref()
        .map(|name| (name, Precision::parse(name)))
    {
        None => None,
        Some((name, None)) => {
            eprintln!("shicho: --net-precision {name}: the precisions are f32, bf16 and int8");
            return ExitCode::from(2);
        }
        Some((name, Some(precision))) => {
            if !precision.supported() {
                eprintln!(
                    "shicho: this core lacks the instructions of --net-precision {name}: the \
                     network runs in float32"
                );
            }
            Some(precision)
        }
    };
    let network = match shicho::go::search::Network::from_option(&cli.weights) {
        Ok(n) => n.map(|n| {
            let precision = given_precision.unwrap_or_else(|| default_precision(n.weights()));
            n.with_precision(precision)
        }),
        Err(msg) => {
            eprintln!("shicho: {msg}");
            return ExitCode::from(2);
        }
    };
    let search = shicho::go::search::Params {
        playouts: cli.playouts.map(|n| n.max(1)),
        time,
        extension: None,
        resign_below: cli.resign.clamp(0.0, 1.0),
        threads: cli.threads.clamp(1, 64),
        tunables: shicho::go::search::Tunables::from_env(),
        network,
    };
    if let Err(e) = shicho::go::search::memory::tree_nodes(cli.max_memory, search.threads) {
        eprintln!("shicho: --max-memory {e}");
        return ExitCode::from(2);
    }
    let version = cli
        .override_version
        .unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string());
    let config = Config {
        game: cli.game,
        othello: othello::gtp::state::Config {
            size: othello_size,
            player: othello_player,
            learnt: othello_learnt,
            move_time: search.time,
            solve_threads: search.threads,
            seed: cli.seed,
            version: version.clone(),
        },
        go: go::gtp::state::Config {
            rules: cli.rules,
            size,
            komi,
            seed: cli.seed,
            player,
            search,
            ponder: cli.ponder,
            level: cli.level,
            max_memory: cli.max_memory,
            version,
        },
    };
    let network = match &config.go.search.network {
        Some(net) => format!("{net:?}"),
        None => "no network".into(),
    };
    log::info!(
        "starting: {} {size}x{size} komi {komi}, {network}",
        config.go.rules
    );
    let engine = Engine::new(config);
    let stdin = io::BufReader::new(io::stdin());
    match gtp::run(engine, stdin, io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // The controller closed our output: nothing more can be said to it.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shicho: {e}");
            ExitCode::FAILURE
        }
    }
}
