//! Othello over GTP as its front ends speak it, through the built binary: a Quarry-style
//! session (no pass ever sent, one colour twice when the other must pass, time_left before
//! genmove), an Edax-style one (set_game before boardsize, play and genmove naming the
//! colour not to move), streamed analysis; then, in process, the exact error texts and
//! "a failing command changes nothing".

mod gtp_session;

use std::process::{Command, Stdio};

use gtp_session::Session;
use shicho::engine::{Config, Engine};
use shicho::game::GameKind;
use shicho::othello::{Game, Move, PlayerKind, Square};
use shicho::{Color, Rng, othello};

fn mv(text: &str) -> Move {
    Move::parse(text, 8).unwrap()
}

/// After these moves Black has no legal move and White moves again.
const FORCED_PASS: [(&str, &str); 8] = [
    ("black", "D3"),
    ("white", "C3"),
    ("black", "E6"),
    ("white", "D2"),
    ("black", "D1"),
    ("white", "E1"),
    ("black", "B2"),
    ("white", "C1"),
];

#[test]
fn a_quarry_style_session() {
    // Quarry attaches an engine that starts in Go mode and switches it.
    let mut e = Session::start(&["--time", "0.05"]);
    assert_eq!(e.ok("protocol_version"), "2");
    assert_eq!(e.ok("name"), "shicho");
    e.ok("version");
    assert!(e.ok("list_commands").lines().any(|l| l == "list_games"));
    assert_eq!(e.ok("list_games"), "Go\nOthello");
    e.ok("set_game Othello");
    e.ok("boardsize 8");
    e.ok("clear_board");
    e.ok("time_settings 600 0 0");

    // Two moves of White in a row: Black had to pass, and Quarry does not say so.
    for (c, v) in FORCED_PASS {
        e.ok(&format!("play {c} {v}"));
    }
    assert_eq!(e.ok("all_legal black"), "");
    e.ok("play white A3");
    e.ok("play black A1");
    let sgf = e.ok("printsgf");
    assert!(sgf.contains(";W[ca];B[];W[ac]"), "{sgf}");
    // Quarry's undo takes back its own moves; the inferred pass goes with the move after it.
    e.ok("undo");
    e.ok("undo");
    assert_eq!(e.ok("all_legal black"), "");
    // And genmove for the colour that moves again: White, twice.
    e.ok("time_left white 590 0");
    let reply = e.ok("genmove white");
    assert!(Square::parse(&reply, 8).is_ok(), "{reply}");

    // A whole game: the engine is White, Quarry's user plays random moves for Black.
    // Quarry sends the colour that can move; never a pass.
    e.ok("clear_board");
    let mut game = Game::new(8).unwrap();
    let mut rng = Rng::new(11);
    let mut same_colour_twice = 0;
    let mut last = None;
    while !game.is_over() {
        let legal = game.board().legal_moves(game.to_move());
        if legal.is_empty() {
            // Quarry moves the turn on by itself.
            game.play(Move::Pass).unwrap();
            continue;
        }
        let c = game.to_move();
        if last == Some(c) {
            same_colour_twice += 1;
        }
        last = Some(c);
        if c == Color::Black {
            let s = legal[rng.below(legal.len())];
            e.ok(&format!("play black {s}"));
            game.play(Move::Play(s)).unwrap();
        } else {
            e.ok("time_left white 300 0");
            let reply = e.ok("genmove white");
            let m = mv(&reply);
            assert!(
                matches!(m, Move::Play(_)),
                "genmove answered {reply} with moves left"
            );
            game.play(m)
                .unwrap_or_else(|why| panic!("engine played {reply}: {why}"));
        }
    }
    assert_eq!(e.ok("final_score"), game.score().to_string());
    eprintln!(
        "quarry-style game: {}, one colour twice {same_colour_twice} times",
        game.score()
    );
    e.ok("quit");
}

#[test]
fn an_edax_style_session() {
    let mut e = Session::start(&["--player", "greedy"]);
    // set_game before boardsize, as Edax's controllers send it; komi is accepted.
    e.ok("set_game Othello");
    e.ok("boardsize 8");
    e.ok("komi 0");
    e.fails("boardsize 9", "unacceptable size");
    for (c, v) in FORCED_PASS {
        e.ok(&format!("play {c} {v}"));
    }
    // Black is to move and has no move: play for White plays Black's pass first.
    e.ok("play white A3");
    // Now Black has moves: White may not move again.
    e.fails("play white A4", "wrong color");
    e.fails("genmove white", "wrong color");
    // Black moves; then genmove for Black, not to move, fails while White can move.
    let reply = e.ok("genmove black");
    assert!(Square::parse(&reply, 8).is_ok());
    e.fails("genmove black", "wrong color");
    e.ok("genmove white");
    // genmove answers PASS only for a colour without a move.
    e.ok("clear_board");
    for (c, v) in FORCED_PASS {
        e.ok(&format!("play {c} {v}"));
    }
    assert_eq!(e.ok("genmove black"), "PASS");
    let reply = e.ok("genmove white");
    assert!(Square::parse(&reply, 8).is_ok(), "{reply}");
    e.ok("quit");
}

#[test]
fn the_command_line_starts_othello() {
    let mut e = Session::start(&["--game", "othello", "--size", "10", "--player", "random"]);
    let commands = e.ok("list_commands");
    assert!(commands.lines().any(|l| l == "shicho-solve"));
    assert!(!commands.lines().any(|l| l == "fixed_handicap"));
    assert!(e.ok("showboard").contains(" J"), "10x10 has a J column");
    assert_eq!(e.ok("shicho-player"), "random");
    // `random` names a player of both games.
    e.ok("set_game go");
    assert_eq!(e.ok("shicho-player"), "random 20000");
    e.ok("quit");

    for bad in [
        &["--game", "othello", "--player", "alphago"][..],
        &["--game", "othello", "--size", "9"],
        &["--game", "chess"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_shicho"))
            .args(bad)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}: nothing on stdout");
    }
}

#[test]
fn analysis_streams_the_searchers_lines() {
    let mut e = Session::start(&["--game", "othello"]);
    e.ok("play b d3");
    e.send("7 lz-analyze w 10");
    assert_eq!(e.line("lz-analyze's start"), "=7");
    let report = e.line("a report");
    assert!(report.starts_with("info move "), "{report}");
    for group in report.split("info ").filter(|g| !g.is_empty()) {
        let tokens: Vec<&str> = group.split_whitespace().collect();
        let at = |k: &str| tokens.iter().position(|&t| t == k).unwrap();
        let w: u32 = tokens[at("winrate") + 1].parse().unwrap();
        assert!(w <= 10_000);
        tokens[at("visits") + 1].parse::<u64>().unwrap();
        let pv = &tokens[at("pv") + 1..];
        assert!(!pv.is_empty() && pv.iter().all(|v| Square::parse(v, 8).is_ok()));
    }
    e.send("8 name");
    loop {
        let line = e.line("the analysis's end");
        if line.is_empty() {
            break;
        }
        assert!(line.starts_with("info move "), "{line}");
    }
    assert_eq!(e.line("name"), "=8 shicho");
    assert_eq!(e.line("name's end"), "");
    e.send("9 kata-analyze b 10");
    assert_eq!(e.line("kata-analyze's start"), "=9");
    assert!(e.line("a report").contains(" scoreLead "));
    e.send("# interrupt");
    while !e.line("the end").is_empty() {}
    e.ok("quit");
}

// ----- in process: error texts, and failing commands change nothing -------------------------

fn engine() -> Engine {
    Engine::new(Config {
        game: GameKind::Othello,
        othello: othello::gtp::state::Config {
            player: PlayerKind::Greedy,
            ..Default::default()
        },
        ..Config::default()
    })
}

fn send(e: &mut Engine, line: &str) -> String {
    e.handle(line.as_bytes())
        .unwrap_or_else(|| panic!("no response to {line:?}"))
        .text
}

#[test]
fn error_texts() {
    let mut e = engine();
    for (line, want) in [
        ("set_game Chess", "? unsupported game\n\n"),
        ("set_game", "? syntax error\n\n"),
        ("boardsize 7", "? unacceptable size\n\n"),
        ("boardsize 28", "? unacceptable size\n\n"),
        ("boardsize x", "? syntax error\n\n"),
        ("play b a1", "? illegal move\n\n"),
        ("play b d4", "? illegal move\n\n"),
        ("play b pass", "? illegal move\n\n"),
        ("play b j9", "? illegal move\n\n"),
        ("play b d", "? syntax error\n\n"),
        ("play w e3", "? wrong color\n\n"),
        ("genmove w", "? wrong color\n\n"),
        ("reg_genmove w", "? wrong color\n\n"),
        ("undo", "? cannot undo\n\n"),
        ("color k1", "? invalid coordinate\n\n"),
        ("is_legal b", "? invalid color or coordinate\n\n"),
        ("list_stones x", "? invalid color\n\n"),
        ("shicho-solve", "? too many empty squares (60 > 24)\n\n"),
        ("shicho-solve 41", "? too large (at most 40)\n\n"),
        ("shicho-perft 13", "? too large (at most 12)\n\n"),
        ("shicho-player mcts", "? syntax error\n\n"),
        ("loadsgf /nonexistent.sgf", "? cannot load file\n\n"),
        ("fixed_handicap 2", "? unknown command\n\n"),
        ("1 genmove b", "=1 D3\n\n"),
        ("2 reg_genmove w", "=2 C3\n\n"),
        ("gogui-setup b a1", "? board not empty\n\n"),
        ("gogui-setup_player w", "? moves have been played\n\n"),
    ] {
        assert_eq!(send(&mut e, line), want, "response to {line:?}");
    }
}

/// Everything a controller can observe of the Othello state.
fn snapshot(e: &mut Engine) -> Vec<String> {
    [
        "showboard",
        "list_stones black",
        "list_stones white",
        "printsgf",
        "all_legal black",
        "all_legal white",
        "final_score",
        "shicho-player",
        "list_commands",
    ]
    .iter()
    .map(|c| send(e, c))
    .collect()
}

const FAILING: &[&str] = &[
    "frobnicate",
    "set_game chess",
    "boardsize 9",
    "boardsize 0",
    "clear_board x",
    "komi x",
    "play b a1",
    "play b d3 d3",
    "play x d3",
    "play w pass",
    "genmove",
    "genmove x",
    "reg_genmove x",
    "undo x",
    "time_settings -1 0 0",
    "time_left b x 0",
    "kgs-time_settings byoyomi 1 1",
    "final_score x",
    "showboard x",
    "list_stones x",
    "color z9",
    "is_legal b",
    "all_legal x",
    "cputime x",
    "shicho-solve 5",
    "shicho-solve x",
    "shicho-perft",
    "shicho-perft 99",
    "loadsgf /nonexistent/file.sgf",
    "loadsgf",
    "printsgf /nonexistent/folder/out.sgf",
    "gogui-setup b",
    "gogui-setup b a1 w",
    "gogui-analyze_commands x",
    "lz-analyze b 10 interval",
    "kata-analyze purple",
    "shicho-player alphago",
    "shicho-player greedy x",
];

#[test]
fn failing_commands_leave_the_state_unchanged() {
    let mut e = engine();
    for line in ["play b d3", "play w c3", "play b c4"] {
        assert!(send(&mut e, line).starts_with('='), "{line}");
    }
    let before = snapshot(&mut e);
    for command in FAILING.iter().chain(&["undo 1", "genmove b", "play b c5"]) {
        let r = send(&mut e, command);
        assert!(r.starts_with('?'), "{command:?} succeeded: {r:?}");
        assert_eq!(snapshot(&mut e), before, "{command:?} changed the state");
    }
    // And on a fresh board, where setup is still possible.
    let mut e = engine();
    let before = snapshot(&mut e);
    for command in FAILING
        .iter()
        .chain(&["gogui-setup b a9", "gogui-setup b pass", "undo"])
    {
        let r = send(&mut e, command);
        assert!(r.starts_with('?'), "{command:?} succeeded: {r:?}");
        assert_eq!(snapshot(&mut e), before, "{command:?} changed the state");
    }
}

#[test]
fn set_game_switches_the_command_table_and_back() {
    let mut e = Engine::new(Config::default());
    assert_eq!(e.playing(), GameKind::Go);
    assert_eq!(send(&mut e, "known_command shicho-solve"), "= false\n\n");
    assert_eq!(send(&mut e, "set_game OTHELLO"), "= \n\n");
    assert_eq!(e.playing(), GameKind::Othello);
    assert_eq!(send(&mut e, "known_command shicho-solve"), "= true\n\n");
    assert_eq!(send(&mut e, "known_command kata-set-rules"), "= false\n\n");
    // Naming the game being played changes nothing.
    send(&mut e, "play b d3");
    send(&mut e, "set_game othello");
    assert_eq!(send(&mut e, "color d3"), "= black\n\n");
    // A switch starts the game afresh.
    send(&mut e, "set_game go");
    send(&mut e, "set_game othello");
    assert_eq!(send(&mut e, "color d3"), "= empty\n\n");
    send(&mut e, "set_game Go");
    assert_eq!(e.playing(), GameKind::Go);
    assert_eq!(send(&mut e, "list_games"), "= Go\nOthello\n\n");
    let othello = e.othello().expect("kept");
    assert_eq!(othello.rows().len(), 8);
    assert_eq!(othello.to_move(), Color::Black);
    assert_eq!(othello.legal_moves().len(), 4);
    assert!(!othello.is_over());
}
