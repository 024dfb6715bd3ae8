//! `shicho play`'s options.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::go::rules::Rules;

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Go under any rules (`--rules`; `daoqi` is Go on a torus).
    Go,
    /// Othello (Reversi) on an even board, 8x8 by default.
    Othello,
}

/// Who plays one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// A person typing moves at this terminal.
    Human,
    /// shicho.
    Engine,
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
    #[arg(long, default_value = crate::search::DEFAULT_WEIGHTS)]
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
