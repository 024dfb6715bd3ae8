//! `shicho play`: its options, and the game and seats they make for the terminal session
//! (`terminal::session`).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::go::game::Game;
use crate::go::rules::Rules;
use crate::go::search::{Network, Params, Player, Tunables};
use crate::go::terminal::GoGame;
use crate::othello::terminal::OthelloGame;
use crate::othello::{self, Limits, PlayerKind};
use crate::terminal::played::Finished;
use crate::terminal::session::{self, PlayError, Seats, Side};

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Go under any rules (`--rules`; `daoqi` is Go on a torus).
    Go,
    /// Othello (Reversi) on an even board, 8x8 by default.
    Othello,
}

/// Play a game in the terminal: the board is redrawn after every move; type moves as
/// vertices (D4), Enter or `pass` to pass, `undo`, `resign` or `gg`, `help`; on a torus
/// `L n`, `R n`, `U n`, `D n` shift the view.
#[derive(Args, Clone, Debug)]
pub struct Options {
    /// The game: go (with --rules: any preset, daoqi on a torus) or othello.
    #[arg(long, value_enum, default_value = "go")]
    pub game: GameKind,
    /// Go rules: japanese, chinese (default), aga, new-zealand, tromp-taylor, daoqi (torus),
    /// or ko=..,suicide=..,scoring=..,topology=..
    #[arg(long)]
    pub rules: Option<Rules>,
    /// Board size; default 19 for Go, 16 for Dao-qi, 8 for Othello (even, 4..26).
    #[arg(long)]
    pub size: Option<usize>,
    /// Komi (Go); default 7.5 for area scoring, 6.5 for territory, 4 for daoqi.
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,
    /// Who plays Black.
    #[arg(long, value_enum, default_value = "human")]
    pub black: Side,
    /// Who plays White.
    #[arg(long, value_enum, default_value = "engine")]
    pub white: Side,
    /// How the engine chooses: for Go mcts (default), heuristic or random; for Othello
    /// searcher (default), greedy or random.
    #[arg(long)]
    pub player: Option<String>,
    /// Go: the neural network for the tree's priors: builtin, none (the classic engine) or
    /// a safetensors file.
    #[arg(long, default_value = crate::go::search::DEFAULT_WEIGHTS)]
    pub weights: String,
    /// Go: most simulations per engine move (default 20,000, or none with --time).
    #[arg(long)]
    pub playouts: Option<usize>,
    /// Most seconds per engine move (Go's tree search; Othello's searcher, default 1).
    #[arg(long)]
    pub time: Option<f64>,
    /// Othello: the searcher looks this many plies ahead (repeatable; instead of --time).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Go: the engine resigns when its best move wins less often than this, two searches
    /// in a row (0: never).
    #[arg(long, default_value_t = 0.1)]
    pub resign: f64,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append one CSV row per finished game to this file (a header first if it is new).
    #[arg(long, value_name = "FILE.csv")]
    pub log: Option<PathBuf>,
    /// Save the finished game as SGF to this file.
    #[arg(long, value_name = "FILE.sgf")]
    pub sgf: Option<PathBuf>,
    /// The person's name for the log and the record (default: $USER, else "human").
    #[arg(long)]
    pub name: Option<String>,
}

impl Options {
    /// Who sits where, and where the finished game goes.
    pub fn seats(&self) -> Seats {
        Seats {
            black: self.black,
            white: self.white,
            name: self.name.clone(),
            log: self.log.clone(),
            sgf: self.sgf.clone(),
        }
    }
}

/// Plays the game the options ask for with the person at `input`/`output`; returns how it
/// ended, or `None` when it was left unfinished (`quit`, end of input).
///
/// # Errors
/// `Options` for options that make no game; `Io` when reading or writing fails.
pub fn run(
    options: &Options,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<Option<Finished>, PlayError> {
    let seats = options.seats();
    match new_game(options)? {
        NewGame::Go(mut game) => session::run(game.as_mut(), &seats, input, output),
        NewGame::Othello(mut game) => session::run(game.as_mut(), &seats, input, output),
    }
}

/// The game the options make, with the engine's settings.
enum NewGame {
    Go(Box<GoGame>),
    Othello(Box<OthelloGame>),
}

fn new_game(o: &Options) -> Result<NewGame, PlayError> {
    fn bad<T>(why: &str) -> Result<T, PlayError> {
        Err(PlayError::Options(why.to_string()))
    }
    if let Some(t) = o.time
        && !(t.is_finite() && t > 0.0)
    {
        return bad("--time must be a positive number of seconds");
    }
    let time = o.time.map(Duration::from_secs_f64);
    match o.game {
        GameKind::Go => {
            let rules = o.rules.unwrap_or_default();
            let size = o.size.unwrap_or(rules.default_size());
            let komi = o.komi.unwrap_or(rules.default_komi());
            if !komi.is_finite() {
                return bad("--komi must be a number");
            }
            if o.depth.is_some() {
                return bad("--depth is for Othello (Go: --playouts or --time)");
            }
            let player: Player = match &o.player {
                None => Player::Mcts,
                Some(p) => p
                    .parse()
                    .or_else(|_| bad("Go players: mcts, heuristic, random"))?,
            };
            let Ok(game) = Game::new(size, rules, komi) else {
                return bad(&format!(
                    "Go boards are {} to {} points wide",
                    crate::go::geometry::MIN_SIZE,
                    crate::go::geometry::MAX_SIZE
                ));
            };
            let params = Params {
                playouts: o.playouts.map(|n| n.max(1)),
                time,
                extension: None,
                resign_below: o.resign.clamp(0.0, 1.0),
                threads: 1,
                tunables: Tunables::from_env(),
                network: match Network::from_option(&o.weights) {
                    Ok(n) => n,
                    Err(why) => return bad(&why),
                },
            };
            Ok(NewGame::Go(Box::new(GoGame::new(
                game, player, params, o.seed,
            ))))
        }
        GameKind::Othello => {
            if o.rules.is_some() || o.komi.is_some() {
                return bad("--rules and --komi are for Go; Othello has one rule");
            }
            if o.playouts.is_some() {
                return bad("--playouts is for Go (Othello: --depth or --time)");
            }
            let player: PlayerKind = match &o.player {
                None => PlayerKind::Searcher,
                Some(p) => p
                    .parse()
                    .or_else(|_| bad("Othello players: searcher, greedy, random"))?,
            };
            let Ok(game) = othello::Game::new(o.size.unwrap_or(8)) else {
                return bad("Othello boards are even, 4 to 26 squares wide");
            };
            let limits = match (o.depth, time) {
                (Some(d), _) => Limits::depth(d.max(1)),
                (None, Some(t)) => Limits::time(t),
                (None, None) => Limits::time(Duration::from_secs(1)),
            };
            Ok(NewGame::Othello(Box::new(OthelloGame::new(
                game, player, limits, o.seed,
            ))))
        }
    }
}
