//! The fixed-position files of `benches/data` (read by the positions and search benches and
//! written by `scripts/positions`): every line replays legally from the empty board, its
//! side to move follows from its move count, its reference is a percentage or `-`, and the
//! moves a line names (`best=`, `lost=`) are legal there and differ. The benches read the
//! files with the same reader, and CI does not run benches.

#[path = "position_file/mod.rs"]
mod position_file;

fn check_line(line: &str) -> Result<(), String> {
    position_file::parse(line).map(|_| ())
}

#[test]
fn every_position_file_replays() {
    let files = position_file::files();
    assert!(files.len() >= 3, "position files: {files:?}");
    for path in files {
        let positions = position_file::read(&path).unwrap_or_else(|problem| panic!("{problem}"));
        assert!(!positions.is_empty(), "{}: no positions", path.display());
    }
}

#[test]
fn a_bad_line_is_caught() {
    assert!(check_line("x 9 7.5 w 50 src E5").is_ok());
    assert!(check_line("x 9 7.5 w - src best=D4 lost=C3 E5").is_ok());
    assert!(check_line("# a comment").is_ok());
    let bad = [
        ("x 9 7.5 b 50 src E5", "wrong side to move"),
        ("x 9 7.5 w 150 src E5", "no percentage"),
        ("x 9 7.5 b 50 src E5 E5", "occupied point"),
        ("x 9 7.5 w 50 src best=E5 E5", "illegal best"),
        ("x 9 7.5 w 50 src best=D4 lost=D4 E5", "same move"),
        ("x 9 7.5 w 50 src worst=D4 E5", "unknown key"),
        ("x 9 7.5 w 50 src E5 best=D4", "annotation after the moves"),
        ("x 9 7.5 w 50", "too few fields"),
    ];
    for (line, why) in bad {
        assert!(check_line(line).is_err(), "{why}: {line}");
    }
}

#[test]
fn a_line_reads_as_its_position() {
    let p = position_file::parse("x 9 7.5 w 61.5 src best=D4 lost=C3 E5")
        .expect("a good line")
        .expect("not a comment");
    assert_eq!(p.id, "x");
    assert_eq!(p.to_move, shicho::Color::White);
    assert_eq!(p.reference, Some(0.615));
    let geo = p.game.geometry();
    assert_eq!(p.best.map(|m| geo.format_move(m)).as_deref(), Some("D4"));
    assert_eq!(p.lost.map(|m| geo.format_move(m)).as_deref(), Some("C3"));
    assert_eq!(
        p.game.board().get(geo.parse_point("E5").expect("E5")),
        Some(shicho::Color::Black)
    );
}
