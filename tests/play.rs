//! `shicho play` driven through stdin, as a person at the terminal drives it: whole games of
//! Go, Dao-qi (with view shifts) and Othello, with bad moves, undo, resignation and games
//! the rules end; the diagrams, the result, the CSV log row and the SGF record are checked.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use shicho::othello;

struct Run {
    out: String,
    err: String,
    code: Option<i32>,
}

/// A fresh directory for one test's files, removed when the test is done.
struct TempDir(PathBuf);

impl TempDir {
    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn dir(test: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("shicho-play-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

fn play(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shicho"))
        .arg("play")
        .args(args)
        .env("USER", "tester")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    Run {
        out: String::from_utf8(output.stdout).unwrap(),
        err: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code(),
    }
}

/// The diagrams in the output, in order (each from its column letters to its last row).
fn diagrams(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if is_letters(lines[i]) {
            // Column letters, rows, column letters again.
            let start = i;
            i += 1;
            while i < lines.len() && !is_letters(lines[i]) {
                i += 1;
            }
            found.push(lines[start..=i.min(lines.len() - 1)].join("\n"));
        }
        i += 1;
    }
    found
}

fn is_letters(line: &str) -> bool {
    line.starts_with("    ") && line.trim().split(' ').all(|w| w.len() == 1)
}

fn csv_rows(path: &PathBuf) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("start,duration_s,size,game,rules,black,white,result,black_discs,white_discs,moves")
    );
    lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn go_against_the_engine_with_a_bad_move_an_undo_and_a_resignation() {
    let d = dir("go");
    let log = d.join("games.csv");
    let sgf = d.join("game.sgf");
    let input = "e5\nz9\ne5\nd4\nundo\nf4\nhello there\n\ngg\n";
    let r = play(
        &[
            "--size",
            "9",
            "--player",
            "heuristic",
            "--log",
            log.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ],
        input,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let out = &r.out;
    assert!(out.starts_with("shicho play: Go 9x9, chinese rules, komi 7.5.\n"));
    assert!(out.contains("Black (X): tester. White (O): shicho heuristic."));
    let boards = diagrams(out);
    assert_eq!(
        boards[0],
        "    A B C D E F G H J\n 9  . . . . . . . . .  9\n 8  . . . . . . . . .  8\n \
         7  . . . . . . . . .  7\n 6  . . . . . . . . .  6\n 5  . . . . . . . . .  5\n \
         4  . . . . . . . . .  4\n 3  . . . . . . . . .  3\n 2  . . . . . . . . .  2\n \
         1  . . . . . . . . .  1\n    A B C D E F G H J"
    );
    // Black's E5, marked as the last move; then the engine's reply, marked in its turn.
    assert!(
        boards[1].contains("\n 5  . . . .(X). . . .  5\n"),
        "{}",
        boards[1]
    );
    assert!(out.contains("shicho (White) plays "));
    assert!(boards[2].contains('('));
    assert!(!boards[2].contains("(X)"));
    // Bad input: one line each, the board unchanged (no redraw in between).
    assert!(out.contains("'z9' is not a point of this 9x9 board"));
    assert!(out.contains("Illegal move E5: point is occupied."));
    assert!(out.contains("Not a move or a command: 'hello there' (type help)."));
    // undo takes back D4 and the engine's reply: the board is the one before D4.
    assert!(out.contains("Took back 2 moves."));
    let after_undo = out.split("Took back 2 moves.\n").nth(1).unwrap();
    let undone = &diagrams(after_undo)[0];
    assert_eq!(undone, &boards[2]);
    assert!(out.contains("Black passes."));
    assert!(out.contains("Game over: Black resigns: White wins.\nResult: W+R\n"));
    let rows = csv_rows(&log);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert!(row[0].ends_with('Z') && row[0].len() == 20, "{row:?}");
    assert_eq!(
        row[2..],
        [
            "9x9",
            "go",
            "chinese",
            "tester",
            "shicho heuristic",
            "W+R",
            "",
            "",
            "6"
        ]
    );
    let record = std::fs::read_to_string(&sgf).unwrap();
    assert!(record.starts_with("(;FF[4]GM[1]"), "{record}");
    assert!(record.contains("RE[W+R]") && record.contains("PB[tester]"));
    assert!(record.contains(";B[ee];W["), "{record}");
}

#[test]
fn go_between_two_people_is_counted_after_two_passes() {
    let d = dir("go-count");
    let log = d.join("games.csv");
    let r = play(
        &[
            "--size",
            "5",
            "--white",
            "human",
            "--log",
            log.to_str().unwrap(),
        ],
        "c3\npass\nundo\nundo\nb2\n\npass\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("White passes."));
    assert!(r.out.contains("Took back 1 move.\n"));
    assert!(
        r.out.contains(
            "Game over: Black wins by 17.5 (B+17.5, area scoring, komi 7.5; 0 dead stones removed).\nResult: B+17.5\n"
        ),
        "{}",
        r.out
    );
    let rows = csv_rows(&log);
    assert_eq!(
        rows[0][2..],
        [
            "5x5", "go", "chinese", "tester", "tester", "B+17.5", "", "", "3"
        ]
    );
}

#[test]
fn daoqi_captures_across_the_edge_and_shifts_the_view() {
    let d = dir("daoqi");
    let log = d.join("games.csv");
    // Black A5 is taken by White J5, its neighbour across the left edge.
    let input =
        "a5\na6\nb1\na4\nb2\nb5\nb3\nj5\nL 2\nU 1\nR\nD 1\nk9\nundo\nj5\nd9\nl3\nd3\nresign\n";
    let r = play(
        &[
            "--rules",
            "daoqi",
            "--size",
            "9",
            "--black",
            "human",
            "--white",
            "human",
            "--log",
            log.to_str().unwrap(),
        ],
        input,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let out = &r.out;
    assert!(out.starts_with(
        "shicho play: Go 9x9, daoqi rules (Go on a torus: the edges wrap around), komi 4.\n"
    ));
    assert!(out.contains("`L n`, `R n`, `U n`, `D n` shift the view"));
    let boards = diagrams(out);
    // After J5 (move 8): A5 is gone, one capture.
    let captured = &boards[8];
    assert!(
        captured.contains("\n 5  . O . . . . . .(O) 5\n"),
        "{captured}"
    );
    assert!(
        captured.contains("\n 6  O . . . . . . . .  6\n"),
        "{captured}"
    );
    assert!(out.contains("Move 8. Captures: Black 0, White 1."));
    // L 2: the picture two columns left (labels follow the points).
    let left = &boards[9];
    assert!(left.starts_with("    C D E F G H J A B\n"), "{left}");
    assert!(left.contains("\n 5  . . . . . .(O). O  5\n"), "{left}");
    assert!(out.contains("View shifted 2 columns left."));
    // U 1: one row up, so row 9 is drawn below row 1... and row 1 is second from the bottom.
    let up = &boards[10];
    assert!(up.contains("\n 8  "), "{up}");
    assert!(up.lines().nth(1).unwrap().starts_with(" 8 "), "{up}");
    assert!(up.lines().nth(9).unwrap().starts_with(" 9 "), "{up}");
    assert!(out.contains("View shifted 2 columns left, 1 row up."));
    // R (one), then D 1: back to one column left and no row shift.
    assert!(boards[11].starts_with("    B C D E F G H J A\n"));
    assert!(boards[12].lines().nth(1).unwrap().starts_with(" 9 "));
    assert!(out.contains("View shifted 1 column left.\n"));
    // K9 is off the board (no K on 9x9), then J5 is taken back and played again.
    assert!(out.contains("'k9' is not a point of this 9x9 board"));
    assert!(out.contains("Took back 1 move."));
    // `l3` glued: no L column on 9x9, so a shift; `d3` is a point, so White's move; then
    // Black resigns.
    assert!(out.contains("View shifted 4 columns left.\n"), "{out}");
    assert!(out.contains("Move 10. Captures: Black 0, White 1. "));
    assert!(out.contains("Game over: Black resigns: White wins.\nResult: W+R\n"));
    let rows = csv_rows(&log);
    assert_eq!(
        rows[0][2..],
        [
            "9x9", "go", "daoqi", "tester", "tester", "W+R", "", "", "10"
        ]
    );
}

/// Greedy against greedy, the moves a person would type: every disc move, no passes (the
/// session passes by itself for a side without a move). Returns the moves and the final
/// disc counts.
fn greedy_game(size: usize) -> (Vec<String>, othello::Score) {
    let mut g = othello::Game::new(size).unwrap();
    let mut typed = Vec::new();
    while !g.is_over() {
        let c = g.to_move();
        match othello::greedy_move(g.board(), c) {
            Some(s) => {
                typed.push(s.to_string().to_lowercase());
                g.play(othello::Move::Play(s)).unwrap();
            }
            None => {
                g.play(othello::Move::Pass).unwrap();
            }
        }
    }
    (typed, g.score())
}

#[test]
fn othello_between_two_people_to_the_end_with_a_bad_move_and_an_undo() {
    let d = dir("othello");
    let log = d.join("games.csv");
    let sgf = d.join("game.sgf");
    let (moves, score) = greedy_game(8);
    // Black first tries a square that flips nothing, then Enter (no pass with a move), then
    // plays; White's first move is taken back and played again.
    let mut input = format!("a1\n\n{}\n{}\nundo\n", moves[0], moves[1]);
    for m in &moves[1..] {
        input.push_str(m);
        input.push('\n');
    }
    let r = play(
        &[
            "--game",
            "othello",
            "--white",
            "human",
            "--log",
            log.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let out = &r.out;
    assert!(out.starts_with("shicho play: Othello 8x8.\n"));
    let boards = diagrams(out);
    assert_eq!(
        boards[0],
        "    A B C D E F G H\n 1  . . . . . . . .  1\n 2  . . . . . . . .  2\n \
         3  . . . . . . . .  3\n 4  . . . O X . . .  4\n 5  . . . X O . . .  5\n \
         6  . . . . . . . .  6\n 7  . . . . . . . .  7\n 8  . . . . . . . .  8\n    A B C D E F G H"
    );
    assert!(out.contains("Illegal move A1: flips nothing (legal: D3 C4 F5 E6)."));
    assert!(out.contains("No pass while you have a move (D3 C4 F5 E6)."));
    // Greedy's first move is D3 (the first of equals in reading order).
    assert!(
        boards[1].contains("\n 3  . . .(X). . . .  3\n"),
        "{}",
        boards[1]
    );
    assert!(out.contains("Took back 1 move."));
    let (winner, w, l) = if score.black > score.white {
        ("Black", score.black, score.white)
    } else {
        ("White", score.white, score.black)
    };
    assert_ne!(score.black, score.white, "the greedy game is not a draw");
    assert!(
        out.contains(&format!(
            "Game over: {winner} wins {w} to {l}.\nResult: {score}\n"
        )),
        "{out}"
    );
    let rows = csv_rows(&log);
    let row = &rows[0];
    assert_eq!(row[2..5], ["8x8", "othello", "othello"]);
    assert_eq!(row[7], score.to_string());
    assert_eq!(row[8], score.black.to_string());
    assert_eq!(row[9], score.white.to_string());
    let record = std::fs::read_to_string(&sgf).unwrap();
    assert!(record.starts_with("(;FF[4]GM[2]"));
    assert!(record.contains(&format!("RE[{score}]")));
    assert!(record.contains(";B[dc]"));
}

#[test]
fn othello_against_the_engine_ends_by_resignation() {
    let d = dir("othello-engine");
    let log = d.join("games.csv");
    let r = play(
        &[
            "--game",
            "othello",
            "--player",
            "greedy",
            "--log",
            log.to_str().unwrap(),
        ],
        "d3\nresign\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    // Greedy answers d3 with C3: each of C3, E3, C5 turns one disc, and C3 comes first in
    // reading order.
    assert!(
        r.out.contains("shicho (White) plays C3 (turns 1 over)."),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("Game over: Black resigns: White wins.\nResult: W+R\n")
    );
    let rows = csv_rows(&log);
    assert_eq!(
        rows[0][2..8],
        [
            "8x8",
            "othello",
            "othello",
            "tester",
            "shicho greedy",
            "W+R"
        ]
    );
    // The disc counts when Black resigned.
    let discs: u32 = rows[0][8].parse::<u32>().unwrap() + rows[0][9].parse::<u32>().unwrap();
    assert_eq!(discs, 6);
}

#[test]
fn engine_against_engine_needs_no_input() {
    let r = play(
        &[
            "--game", "othello", "--size", "6", "--black", "engine", "--player", "greedy",
        ],
        "",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("Result: "));
}

#[test]
fn bad_options_and_end_of_input() {
    let r = play(&["--game", "othello", "--size", "7"], "");
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.err,
        "shicho play: Othello boards are even, 4 to 26 squares wide\n"
    );
    let r = play(&["--game", "othello", "--rules", "japanese"], "");
    assert_eq!(r.code, Some(2));
    let r = play(&["--size", "30"], "");
    assert_eq!(r.code, Some(2));
    // Input ends mid-game: nothing is logged.
    let d = dir("eof");
    let log = d.join("games.csv");
    let r = play(
        &[
            "--size",
            "9",
            "--white",
            "human",
            "--log",
            log.to_str().unwrap(),
        ],
        "e5\n",
    );
    assert_eq!(r.code, Some(0));
    assert!(
        r.out
            .ends_with("Left unfinished (end of input): nothing logged.\n")
    );
    assert!(!log.exists());
}
