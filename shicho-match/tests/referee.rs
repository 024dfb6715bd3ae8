//! The match referee against scripted fake engines (`examples/fake-engine.rs`): every way
//! a game can end, the SGF read back through the project's reader, the CSV columns.

use std::process::Command;
use std::time::Duration;

use shicho::game::GameKind;
use shicho::go::sgf::{SgfGame, TORUS_COMMENT};
use shicho::othello::sgf::{OthelloRecord, OthelloStop};
use shicho::sgf::parse_collection;
use shicho::{Color, Rules};
use shicho_match::{
    CSV_HEADER, EndReason, GameRecord, MatchConfig, MoveKind, PlayedMove, run_match, split_csv_line,
};

mod common;
use common::{BIN, fake, fake_line, out_dir};

/// One game on 9x9, chinese rules, komi 7.5, between two fakes.
fn config(name: &str, black: &str, white: &str) -> MatchConfig {
    let mut cfg = MatchConfig::new([fake(black), fake(white)], out_dir(name));
    cfg.games = 1;
    cfg.parallel = 1;
    cfg.grace = Duration::from_millis(200);
    cfg.answer_timeout = Duration::from_secs(20);
    cfg
}

fn play(cfg: &MatchConfig) -> Vec<GameRecord> {
    run_match(cfg).unwrap().records
}

fn vertices(record: &GameRecord) -> Vec<String> {
    let geo = shicho::Geometry::get(9, shicho::Topology::Plane).unwrap();
    record
        .moves
        .iter()
        .map(|m| match m.mv {
            PlayedMove::Go(mv) => format!("{}{}", m.color.letter(), geo.format_move(mv)),
            PlayedMove::Othello(mv) => format!("{}{mv}", m.color.letter()),
        })
        .collect()
}

#[test]
fn normal_finish_is_counted_by_the_referee() {
    let cfg = config(
        "normal",
        "--name black-fake --moves 'E5 C3' --dead ''",
        "--name white-fake --version 2.0 --moves G7 --dead ''",
    );
    let [r] = &play(&cfg)[..] else { panic!() };
    // Black E5 C3, White G7: 2 stones to 1, no territory (every region touches both),
    // komi 7.5.
    assert_eq!(r.result, "W+6.5");
    assert_eq!(r.reason, EndReason::Score);
    assert_eq!(r.winner, Some(Color::White));
    assert_eq!(vertices(r), ["BE5", "WG7", "BC3", "WPASS", "BPASS"]);
    assert_eq!(r.detail, "dead stones agreed: none");
    assert_eq!(r.names.black, "black-fake 0");
    assert_eq!(r.names.white, "white-fake 2.0");
    // The fakes report 0.25 s of CPU per genmove: Black answered 3, White 2.
    assert_eq!((r.cpu.black, r.cpu.white), (Some(0.75), Some(0.5)));
    assert_eq!(r.engine_moves.black, 3);
    // The engines' stderr went to the log, not to the terminal.
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    assert!(log.contains("A! fake black-fake: got '"), "{log}");
}

#[test]
fn resignation_is_honoured() {
    let cfg = config("resign", "--moves 'E5 C3'", "--moves 'G7 resign'");
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+R", EndReason::Resign));
    assert_eq!(r.detail, "white resigned");
    assert_eq!(vertices(r), ["BE5", "WG7", "BC3"]);
}

#[test]
fn illegal_or_unparsable_moves_lose() {
    for (white, why) in [
        ("E5", "played E5, which is illegal (point is occupied)"),
        (
            "hello",
            "answered 'hello', not a move on this board (invalid vertex)",
        ),
        (
            "J10",
            "answered 'J10', not a move on this board (vertex off the board)",
        ),
        (
            "I5",
            "answered 'I5', not a move on this board (invalid vertex)",
        ),
    ] {
        let cfg = config("illegal", "--moves E5", &format!("--moves {white}"));
        let [r] = &play(&cfg)[..] else { panic!() };
        assert_eq!(
            (r.result.as_str(), r.reason),
            ("B+F", EndReason::Illegal),
            "{white}"
        );
        assert!(r.detail.contains(why), "{white}: {}", r.detail);
        // The illegal move is not part of the record.
        assert_eq!(vertices(r), ["BE5"]);
    }
}

#[test]
fn a_genmove_failure_is_an_illegal_move_and_a_refused_play_an_error() {
    let cfg = config("refuse-genmove", "--moves E5", "--refuse genmove");
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+F", EndReason::Illegal));
    assert!(r.detail.contains("'? refused'"), "{}", r.detail);

    let cfg = config("refuse-play", "--moves E5", "--refuse play");
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+F", EndReason::Error));
    assert!(r.detail.contains("'play black E5'"), "{}", r.detail);
}

#[test]
fn a_slow_move_loses_on_time_and_the_engine_is_restarted() {
    let mut cfg = config("time", "--moves 'E5 C3 D4' --dead ''", "");
    let marker = cfg.out_dir.join("slept");
    std::fs::create_dir_all(&cfg.out_dir).unwrap();
    cfg.engines[1] = fake(&format!(
        "--moves 'G7 G3' --dead '' --sleep-at 2 --sleep-secs 30 --once {}",
        marker.display()
    ));
    cfg.move_time = Some(0.5);
    cfg.games = 2;
    let records = play(&cfg);
    let r = &records[0];
    assert_eq!((r.result.as_str(), r.reason), ("B+T", EndReason::Time));
    assert!(
        r.detail.contains("gave no move within its 0.50 s"),
        "{}",
        r.detail
    );
    assert!(r.duration < Duration::from_secs(10), "{:?}", r.duration);
    // The second game is played by a fresh White engine, which keeps to its time.
    let r = &records[1];
    assert_eq!(r.reason, EndReason::Score, "{}", r.detail);
    assert_eq!(
        vertices(r),
        ["BE5", "WG7", "BC3", "WG3", "BD4", "WPASS", "BPASS"]
    );
}

#[test]
fn time_controls_are_announced_and_charged() {
    let mut cfg = config("clock", "--moves E5", "--moves G7");
    cfg.time = Some("1+1/1".parse().unwrap());
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!(r.reason, EndReason::Score);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    assert!(log.contains(" time_settings 1 1 1"), "{log}");
    assert!(log.contains("time_left black 1 0"), "{log}");
}

#[test]
fn a_fischer_clock_goes_as_kata_time_settings_or_as_canadian_and_gets_its_increment() {
    let mut cfg = config("fischer", "--moves 'E5 C3' --kata-time", "--moves 'G7 G3'");
    cfg.time = Some("10+2".parse().unwrap());
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!(r.reason, EndReason::Score, "{}", r.detail);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    // Black lists KataGo's commands; White is told what GTP2OGS tells such engines: main
    // time less one increment, then the increment as a one-stone period.
    let sent = |engine: &str, command: &str| {
        log.lines()
            .any(|l| l.starts_with(engine) && l.ends_with(command))
    };
    assert!(sent("A>", " kata-list_time_settings"), "{log}");
    assert!(sent("A>", " kata-time_settings fischer 10 2"), "{log}");
    assert!(sent("B>", " time_settings 8 2 1"), "{log}");
    assert!(!log.contains(" time_settings 10"), "{log}");
    assert!(sent("A>", " time_left black 10 0"), "{log}");
    assert!(sent("B>", " time_left white 8 0"), "{log}");
    // The fakes answer at once: each move gains nearly the whole increment.
    let after_first = r.moves[0].clock.unwrap();
    assert!(
        after_first.seconds > 11.5 && after_first.stones == 0,
        "{after_first:?}"
    );
    assert!(sent("A>", " time_left black 11 0"), "{log}");
    let last = r.moves.iter().rev().find(|m| m.clock.is_some()).unwrap();
    assert!(last.clock.unwrap().seconds > 13.0, "{last:?}");
    // The records say so: the control, and each move's clock after it.
    let sgf = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    assert!(
        sgf.contains("TM[10]") && sgf.contains("OT[2 Fischer]"),
        "{sgf}"
    );
    assert!(sgf.contains(" s left]"), "{sgf}");
}

#[test]
fn japanese_byo_yomi_is_told_in_each_engines_words() {
    // Black lists kata-time_settings, but its kinds leave out byoyomi: KGS's command.
    // White lists KGS's command but refuses it: GTP's, a one-stone period.
    let mut cfg = config(
        "byoyomi-words",
        "--moves 'E5 C3' --kata-time --kata-kinds 'absolute fischer' --kgs-time",
        "--moves 'G7 G3' --kgs-time --refuse kgs-time_settings",
    );
    cfg.time = Some("10+2x3".parse().unwrap());
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!(r.reason, EndReason::Score, "{}", r.detail);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    let sent = |engine: &str, command: &str| {
        log.lines()
            .any(|l| l.starts_with(engine) && l.ends_with(command))
    };
    assert!(sent("A>", " kata-list_time_settings"), "{log}");
    assert!(!log.contains("kata-time_settings byoyomi"), "{log}");
    assert!(sent("A>", " kgs-time_settings byoyomi 10 2 3"), "{log}");
    assert!(!sent("A>", " time_settings 10 2 1"), "{log}");
    assert!(sent("B>", " kgs-time_settings byoyomi 10 2 3"), "{log}");
    assert!(sent("B>", " time_settings 10 2 1"), "{log}");
    // In main time both hear it alike.
    assert!(sent("A>", " time_left black 10 0"), "{log}");
    assert!(sent("B>", " time_left white 10 0"), "{log}");
    let sgf = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    assert!(
        sgf.contains("TM[10]") && sgf.contains("OT[3x2 byo-yomi]"),
        "{sgf}"
    );
}

#[test]
fn a_move_within_a_byo_yomi_period_is_free_and_one_past_every_period_loses() {
    // No main time, three periods of 1 s. White (KataGo's commands) takes 0.3 s, within
    // its period; then 1.5 s, which uses one up; then 4 s, past the two left.
    let mut cfg = config(
        "byoyomi-time",
        "--moves 'E5 C3 D4'",
        "--moves 'G7 G3 G5' --kata-time --think '0.3 1.5 4'",
    );
    cfg.time = Some("0+1x3".parse().unwrap());
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+T", EndReason::Time));
    assert!(
        r.detail.contains("white gave no move within its 2.00 s"),
        "{}",
        r.detail
    );
    assert_eq!(vertices(r), ["BE5", "WG7", "BC3", "WG3", "BD4"]);
    let periods = |i: usize| r.moves[i].clock.map(|c| (c.periods, c.seconds));
    assert_eq!(periods(1), Some((3, 1.0)), "{:?}", r.moves[1]);
    assert_eq!(periods(3), Some((2, 1.0)), "{:?}", r.moves[3]);
    // Black answers at once and keeps all three.
    assert_eq!(periods(4), Some((3, 1.0)), "{:?}", r.moves[4]);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    let sent = |engine: &str, command: &str| {
        log.lines()
            .any(|l| l.starts_with(engine) && l.ends_with(command))
    };
    // White hears the periods left; Black, told GTP's one-stone period, one stone.
    assert!(sent("B>", " kata-time_settings byoyomi 0 1 3"), "{log}");
    assert!(sent("B>", " time_left white 1 3"), "{log}");
    assert!(sent("B>", " time_left white 1 2"), "{log}");
    assert!(sent("A>", " time_settings 0 1 1"), "{log}");
    assert!(sent("A>", " time_left black 1 1"), "{log}");
    let sgf = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    assert!(sgf.contains("OT[3x1 byo-yomi]"), "{sgf}");
    assert!(sgf.contains("; 2 periods of 1.00 s left]"), "{sgf}");
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let mut cfg = config("crash", "--moves 'E5 C3'", "");
    std::fs::create_dir_all(&cfg.out_dir).unwrap();
    let marker = cfg.out_dir.join("crashed");
    cfg.engines[1] = fake(&format!(
        "--moves 'G7 G3' --exit-at 2 --once {}",
        marker.display()
    ));
    cfg.games = 2;
    let records = play(&cfg);
    let r = &records[0];
    assert_eq!((r.result.as_str(), r.reason), ("B+F", EndReason::Crash));
    assert!(r.detail.contains("exited with status 3"), "{}", r.detail);
    assert_eq!(r.cpu.white, None);
    assert_eq!(records[1].reason, EndReason::Score);
}

#[test]
fn an_engine_that_stops_answering_loses_without_a_clock() {
    let mut cfg = config("silent", "--moves E5", "--sleep-at 1 --sleep-secs 30");
    cfg.answer_timeout = Duration::from_millis(500);
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+F", EndReason::Crash));
    assert!(r.detail.contains("no answer within 0.5 s"), "{}", r.detail);
}

#[test]
fn disputed_dead_stones_are_played_out() {
    // Black B1, White A1, both pass. Black calls A1 dead, White none: disputed. In the
    // play-out Black captures with A2, then both pass, so A1 was dead; the two-pass
    // position counts: Black's B1 and the other 80 points, minus 7.5.
    let cfg = config(
        "dispute",
        "--moves 'B1 pass A2' --dead A1",
        "--moves 'A1 pass' --dead ''",
    );
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+73.5", EndReason::Score));
    assert_eq!(
        r.detail,
        "dead stones disputed (black: A1; white: none); played out: A1"
    );
    assert_eq!(
        vertices(r),
        ["BB1", "WA1", "BPASS", "WPASS", "BA2", "WPASS", "BPASS"]
    );
    let kinds: Vec<MoveKind> = r.moves.iter().map(|m| m.kind).collect();
    assert_eq!(kinds[4..], [MoveKind::Cleanup; 3]);
    assert_eq!(r.dead.len(), 1);
}

#[test]
fn disputed_dead_stones_go_to_the_referee_engine() {
    // Black E5 C3, White G7; White calls E5 dead, Black gives no list at all.
    let mut cfg = config("referee", "--moves 'E5 C3'", "--moves G7 --dead E5");
    cfg.referee = Some(fake("--name ref --dead 'C3'"));
    let [r] = &play(&cfg)[..] else { panic!() };
    // The referee says C3 is dead: Black keeps E5 against White's G7, komi decides.
    assert_eq!((r.result.as_str(), r.reason), ("W+7.5", EndReason::Score));
    assert_eq!(
        r.detail,
        "dead stones disputed (black: no answer; white: E5); referee engine: C3"
    );
    assert_eq!(r.moves.len(), 5);
}

#[test]
fn sgf_reads_back_with_the_same_moves_and_result() {
    let mut cfg = config("sgf", "--moves 'E5 C3'", "--moves 'G7 resign'");
    cfg.games = 2;
    cfg.alternate = true;
    cfg.openings = shicho_match::Openings::List(vec![vec!["D4".into(), "F6".into()]]);
    let records = play(&cfg);
    for r in &records {
        let text =
            std::fs::read_to_string(cfg.out_dir.join(format!("game-{:04}.sgf", r.number))).unwrap();
        let game = SgfGame::from_collection(&parse_collection(&text).unwrap()).unwrap();
        assert_eq!(game.size, 9);
        assert_eq!(game.komi, Some(7.5));
        assert_eq!(game.rules.as_deref(), Some("chinese"));
        assert_eq!(game.info.result.as_deref(), Some(r.result.as_str()));
        assert_eq!(
            game.info.black_name.as_deref(),
            Some(r.names.black.as_str())
        );
        assert_eq!(
            game.info.white_name.as_deref(),
            Some(r.names.white.as_str())
        );
        let geo = shicho::Geometry::get(9, shicho::Topology::Plane).unwrap();
        let moves: Vec<_> = r
            .moves
            .iter()
            .map(|m| {
                (
                    m.color,
                    m.mv.go().and_then(|mv| mv.point()).map(|p| geo.xy(p)),
                )
            })
            .collect();
        let read: Vec<_> = game.moves.iter().map(|m| (m.color, m.point)).collect();
        assert_eq!(read, moves);
        assert_eq!(game.moves[0].comment.as_deref(), Some("opening"));
        assert!(game.moves[2].comment.as_deref().unwrap().ends_with(" s"));
        assert!(game.info.comment.as_deref().unwrap().contains("resign"));
    }
    // Same opening in both games of the pair, colours swapped.
    assert_eq!(vertices(&records[0])[..2], ["BD4", "WF6"]);
    assert_eq!(vertices(&records[1])[..2], ["BD4", "WF6"]);
    assert_eq!((records[0].black_engine, records[1].black_engine), (0, 1));
}

#[test]
fn torus_and_handicap_games_are_recorded() {
    let mut cfg = config("torus", "--moves A1", "--moves G7");
    cfg.rules = Rules::preset("daoqi").unwrap();
    cfg.size = 7;
    cfg.handicap = 2;
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!(r.handicap.len(), 2);
    // White moves first after a handicap.
    assert_eq!(r.moves[0].color, Color::White);
    let text = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    assert!(text.contains("RU[daoqi]"), "{text}");
    assert!(text.contains(TORUS_COMMENT), "{text}");
    let game = SgfGame::from_collection(&parse_collection(&text).unwrap()).unwrap();
    assert_eq!(game.handicap, Some(2));
    assert_eq!(game.setup.len(), 2);
}

#[test]
fn handicap_games_count_white_s_bonus_by_the_rules() {
    // Four stones on 9x9, both engines pass at once: Black's area is the whole board, 81
    // points, and its territory 77. White gets komi 7.5 and, under Chinese rules, a point
    // a stone, under AGA's all but one, under territory rules none.
    for (preset, result) in [
        ("chinese", "B+69.5"),
        ("aga", "B+70.5"),
        ("japanese", "B+69.5"),
        ("tromp-taylor", "B+73.5"),
    ] {
        let mut cfg = config(&format!("handicap-{preset}"), "--dead ''", "--dead ''");
        cfg.rules = Rules::preset(preset).unwrap();
        cfg.handicap = 4;
        let [r] = &play(&cfg)[..] else { panic!() };
        assert_eq!(r.reason, EndReason::Score, "{preset}");
        assert_eq!(r.result, result, "{preset}");
    }
}

#[test]
fn the_rules_go_to_engines_that_list_kata_set_rules() {
    let mut cfg = config("rules", "--moves A1 --rules-command", "--moves G7");
    cfg.rules = Rules::preset("daoqi").unwrap();
    cfg.size = 7;
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!(r.reason, EndReason::Score);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    // Black listed the command; White, which did not, is not sent it.
    let sent: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("> ") && l.ends_with("kata-set-rules daoqi"))
        .collect();
    assert_eq!(sent.len(), 1, "{log}");
    assert!(sent[0].starts_with("A>"), "{log}");

    // An engine that lists the command but refuses the rules still plays.
    let mut cfg = config(
        "rules-refused",
        "--moves A1 --rules-command --refuse kata-set-rules",
        "--moves G7",
    );
    cfg.rules = Rules::preset("japanese").unwrap();
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!(r.reason, EndReason::Score);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    assert!(log.contains("kata-set-rules japanese"), "{log}");
}

#[test]
fn csv_has_the_documented_columns_and_resumes() {
    let mut cfg = config("csv", "--moves 'E5 C3' --dead ''", "--moves G7 --dead ''");
    cfg.games = 3;
    cfg.parallel = 2;
    cfg.alternate = true;
    let first = play(&cfg);
    assert_eq!(
        first.iter().map(|r| r.number).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let again = play(&cfg);
    assert_eq!(
        again.iter().map(|r| r.number).collect::<Vec<_>>(),
        [4, 5, 6]
    );
    // Colours follow the game's number over the directory: the second run, which starts
    // after an odd number of games, goes on alternating rather than starting over.
    for r in first.iter().chain(&again) {
        assert_eq!(r.black_engine, (r.number - 1) % 2, "game {}", r.number);
    }
    let text = std::fs::read_to_string(cfg.out_dir.join("results.csv")).unwrap();
    let mut lines = text.lines();
    let header = split_csv_line(lines.next().unwrap());
    assert_eq!(
        header,
        [
            "game",
            "start",
            "duration_s",
            "size",
            "rules",
            "komi",
            "handicap",
            "black",
            "white",
            "result",
            "reason",
            "moves",
            "cpu_black_s",
            "cpu_white_s",
            "think_black_s",
            "think_white_s",
            "detail",
            "sgf"
        ]
    );
    assert_eq!(split_csv_line(CSV_HEADER), header);
    let mut rows: Vec<Vec<String>> = lines.map(split_csv_line).collect();
    assert_eq!(rows.len(), 6);
    rows.sort_by_key(|r| r[0].parse::<usize>().unwrap());
    for (row, r) in rows.iter().zip(first.iter().chain(&again)) {
        assert_eq!(row.len(), header.len());
        assert_eq!(row[0], r.number.to_string());
        assert!(row[1].ends_with('Z') && row[1].len() == 20, "{}", row[1]);
        assert_eq!(row[3..7], ["9", "chinese", "7.5", "0"]);
        assert_eq!(row[9], r.result);
        assert_eq!(row[10], "score");
        assert_eq!(row[11], r.moves.len().to_string());
        assert_eq!(row[16], "dead stones agreed: none");
        assert_eq!(row[17], format!("game-{:04}.sgf", r.number));
    }
}

#[test]
fn the_binary_prints_a_summary() {
    let dir = out_dir("binary");
    let black = fake_line("--name a --moves 'E5 C3' --dead ''");
    let white = fake_line("--name b --moves G7 --dead ''");
    let out = Command::new(BIN)
        .args([
            "--black", &black, "--white", &white, "--size", "9", "-n", "4",
        ])
        .args(["--alternate", "-q", "-j", "2", "-o"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // White wins every game on komi (W+6.5 or W+8.5): 2-2.
    assert!(
        stdout.contains("A = a 0: 2 wins, 2 losses, 0 draws (as Black 0-2-0, as White 2-0-0)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("A win rate: 50.0% (95% Wilson interval 15.0% to 85.0%"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Elo A - B: 0 (95% interval -301 to +301)"),
        "{stdout}"
    );
    assert!(stdout.contains("ended by: score 4"), "{stdout}");
    assert!(dir.join("summary.txt").is_file());
}

#[test]
fn the_gnugo_shortcut_explains_how_to_get_gnugo() {
    let out = Command::new(BIN)
        .args(["--gnugo-level", "0", "--black", "x"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("apt-get install gnugo"), "{stderr}");
    assert!(stderr.contains("/usr/games"), "{stderr}");
}

// ----- Othello ------------------------------------------------------------------------------

/// One Othello game on 8x8 between two fakes (which know nothing of set_game: taken to
/// play Othello already).
fn othello_config(name: &str, black: &str, white: &str) -> MatchConfig {
    let mut cfg = config(name, black, white);
    cfg.game = GameKind::Othello;
    cfg.size = 8;
    cfg
}

#[test]
fn an_othello_game_is_counted_in_discs_and_recorded_as_gm2() {
    // Black wipes White out in nine moves.
    let cfg = othello_config(
        "othello",
        "--moves 'D3 F5 F3 D1 B3'",
        "--moves 'c3 f4 d2 e3'",
    );
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+13", EndReason::Score));
    assert_eq!(r.detail, "discs 13-0");
    assert_eq!(vertices(r).len(), 9);
    let text = std::fs::read_to_string(cfg.out_dir.join("game-0001.sgf")).unwrap();
    assert!(text.starts_with("(;FF[4]GM[2]"), "{text}");
    let record = OthelloRecord::from_collection(&parse_collection(&text).unwrap()).unwrap();
    assert_eq!(record.info.result.as_deref(), Some("B+13"));
    let replayed = record.replay(OthelloStop::End).unwrap();
    assert!(replayed.is_over());
    assert_eq!(replayed.score().to_string(), "B+13");
    let csv = std::fs::read_to_string(cfg.out_dir.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header = split_csv_line(lines.next().unwrap());
    assert_eq!(header.len(), 20);
    assert_eq!(header[18..], ["black_discs", "white_discs"]);
    let row = split_csv_line(lines.next().unwrap());
    assert_eq!(row[3..7], ["8", "othello", "0", "0"]);
    assert_eq!(row[9], "B+13");
    assert_eq!(row[18..], ["13", "0"]);
}

#[test]
fn othello_forced_passes_are_the_referees_and_bad_moves_lose() {
    // After White's C1 Black has no move: the referee passes for it, White moves again;
    // then White answers garbage and loses.
    let cfg = othello_config(
        "othello-pass",
        "--moves 'D3 E6 D1 B2 A1'",
        "--moves 'C3 D2 E1 C1 A3 xx'",
    );
    let [r] = &play(&cfg)[..] else { panic!() };
    assert_eq!((r.result.as_str(), r.reason), ("B+F", EndReason::Illegal));
    assert!(r.detail.contains("'xx'"), "{}", r.detail);
    let moves = vertices(r);
    assert_eq!(moves[7..], ["WC1", "Bpass", "WA3", "BA1"]);
    assert_eq!(r.moves[8].kind, MoveKind::Forced);
    let log = std::fs::read_to_string(cfg.out_dir.join("logs/worker-1.log")).unwrap();
    assert!(log.contains("play black pass"), "{log}");
    // A pass while a move exists, and an occupied square, are illegal too.
    for (name, black, why) in [
        (
            "othello-pass-early",
            "--moves pass",
            "illegal (pass while a move exists)",
        ),
        (
            "othello-occupied",
            "--moves D4",
            "illegal (square occupied)",
        ),
    ] {
        let cfg = othello_config(name, black, "--moves C3");
        let [r] = &play(&cfg)[..] else { panic!() };
        assert_eq!((r.result.as_str(), r.reason), ("W+F", EndReason::Illegal));
        assert!(r.detail.ends_with(why), "{}", r.detail);
    }
}
