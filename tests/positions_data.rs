//! The fixed-position files of `benches/data` (read by `benches/positions.rs` and written by
//! `scripts/positions`): every line replays legally from the empty board, its side to move
//! follows from its move count, its reference is a percentage or `-`, and the moves a line
//! names (`best=`, `lost=`) are legal there and differ. A bench run is the only other reader,
//! and CI does not run benches.

use shicho::{Color, Game, Move, Rules};

fn position_files() -> Vec<std::path::PathBuf> {
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

/// The line's problem, if any.
fn check_line(line: &str) -> Result<(), String> {
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
    if fields[4] != "-" {
        let reference: f64 = fields[4].parse().map_err(|_| "reference")?;
        if !(0.0..=100.0).contains(&reference) {
            return Err(format!("reference {reference} is no percentage"));
        }
    }
    // Annotations come before the moves, as the bench reads them.
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
    let mut named_moves: Vec<Move> = Vec::new();
    for field in named {
        let (key, v) = field.split_once('=').expect("an annotation holds '='");
        if key != "best" && key != "lost" {
            return Err(format!("unknown annotation {key}"));
        }
        let m = game
            .geometry()
            .parse_move(v)
            .map_err(|e| format!("{v}: {e}"))?;
        game.clone()
            .play(to_move, m)
            .map_err(|e| format!("{key}={v}: {e}"))?;
        named_moves.push(m);
    }
    if named_moves.len() == 2 && named_moves[0] == named_moves[1] {
        return Err("best and lost name the same move".into());
    }
    Ok(())
}

#[test]
fn every_position_file_replays() {
    let files = position_files();
    assert!(files.len() >= 3, "position files: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut count = 0;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Err(problem) = check_line(line) {
                panic!(
                    "{}: {}: {problem}",
                    path.display(),
                    &line[..line.len().min(40)]
                );
            }
            count += 1;
        }
        assert!(count > 0, "{}: no positions", path.display());
    }
}

#[test]
fn a_bad_line_is_caught() {
    assert!(check_line("x 9 7.5 w 50 src E5").is_ok());
    assert!(check_line("x 9 7.5 w - src best=D4 lost=C3 E5").is_ok());
    let bad = [
        ("x 9 7.5 b 50 src E5", "wrong side to move"),
        ("x 9 7.5 w 150 src E5", "no percentage"),
        ("x 9 7.5 b 50 src E5 E5", "occupied point"),
        ("x 9 7.5 w 50 src best=E5 E5", "illegal best"),
        ("x 9 7.5 w 50 src best=D4 lost=D4 E5", "same move"),
        ("x 9 7.5 w 50 src worst=D4 E5", "unknown key"),
        ("x 9 7.5 w 50 src E5 best=D4", "annotation after the moves"),
    ];
    for (line, why) in bad {
        assert!(check_line(line).is_err(), "{why}: {line}");
    }
}
