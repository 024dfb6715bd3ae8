//! The exact bytes of GTP responses, driven in-process through `Engine::handle`: every error
//! text the spec defines, ids echoed digit for digit, the framing (one space after the id,
//! `\n\n` at the end, no empty line inside), silence for blank and comment lines, and a
//! failing command leaving the state exactly as it was.
//!
//! gogui-regress counts any `?` as a failure whatever its text, so the .tst suites cannot
//! check these texts; this file does.

use shicho::engine::{Config, Engine};

fn engine() -> Engine {
    Engine::new(Config::default())
}

/// The full response to one line.
///
/// # Panics
/// When the line gets no response.
fn send(e: &mut Engine, line: &str) -> String {
    e.handle(line.as_bytes())
        .unwrap_or_else(|| panic!("no response to {line:?}"))
        .text
}

/// Sends setup lines that must all succeed.
fn setup(e: &mut Engine, lines: &[&str]) {
    for line in lines {
        let r = send(e, line);
        assert!(r.starts_with('='), "setup {line:?} failed: {r:?}");
    }
}

/// Asserts the exact response of each `(line, response)` pair, in order.
fn expect(e: &mut Engine, cases: &[(&str, &str)]) {
    for &(line, want) in cases {
        assert_eq!(send(e, line), want, "response to {line:?}");
    }
}

// ----- the spec's error texts -------------------------------------------------------------

#[test]
fn unknown_command() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            ("frobnicate", "? unknown command\n\n"),
            ("7 frobnicate", "?7 unknown command\n\n"),
            // Names are case sensitive.
            ("PLAY b D4", "? unknown command\n\n"),
            ("genmove_black", "? unknown command\n\n"),
            ("12abc", "? unknown command\n\n"),
            ("-1 name", "? unknown command\n\n"),
        ],
    );
}

#[test]
fn syntax_error() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            ("boardsize nine", "? syntax error\n\n"),
            ("1 boardsize", "?1 syntax error\n\n"),
            ("boardsize 9 9", "? syntax error\n\n"),
            ("boardsize -9", "? syntax error\n\n"),
            ("boardsize 99999999999999999999", "? syntax error\n\n"),
            ("komi", "? syntax error\n\n"),
            ("komi seven", "? syntax error\n\n"),
            ("komi nan", "? syntax error\n\n"),
            ("komi inf", "? syntax error\n\n"),
            ("komi 1e999", "? syntax error\n\n"),
            ("play", "? syntax error\n\n"),
            ("play b", "? syntax error\n\n"),
            ("play red D4", "? syntax error\n\n"),
            ("play b D4 E5", "? syntax error\n\n"),
            ("play b I5", "? syntax error\n\n"),
            ("play b resign", "? syntax error\n\n"),
            ("genmove", "? syntax error\n\n"),
            ("genmove purple", "? syntax error\n\n"),
            ("reg_genmove", "? syntax error\n\n"),
            ("undo 1", "? syntax error\n\n"),
            ("gg-undo x", "? syntax error\n\n"),
            ("gg-undo -1", "? syntax error\n\n"),
            ("fixed_handicap", "? syntax error\n\n"),
            ("fixed_handicap two", "? syntax error\n\n"),
            ("place_free_handicap", "? syntax error\n\n"),
            ("time_settings 1 2", "? syntax error\n\n"),
            ("time_settings -1 2 3", "? syntax error\n\n"),
            ("time_left b 10", "? syntax error\n\n"),
            ("time_left x 10 0", "? syntax error\n\n"),
            ("kgs-time_settings absolute", "? syntax error\n\n"),
            ("kgs-time_settings fischer 1 2", "? syntax error\n\n"),
            ("kata-time_settings fischer 1", "? syntax error\n\n"),
            (
                "kata-time_settings fischer-capped 1 2 -1",
                "? syntax error\n\n",
            ),
            ("kata-list_time_settings x", "? syntax error\n\n"),
            ("kgs-rules", "? syntax error\n\n"),
            ("kgs-game_over now", "? syntax error\n\n"),
            ("kgs-chat game", "? syntax error\n\n"),
            ("kgs-chat room alice hi", "? syntax error\n\n"),
            ("final_score x", "? syntax error\n\n"),
            ("final_status_list", "? syntax error\n\n"),
            ("final_status_list undecided", "? syntax error\n\n"),
            ("loadsgf", "? syntax error\n\n"),
            ("loadsgf a.sgf 3 4", "? syntax error\n\n"),
            ("printsgf a b", "? syntax error\n\n"),
            ("known_command", "? syntax error\n\n"),
            ("list_commands x", "? syntax error\n\n"),
            ("protocol_version 2", "? syntax error\n\n"),
            ("showboard x", "? syntax error\n\n"),
            ("gogui-play_sequence b", "? syntax error\n\n"),
            ("gogui-setup b pass", "? syntax error\n\n"),
            ("gogui-setup_player x", "? syntax error\n\n"),
            ("kata-set-rules", "? syntax error\n\n"),
            ("analyze purple", "? syntax error\n\n"),
            ("lz-analyze b 10 interval", "? syntax error\n\n"),
            ("kata-analyze w interval x", "? syntax error\n\n"),
            ("kata-genmove_analyze b interval", "? syntax error\n\n"),
            ("lz-genmove_analyze b 10 avoid b D4", "? syntax error\n\n"),
            // A line with an id and nothing else.
            ("42", "?42 syntax error\n\n"),
            ("  0042  ", "?0042 syntax error\n\n"),
        ],
    );
}

#[test]
fn unacceptable_size() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            ("boardsize 0", "? unacceptable size\n\n"),
            ("boardsize 1", "? unacceptable size\n\n"),
            ("3 boardsize 26", "?3 unacceptable size\n\n"),
            ("boardsize 2147483647", "? unacceptable size\n\n"),
            ("boardsize 2", "= \n\n"),
            ("boardsize 25", "= \n\n"),
        ],
    );
}

#[test]
fn illegal_move() {
    let mut e = engine();
    setup(
        &mut e,
        &[
            "boardsize 9",
            "play b c3",
            "play w b1",
            "play w a2",
            // A ko: Black F5 will take White E5.
            "play b d5",
            "play b e6",
            "play b e4",
            "play w e5",
            "play w g5",
            "play w f6",
            "play w f4",
        ],
    );
    expect(
        &mut e,
        &[
            // Occupied.
            ("play w c3", "? illegal move\n\n"),
            ("5 play b C3", "?5 illegal move\n\n"),
            ("black c3", "? illegal move\n\n"),
            ("white c3", "? illegal move\n\n"),
            // Suicide (Chinese rules forbid it).
            ("play b a1", "? illegal move\n\n"),
            // Off the board: a vertex, but not one of this board.
            ("play b j10", "? illegal move\n\n"),
            ("play b z1", "? illegal move\n\n"),
            // The ko: White may not take back at once.
            ("play b f5", "= \n\n"),
            ("captures b", "= 1\n\n"),
            ("play w e5", "? illegal move\n\n"),
            ("gogui-play_sequence b h3 b h3", "? illegal move\n\n"),
            ("trymove b c3", "? illegal move\n\n"),
        ],
    );
}

#[test]
fn cannot_undo() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            ("undo", "? cannot undo\n\n"),
            ("8 undo", "?8 cannot undo\n\n"),
            ("gg-undo", "? cannot undo\n\n"),
            ("play b d4", "= \n\n"),
            ("gg-undo 2", "? cannot undo\n\n"),
            ("undo", "= \n\n"),
            ("undo", "? cannot undo\n\n"),
            ("fixed_handicap 4", "= D16 Q16 D4 Q4\n\n"),
            ("undo", "? cannot undo\n\n"),
        ],
    );
}

/// `cannot score` cannot happen: every komi the parser accepts is finite, and so is every
/// score, even at the ends of the `f64` range.
#[test]
fn final_score_never_fails() {
    let mut e = engine();
    // Small, because final_score estimates dead stones by playouts.
    setup(&mut e, &["boardsize 5", "play b c3"]);
    for komi in [
        "1.7976931348623157e308",
        "-1.7976931348623157e308",
        "0",
        "-0",
        "1e-300",
    ] {
        setup(&mut e, &[&format!("komi {komi}")]);
        let r = send(&mut e, "final_score");
        assert!(
            r == "= 0\n\n" || r.starts_with("= B+") || r.starts_with("= W+"),
            "komi {komi}: {r:?}"
        );
    }
    for rules in ["japanese", "daoqi"] {
        setup(&mut e, &[&format!("kata-set-rules {rules}"), "komi 1e308"]);
        assert!(send(&mut e, "final_score").starts_with("= W+"));
    }
}

#[test]
fn board_not_empty() {
    let mut e = engine();
    setup(&mut e, &["boardsize 9", "play b e5"]);
    expect(
        &mut e,
        &[
            ("fixed_handicap 2", "? board not empty\n\n"),
            ("place_free_handicap 2", "? board not empty\n\n"),
            ("set_free_handicap a1 b2", "? board not empty\n\n"),
            ("gogui-setup b a1", "? board not empty\n\n"),
        ],
    );
    // A pass is a move too; handicap stones already there count as well.
    setup(&mut e, &["clear_board", "play b pass"]);
    expect(&mut e, &[("2 fixed_handicap 2", "?2 board not empty\n\n")]);
    setup(&mut e, &["clear_board", "fixed_handicap 2"]);
    expect(&mut e, &[("fixed_handicap 2", "? board not empty\n\n")]);
}

#[test]
fn invalid_number_of_stones() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            ("fixed_handicap 0", "? invalid number of stones\n\n"),
            ("fixed_handicap 1", "? invalid number of stones\n\n"),
            ("fixed_handicap 10", "? invalid number of stones\n\n"),
            ("place_free_handicap 1", "? invalid number of stones\n\n"),
            ("place_free_handicap 361", "? invalid number of stones\n\n"),
            ("boardsize 7", "= \n\n"),
            ("fixed_handicap 5", "? invalid number of stones\n\n"),
            ("boardsize 6", "= \n\n"),
            ("4 fixed_handicap 2", "?4 invalid number of stones\n\n"),
        ],
    );
}

#[test]
fn bad_vertex_list() {
    let mut e = engine();
    setup(&mut e, &["boardsize 9"]);
    let mut whole_board = String::from("set_free_handicap");
    for row in 1..=9 {
        for col in "ABCDEFGHJ".chars() {
            whole_board.push_str(&format!(" {col}{row}"));
        }
    }
    expect(
        &mut e,
        &[
            ("set_free_handicap", "? bad vertex list\n\n"),
            ("set_free_handicap a1", "? bad vertex list\n\n"),
            ("set_free_handicap a1 a1", "? bad vertex list\n\n"),
            ("set_free_handicap a1 A1", "? bad vertex list\n\n"),
            ("set_free_handicap a1 pass", "? bad vertex list\n\n"),
            ("set_free_handicap a1 j10", "? bad vertex list\n\n"),
            ("set_free_handicap a1 i1", "? bad vertex list\n\n"),
            ("set_free_handicap a1 b", "? bad vertex list\n\n"),
            (&whole_board, "? bad vertex list\n\n"),
            ("9 set_free_handicap a1 b2", "=9 \n\n"),
        ],
    );
}

#[test]
fn cannot_load_file() {
    let dir = std::env::temp_dir().join(format!("shicho-gtp-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let malformed = dir.join("malformed.sgf");
    std::fs::write(&malformed, "(;GM[1]FF[4]SZ[9];B[ee];W[").unwrap();
    let not_go = dir.join("chess.sgf");
    std::fs::write(&not_go, "(;GM[3]FF[4])").unwrap();
    let too_big = dir.join("big.sgf");
    std::fs::write(&too_big, "(;GM[1]FF[4]SZ[26])").unwrap();
    let occupied = dir.join("occupied.sgf");
    std::fs::write(&occupied, "(;GM[1]FF[4]SZ[9];B[ee];W[ee])").unwrap();
    let good = dir.join("good.sgf");
    std::fs::write(&good, "(;GM[1]FF[4]SZ[9];B[ee];W[cc])").unwrap();
    let missing = dir.join("missing.sgf");
    let mut e = engine();
    for (file, want) in [
        (&missing, "? cannot load file\n\n"),
        (&malformed, "? cannot load file\n\n"),
        (&not_go, "? cannot load file\n\n"),
        (&too_big, "? cannot load file\n\n"),
        (&occupied, "? cannot load file\n\n"),
        (&dir, "? cannot load file\n\n"),
        (&good, "= black\n\n"),
    ] {
        let line = format!("loadsgf {}", file.display());
        assert_eq!(send(&mut e, &line), want, "{line}");
    }
    let line = format!("31 loadsgf {}", missing.display());
    assert_eq!(send(&mut e, &line), "?31 cannot load file\n\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU Go's texts for its own commands, which its regression suites were written against.
#[test]
fn gnu_go_extension_texts() {
    let mut e = engine();
    setup(
        &mut e,
        &[
            "boardsize 9",
            "gogui-play_sequence w g7 w g6 b g8 b f7 b h7 b h6",
        ],
    );
    expect(
        &mut e,
        &[
            ("countlib a1", "? vertex must not be empty\n\n"),
            ("findlib z1", "? invalid coordinate\n\n"),
            ("attack a1", "? vertex must not be empty\n\n"),
            ("defend j10", "? invalid coordinate\n\n"),
            ("color pass", "? invalid coordinate\n\n"),
            (
                "ladder_attack g8",
                "? string must have exactly 2 liberties\n\n",
            ),
            ("does_attack g7 g7", "? move vertex must be empty\n\n"),
            ("does_defend g5 a1", "? string vertex must not be empty\n\n"),
            ("is_legal x a1", "? invalid color or coordinate\n\n"),
            ("is_legal b", "? invalid color or coordinate\n\n"),
            ("trymove b z9", "? invalid color or coordinate\n\n"),
            ("list_stones blue", "? invalid color\n\n"),
            ("captures blue", "? invalid color\n\n"),
            ("all_legal blue", "? invalid color\n\n"),
            ("popgo", "? Stack empty.\n\n"),
        ],
    );
}

#[test]
fn time_system_and_server_texts() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            (
                "kata-time_settings blitz 1",
                "? unknown time system (not one of none, absolute, byoyomi, canadian, fischer, fischer-capped)\n\n",
            ),
            (
                "kata-time_settings fischer-capped 60 2 30 -1",
                "? main time limit below main time\n\n",
            ),
            ("kata-time_settings fischer 60 2", "= \n\n"),
            (
                "time_left b 30 1",
                "? stones must be 0: the time system has no byo-yomi\n\n",
            ),
            ("time_left b 30 0", "= \n\n"),
            (
                "kgs-rules go",
                "? unknown rules 'go' (KGS's are japanese, chinese, aga, new_zealand)\n\n",
            ),
            (
                "kgs-rules tromp-taylor",
                "? unknown rules 'tromp-taylor' (KGS's are japanese, chinese, aga, new_zealand)\n\n",
            ),
        ],
    );
}

/// The analysis commands' texts for arguments KataGo's reading refuses, and `kata-raw-nn`'s.
#[test]
fn analysis_argument_texts() {
    let mut e = engine();
    setup(&mut e, &["boardsize 9"]);
    expect(
        &mut e,
        &[
            (
                "kata-analyze b 10 avoid b Z99 1",
                "? bad analysis argument: 'Z99' is not a vertex of this board\n\n",
            ),
            (
                "lz-analyze b 10 avoid b D4 0",
                "? bad analysis argument: avoid's ply must be 1 or more, not 0\n\n",
            ),
            (
                "kata-genmove_analyze w allow w D4 1 allow w E5 2",
                "? bad analysis argument: allow excludes any other avoid or allow for white\n\n",
            ),
            (
                "genmove_analyze b rootInfo true",
                "? bad analysis argument: rootInfo is a key of the kata- commands\n\n",
            ),
            (
                "kata-analyze b frobnicate 1",
                "? bad analysis argument: unknown key 'frobnicate'\n\n",
            ),
            // Without a network kata-raw-nn is not offered at all.
            ("kata-raw-nn 0", "? unknown command\n\n"),
        ],
    );
    let mut net = Engine::new(Config {
        go: shicho::go::gtp::state::Config {
            search: shicho::go::search::Params {
                network: Some(shicho::go::search::Network::builtin()),
                ..Default::default()
            },
            ..Default::default()
        },
        ..Config::default()
    });
    expect(
        &mut net,
        &[
            (
                "kata-raw-nn 8",
                "? symmetry must be 'all' or 0 to 7, not '8'\n\n",
            ),
            (
                "kata-raw-nn b all 2",
                "? optimism must be from 0 to 1, not '2'\n\n",
            ),
            ("kata-raw-nn w", "? syntax error\n\n"),
            ("clear_cache now", "? syntax error\n\n"),
        ],
    );
}

// ----- ids and framing ----------------------------------------------------------------------

#[test]
fn ids_are_echoed_digit_for_digit() {
    let mut e = engine();
    let long = "1234567890123456789012345678901234567890";
    expect(
        &mut e,
        &[
            ("007 name", "=007 shicho\n\n"),
            ("0 name", "=0 shicho\n\n"),
            ("  12   protocol_version  ", "=12 2\n\n"),
            ("12\tprotocol_version", "=12 2\n\n"),
            (&format!("{long} name"), &format!("={long} shicho\n\n")),
            (
                &format!("{long} frobnicate"),
                &format!("?{long} unknown command\n\n"),
            ),
            ("00 boardsize 9", "=00 \n\n"),
        ],
    );
}

#[test]
fn empty_results_have_one_space() {
    let mut e = engine();
    expect(
        &mut e,
        &[
            ("boardsize 9", "= \n\n"),
            ("1 clear_board", "=1 \n\n"),
            ("komi 6.5", "= \n\n"),
            ("play b pass", "= \n\n"),
            ("final_status_list seki", "= \n\n"),
            ("list_stones white", "= \n\n"),
            ("gogui-interrupt", "= \n\n"),
        ],
    );
}

/// Multi-line answers: the first line right after `= `, single LFs inside, no empty line,
/// `\n\n` only at the very end.
#[test]
fn multi_line_answers_have_no_empty_line() {
    let mut e = engine();
    setup(
        &mut e,
        &[
            "boardsize 5",
            "komi 0.5",
            "gogui-play_sequence b c1 w d1 b c2 w d2 b c3 w d3 b c4 w d4 b c5 w d5 w a1",
        ],
    );
    for line in [
        "list_commands",
        "showboard",
        "5 showboard",
        "final_status_list alive",
        "gogui-analyze_commands",
        "printsgf",
        "shicho-ownership",
    ] {
        let r = send(&mut e, line);
        let body = r
            .strip_suffix("\n\n")
            .unwrap_or_else(|| panic!("{line}: {r:?}"));
        assert!(r.starts_with('='), "{line}: {r:?}");
        assert!(body.contains('\n'), "{line} is one line: {r:?}");
        assert!(!body.contains("\n\n"), "{line}: empty line inside {r:?}");
        assert!(!body.ends_with('\n'), "{line}: {r:?}");
        assert!(!body.contains('\r'), "{line}: {r:?}");
        assert!(r.is_ascii(), "{line}: {r:?}");
    }
    // showboard's diagram starts on the line after `= `: that first line is just `= `.
    assert!(send(&mut e, "showboard").starts_with("= \n    A B C D E\n"));
    assert!(send(&mut e, "final_status_list alive").starts_with("= C5 C4 C3 C2 C1\nD5"));
}

/// No response at all to blank and comment lines, however they are dressed.
#[test]
fn blank_and_comment_lines_get_no_response() {
    let mut e = engine();
    let silent: &[&[u8]] = &[
        b"",
        b"\n",
        b"\r\n",
        b"   ",
        b"\t \t",
        b"# a comment",
        b"   # an indented comment",
        b"#? [expected answer]",
        b"# interrupt",
        b"#",
        b"\x00\x01\x1b\x7f",
        b"\xff\xfe\xfd",
        b" \r \x0b \x0c ",
    ];
    for line in silent {
        assert!(e.handle(line).is_none(), "{line:?} got a response");
    }
    // A trailing comment is cut; the command is answered.
    assert_eq!(send(&mut e, "1 name # who are you"), "=1 shicho\n\n");
    assert_eq!(send(&mut e, "name#no space"), "= shicho\n\n");
    // Control characters inside a command are deleted, CR LF endings too.
    assert_eq!(
        e.handle(b"2 na\x01me\r\n").map(|r| r.text).as_deref(),
        Some("=2 shicho\n\n")
    );
}

#[test]
fn quit_answers_then_ends_the_session() {
    let mut e = engine();
    let r = e.handle(b"99 quit").expect("quit is answered");
    assert_eq!(r.text, "=99 \n\n");
    assert!(r.quit);
    let r = e.handle(b"name").expect("name is answered");
    assert!(!r.quit);
}

// ----- failing commands change nothing ------------------------------------------------------

/// Everything a controller can observe of the engine's state.
fn snapshot(e: &mut Engine) -> Vec<String> {
    [
        "showboard",
        "list_stones black",
        "list_stones white",
        "printsgf",
        "shicho-rules",
        "kata-get-rules",
        "shicho-hash",
        "captures black",
        "captures white",
        "all_legal black",
        "all_legal white",
        "gogui-title",
        "shicho-player",
    ]
    .iter()
    .map(|c| send(e, c))
    .collect()
}

/// Failing commands, each of which must leave the engine as it was. The states they are
/// tried in all hold a stone at C3 and none at H2.
const FAILING: &[&str] = &[
    "frobnicate",
    "42",
    "boardsize 1",
    "boardsize 26",
    "boardsize x",
    "clear_board x",
    "komi x",
    "komi nan",
    "fixed_handicap 2",
    "fixed_handicap 1",
    "place_free_handicap 3",
    "set_free_handicap a1 b2",
    "set_free_handicap a1 a1",
    "play b c3",
    "play b z1",
    "play b",
    "play x h2",
    "black c3",
    "genmove",
    "genmove x",
    "reg_genmove x",
    "kgs-genmove_cleanup",
    "undo 2",
    "gg-undo 100",
    "gg-undo x",
    "time_settings -1 0 0",
    "time_left b x 0",
    "kgs-time_settings byoyomi 1 1",
    "kgs-time_settings fischer 60 2",
    "kata-time_settings fischer 60",
    "kata-time_settings fischer-capped 60 2 30 -1",
    "kata-time_settings blitz",
    "kata-list_time_settings x",
    "kgs-rules",
    "kgs-rules tromp-taylor",
    "kgs-game_over x",
    "kgs-chat game",
    "final_score x",
    "final_status_list x",
    "loadsgf /nonexistent/file.sgf",
    "loadsgf /nonexistent/file.sgf 3",
    "loadsgf",
    "printsgf /nonexistent/folder/out.sgf",
    "printsgf a b",
    "kata-set-rules klingon",
    "kata-set-rules",
    "kata-get-rules x",
    "shicho-rules x",
    "showboard x",
    "shicho-shift 1",
    "shicho-shift 1 x",
    "list_stones x",
    "color z9",
    "is_legal b",
    "all_legal x",
    "captures x",
    "countlib h2",
    "findlib h2",
    "shicho-chain_stones h2",
    "shicho-hash x",
    "shicho-ownership x",
    "cputime x",
    "gogui-analyze_commands x",
    "gogui-title x",
    "gogui-play_sequence b h2 w h2",
    "gogui-play_sequence b h2 w",
    "gogui-setup b h2",
    "gogui-setup_player b",
    "attack h2",
    "defend z9",
    "ladder_attack h2",
    "does_attack h2 h2",
    "does_defend c3 c3",
    "trymove b c3",
    "tryko b",
    "increase_depths x",
    "decrease_depths x",
    "shicho-ladder_captures x",
    "shicho-explain",
    "shicho-search",
    "shicho-search x",
    "analyze purple",
    "lz-analyze b 10 interval",
    "kata-analyze w interval x",
    "kata-analyze b avoid b z9 1",
    "kata-genmove_analyze b avoid b z9 1",
    "lz-genmove_analyze w ownership true",
    "shicho-player alphago",
    "shicho-player mcts x",
    "shicho-player heuristic 5 5",
    "kata-set-param level 11",
    "kata-set-param maxMemory 1",
    "kata-set-param numSearchThreads 0",
    "kata-get-param frobnicate",
    "kata-list-params x",
    "lz-setoption name visits value -1",
    "lz-setoption name lagbuffer value 100",
];

/// Sends every command of `FAILING` and `extra`: each must fail and change nothing.
fn assert_failures_change_nothing(e: &mut Engine, what: &str, extra: &[&str]) {
    let before = snapshot(e);
    for command in FAILING.iter().chain(extra) {
        let r = send(e, command);
        assert!(r.starts_with('?'), "{what}: {command:?} succeeded: {r:?}");
        assert_eq!(snapshot(e), before, "{what}: {command:?} changed the state");
    }
}

#[test]
fn failing_commands_leave_the_state_unchanged() {
    // A game under way: handicap stones (C3 G7), a capture and a ko White may not retake
    // yet, and the reading stack empty.
    let mut e = engine();
    setup(
        &mut e,
        &[
            "boardsize 9",
            "komi 0.5",
            "fixed_handicap 2",
            "play w j9",
            "play b a1",
            "play b d5",
            "play b e6",
            "play b e4",
            "play w e5",
            "play w g5",
            "play w f6",
            "play w f4",
            "play b f5",
        ],
    );
    assert_failures_change_nothing(&mut e, "handicap game", &["play w e5", "popgo"]);

    // A torus with a shifted view and a chain across the edge.
    let mut e = engine();
    setup(
        &mut e,
        &[
            "kata-set-rules daoqi",
            "boardsize 7",
            "play b a1",
            "play b g1",
            "play b c3",
            "play w a7",
            "play w d4",
            "shicho-shift 2 3",
        ],
    );
    assert_failures_change_nothing(&mut e, "torus", &["popgo"]);

    // Inside a reading sequence (trymove): the stack is state too.
    let mut e = engine();
    setup(
        &mut e,
        &[
            "boardsize 9",
            "gogui-play_sequence w g7 w g6 b g8 b f7 b h7 b h6 b c3",
            "trymove b g5",
        ],
    );
    let before = send(&mut e, "countlib g7");
    assert_failures_change_nothing(&mut e, "reading stack", &["trymove w g5"]);
    assert_eq!(send(&mut e, "countlib g7"), before);
}
