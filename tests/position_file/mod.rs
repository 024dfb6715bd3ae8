//! The fixed-position files of `benches/data` (`positions-*.txt`, written by
//! `scripts/positions`), read by `benches/positions.rs` and `benches/search.rs` and checked
//! by `tests/positions_data.rs`: one reader, so that the three agree on the format.
//!
//! A line is `ID SIZE KOMI TO_MOVE REFERENCE% SOURCE [best=V] [lost=V] MOVES...`: the moves
//! alternate from Black on the empty board (Chinese rules), the reference is the side to
//! move's win rate in percent or `-`, and the annotations before the moves name the
//! reference engine's move there (`best=`) and the move a game lost with (`lost=`).
//! Blank lines and lines starting with `#` are comments.

// The bench and the tests use different parts.
#![allow(dead_code)]

use std::path::Path;

use shicho::{Color, Game, Move, Rules};

pub struct PositionLine {
    pub id: String,
    pub game: Game,
    pub to_move: Color,
    /// The side to move's win rate by the reference engine, 0 to 1; none where it is `-`.
    pub reference: Option<f64>,
    /// The reference engine's move, when the line names it.
    pub best: Option<Move>,
    /// The move played in the game that the reference judged a clear loss.
    pub lost: Option<Move>,
}

/// The position a line describes, `Ok(None)` for a comment, or the line's problem: the moves
/// must replay legally, agree with the side to move, and the named moves be legal there
/// and differ.
pub fn parse(line: &str) -> Result<Option<PositionLine>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 6 {
        return Err("fewer than six fields".into());
    }
    let size: usize = fields[1].parse().map_err(|_| "size")?;
    let komi: f64 = fields[2].parse().map_err(|_| "komi")?;
    let to_move = match fields[3] {
        "b" => Color::Black,
        "w" => Color::White,
        other => return Err(format!("side to move {other}")),
    };
    let reference = match fields[4] {
        "-" => None,
        text => {
            let percent: f64 = text.parse().map_err(|_| "reference")?;
            if !(0.0..=100.0).contains(&percent) {
                return Err(format!("reference {percent} is no percentage"));
            }
            Some(percent / 100.0)
        }
    };
    let rest = &fields[6..];
    let first_move = rest
        .iter()
        .position(|field| !field.contains('='))
        .unwrap_or(rest.len());
    let (named, moves) = rest.split_at(first_move);
    if let Some(late) = moves.iter().find(|field| field.contains('=')) {
        return Err(format!("annotation {late} after the moves"));
    }
    let mut game = Game::new(size, Rules::default(), komi).map_err(|e| e.to_string())?;
    let mut c = Color::Black;
    for v in moves {
        let m = game
            .geometry()
            .parse_move(v)
            .map_err(|e| format!("{v}: {e}"))?;
        game.play(c, m).map_err(|e| format!("{v}: {e}"))?;
        c = c.other();
    }
    if c != to_move {
        return Err(format!("{} moves, yet {} to move", moves.len(), fields[3]));
    }
    let (mut best, mut lost) = (None, None);
    for field in named {
        let (key, v) = field.split_once('=').expect("an annotation holds '='");
        let m = game
            .geometry()
            .parse_move(v)
            .map_err(|e| format!("{v}: {e}"))?;
        game.clone()
            .play(to_move, m)
            .map_err(|e| format!("{key}={v}: {e}"))?;
        match key {
            "best" => best = Some(m),
            "lost" => lost = Some(m),
            _ => return Err(format!("unknown annotation {key}")),
        }
    }
    if best.is_some() && best == lost {
        return Err("best and lost name the same move".into());
    }
    Ok(Some(PositionLine {
        id: fields[0].to_string(),
        game,
        to_move,
        reference,
        best,
        lost,
    }))
}

/// Every position of a file, or the first bad line's problem (with the line's start).
pub fn read(path: &Path) -> Result<Vec<PositionLine>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for line in text.lines() {
        match parse(line) {
            Ok(Some(p)) => positions.push(p),
            Ok(None) => {}
            Err(problem) => {
                let start: String = line.trim().chars().take(40).collect();
                return Err(format!("{}: {start}: {problem}", path.display()));
            }
        }
    }
    Ok(positions)
}

/// The position files of `benches/data`, in name order.
pub fn files() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("benches/data")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("positions-") && name.ends_with(".txt"))
        })
        .collect();
    files.sort();
    files
}

/// Every `step`th position of `benches/data/FILE`, ten at most, with the side to move: the
/// real-game positions the speed benches time.
pub fn bench_positions(file: &str, step: usize) -> Vec<(Game, Color)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data")
        .join(file);
    let lines = read(&path).unwrap_or_else(|problem| panic!("{problem}"));
    lines
        .into_iter()
        .step_by(step)
        .take(10)
        .map(|line| (line.game, line.to_move))
        .collect()
}
