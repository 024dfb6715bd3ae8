//! The settings a controller changes while the engine runs, and the two options that size
//! and weaken Go's search, through the built binary: `kata-list-params`, `kata-get-param`,
//! `kata-set-param` and `lz-setoption` with their values read back and their failures
//! changing nothing; `--level` (deterministic for a seed, every move legal, level 10 the
//! engine without the option); `--max-memory` (a full tree keeps every command answering,
//! bad values refused at start).

mod gtp_session;

use std::process::Command;

use gtp_session::Session;

/// Every setting `kata-get-param` reads, name and answer.
fn settings(e: &mut Session) -> Vec<(String, String)> {
    let names = e.ok("kata-list-params");
    names
        .split(' ')
        .map(|name| (name.to_string(), e.ok(&format!("kata-get-param {name}"))))
        .collect()
}

fn setting(e: &mut Session, name: &str) -> String {
    e.ok(&format!("kata-get-param {name}"))
}

#[test]
fn kata_params_read_back_what_was_set() {
    let mut e = Session::start(&["--weights", "none"]);
    let defaults = [
        ("maxVisits", "20000"),
        ("maxPlayouts", "20000"),
        ("maxTime", "1e20"),
        ("numSearchThreads", "1"),
        ("ponderingEnabled", "false"),
        ("wideRootNoise", "0"),
        ("analysisWideRootNoise", "0"),
        ("level", "10"),
        ("maxMemory", "1112"),
    ];
    let want: Vec<(String, String)> = defaults
        .iter()
        .map(|&(n, v)| (n.to_string(), v.to_string()))
        .collect();
    assert_eq!(settings(&mut e), want);
    for (name, value, read) in [
        ("maxVisits", "500", "500"),
        ("maxPlayouts", "700", "700"),
        ("maxTime", "2.5", "2.5"),
        ("numSearchThreads", "2", "2"),
        ("ponderingEnabled", "true", "true"),
        ("wideRootNoise", "0.04", "0.04"),
        ("analysisWideRootNoise", "1", "1"),
        ("level", "3", "3"),
        ("maxMemory", "300", "300"),
        ("maxTime", "1e20", "1e20"),
    ] {
        assert_eq!(e.ok(&format!("kata-set-param {name} {value}")), "");
        assert_eq!(setting(&mut e, name), read, "{name} {value}");
    }
    // The two names are one setting in shicho.
    assert_eq!(setting(&mut e, "maxVisits"), "700");
    // Under a time limit only the clock caps a search, as KataGo reports it.
    let mut e = Session::start(&["--weights", "none", "--time", "1"]);
    assert_eq!(setting(&mut e, "maxVisits"), "1125899906842624");
    assert_eq!(setting(&mut e, "maxTime"), "1");
    // More threads take their share from the default's memory.
    let mut e = Session::start(&["--weights", "none", "--threads", "2"]);
    assert_eq!(setting(&mut e, "maxMemory"), "1116");
}

#[test]
fn bad_settings_are_errors_that_change_nothing() {
    let mut e = Session::start(&["--weights", "none"]);
    e.ok("kata-set-param maxVisits 300");
    let before = settings(&mut e);
    let could_not = "Could not set params: ";
    for (command, error) in [
        (
            "kata-set-param maxVisits 0",
            "maxVisits must be a whole number from 1",
        ),
        (
            "kata-set-param maxPlayouts -5",
            "maxPlayouts must be a whole number from 1",
        ),
        (
            "kata-set-param maxVisits many",
            "maxVisits must be a whole number from 1",
        ),
        (
            "kata-set-param maxTime 0",
            "maxTime must be seconds above 0",
        ),
        (
            "kata-set-param maxTime nan",
            "maxTime must be seconds above 0",
        ),
        (
            "kata-set-param numSearchThreads 0",
            "numSearchThreads must be 1 to 64",
        ),
        (
            "kata-set-param numSearchThreads 65",
            "numSearchThreads must be 1 to 64",
        ),
        (
            "kata-set-param ponderingEnabled yes",
            "ponderingEnabled must be true or false",
        ),
        ("kata-set-param level 0", "level must be 1 to 10, not '0'"),
        ("kata-set-param level 11", "level must be 1 to 10, not '11'"),
        (
            "kata-set-param level 2.5",
            "level must be 1 to 10, not '2.5'",
        ),
        (
            "kata-set-param maxMemory lots",
            "maxMemory must be a whole number of MiB",
        ),
        (
            "kata-set-param maxMemory 40",
            "maxMemory 40 MiB is too little: with 1 search thread the engine needs 88 MiB \
             besides its trees, and at least 89 MiB in all",
        ),
        (
            "kata-set-param wideRootNoise -1",
            "Key 'wideRootNoise' must be in the range 0 to 5",
        ),
        (
            "kata-set-param analysisWideRootNoise 5.5",
            "Key 'analysisWideRootNoise' must be in the range 0 to 5",
        ),
        (
            "kata-set-param wideRootNoise abc",
            "Could not parse 'abc' as double for key 'wideRootNoise'",
        ),
        (
            "kata-set-param cpuctExploration 1",
            "Unrecognized or non-overridable parameter in kata-set-params: cpuctExploration",
        ),
    ] {
        e.fails(command, &format!("{could_not}{error}"));
        assert_eq!(settings(&mut e), before, "{command} changed a setting");
    }
    // The memory's share of a thread: a limit that fits one thread refuses the 16th.
    e.ok("kata-set-param maxMemory 92");
    e.fails(
        "kata-set-param numSearchThreads 16",
        "Could not set params: maxMemory 92 MiB is too little: with 16 search threads the \
         engine needs 148 MiB besides its trees, and at least 149 MiB in all",
    );
    assert_eq!(setting(&mut e, "numSearchThreads"), "1");
    for (command, error) in [
        (
            "kata-get-param cpuctExploration",
            "Invalid parameter: cpuctExploration",
        ),
        ("kata-get-param", "syntax error"),
        ("kata-set-param level", "syntax error"),
        ("kata-list-params x", "syntax error"),
    ] {
        e.fails(command, error);
    }
}

#[test]
fn lz_setoption_sets_what_leela_zeros_front_ends_send() {
    let mut e = Session::start(&["--weights", "none"]);
    let options = e.ok("lz-setoption");
    let lines: Vec<&str> = options.lines().collect();
    assert_eq!(lines.len(), 5, "{options}");
    assert!(
        lines.iter().all(|l| l.starts_with("option name ")),
        "{options}"
    );
    assert!(
        lines[0]
            .starts_with("option name Maximum Memory Use (MiB) type spin default 1112 min 89 max")
    );
    for (command, name, value) in [
        ("lz-setoption name visits value 800", "maxVisits", "800"),
        ("lz-setoption name Playouts value 900", "maxVisits", "900"),
        ("lz-setoption name visits value 0", "maxVisits", "20000"),
        (
            "lz-setoption name Maximum Memory Use (MiB) value 256",
            "maxMemory",
            "256",
        ),
        (
            "lz-setoption name pondering value true",
            "ponderingEnabled",
            "true",
        ),
        (
            "lz-setoption name Pondering value False",
            "ponderingEnabled",
            "false",
        ),
        ("lz-setoption name Level value 4", "level", "4"),
        ("lz-setoption NAME level VALUE 5", "level", "5"),
    ] {
        assert_eq!(e.ok(command), "", "{command}");
        assert_eq!(setting(&mut e, name), value, "{command}");
    }
    let before = settings(&mut e);
    for (command, error) in [
        (
            "lz-setoption name visits",
            "incorrect syntax for lz-setoption",
        ),
        (
            "lz-setoption visits value 5",
            "incorrect syntax for lz-setoption",
        ),
        (
            "lz-setoption name value 5",
            "incorrect syntax for lz-setoption",
        ),
        (
            "lz-setoption name visits value",
            "incorrect syntax for lz-setoption",
        ),
        ("lz-setoption name lagbuffer value 100", "Unknown option"),
        (
            "lz-setoption name visits value -1",
            "incorrect value: visits must be 0 to 1000000000",
        ),
        (
            "lz-setoption name maximum memory use (mib) value 20",
            "incorrect value: 20 MiB is too little: with 1 search thread the engine needs 88 \
             MiB besides its trees, and at least 89 MiB in all",
        ),
        (
            "lz-setoption name pondering value maybe",
            "incorrect value: pondering must be true or false",
        ),
        (
            "lz-setoption name level value 12",
            "incorrect value: level must be 1 to 10, not '12'",
        ),
    ] {
        e.fails(command, error);
        assert_eq!(settings(&mut e), before, "{command} changed a setting");
    }
}

/// The moves of a self-play game of `plies` on 9x9 by genmove.
fn self_play(args: &[&str], plies: usize) -> Vec<String> {
    let mut e = Session::start(args);
    e.ok("boardsize 9");
    e.ok("komi 7");
    (0..plies)
        .map(|i| e.ok(&format!("genmove {}", ["b", "w"][i % 2])))
        .collect()
}

#[test]
fn level_10_is_the_engine_without_the_option() {
    let search = ["--seed", "11", "--playouts", "60", "--weights", "none"];
    let without = self_play(&search, 8);
    let with: Vec<&str> = search.iter().copied().chain(["--level", "10"]).collect();
    assert_eq!(self_play(&with, 8), without);
}

#[test]
fn a_level_plays_the_same_game_for_a_seed_and_only_legal_moves() {
    for level in ["1", "4"] {
        let args = |seed| ["--seed", seed, "--level", level, "--playouts", "300"];
        let game = self_play(&args("5"), 16);
        assert_eq!(self_play(&args("5"), 16), game, "level {level}");
        assert_ne!(
            self_play(&args("6"), 16),
            game,
            "level {level}: another seed"
        );
        // Each move was played: a replay of the game accepts them all.
        let mut e = Session::start(&["--weights", "none"]);
        e.ok("boardsize 9");
        for (i, m) in game.iter().enumerate() {
            assert_ne!(m, "resign", "level {level}");
            e.ok(&format!("play {} {m}", ["b", "w"][i % 2]));
        }
    }
    // A level set while the engine runs is the option's.
    let mut e = Session::start(&["--seed", "5", "--playouts", "300"]);
    e.ok("boardsize 9");
    e.ok("komi 7");
    e.ok("kata-set-param level 1");
    let first: Vec<String> = (0..16)
        .map(|i| e.ok(&format!("genmove {}", ["b", "w"][i % 2])))
        .collect();
    assert_eq!(
        first,
        self_play(&["--seed", "5", "--level", "1", "--playouts", "300"], 16)
    );
}

/// A streaming analysis run until `reports` reports came, then stopped by a blank line.
fn analyse(e: &mut Session, command: &str, reports: usize) -> Vec<String> {
    e.send(command);
    assert_eq!(e.line(command), "=", "{command}");
    let mut lines: Vec<String> = (0..reports).map(|_| e.line("a report")).collect();
    e.send("");
    loop {
        let line = e.line("the end of the analysis");
        if line.is_empty() {
            return lines;
        }
        lines.push(line);
    }
}

/// The visits of the first move of a `kata-analyze` report.
fn first_visits(report: &str) -> u64 {
    let mut tokens = report.split(' ').skip_while(|&t| t != "visits");
    tokens.nth(1).and_then(|v| v.parse().ok()).unwrap_or(0)
}

#[test]
fn a_full_tree_keeps_every_command_answering() {
    // The least memory the engine takes with two threads: trees of 8,192 nodes, full after a
    // few dozen expansions on 19x19.
    let mut e = Session::start(&["--threads", "2", "--max-memory", "93", "--seed", "3"]);
    assert_eq!(setting(&mut e, "maxMemory"), "93");
    e.ok("boardsize 19");
    e.ok("kata-set-param maxVisits 3000");
    let m = e.ok("genmove b");
    assert!(m.len() >= 2 && m != "resign", "{m}");
    let reports = analyse(&mut e, "kata-analyze w 20", 15);
    let last = reports.last().unwrap();
    assert!(last.starts_with("info move "), "{last}");
    // The analysis went on simulating after its tree filled: past one simulation a node.
    assert!(first_visits(last) > 100, "{last}");
    let m = e.ok("genmove w");
    assert!(m.len() >= 2 && m != "resign", "{m}");
    assert!(e.ok("showboard").contains("19"));
    assert!(e.ok("reg_genmove b").len() >= 2);
    e.ok("kata-set-param maxMemory 2000");
    assert!(e.ok("genmove b").len() >= 2);
}

/// The exit status and error output of the engine started with `args` and no input.
fn start(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shicho"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the engine runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn bad_options_are_refused_at_start() {
    for (args, error) in [
        (
            &["--max-memory", "88"][..],
            "--max-memory 88 MiB is too little: with 1 search thread",
        ),
        (
            &["--max-memory", "64", "--threads", "8"],
            "with 8 search threads",
        ),
        (&["--max-memory=-1"], "--max-memory"),
        (&["--max-memory", "lots"], "--max-memory"),
        (&["--level", "0"], "level must be 1 to 10, not '0'"),
        (&["--level", "11"], "level must be 1 to 10, not '11'"),
        (
            &["--level", "strong"],
            "level must be 1 to 10, not 'strong'",
        ),
    ] {
        let (status, stderr) = start(args);
        assert_eq!(status, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(error), "{args:?}: {stderr}");
        assert!(!stderr.contains("panic"), "{args:?}: {stderr}");
    }
    assert_eq!(start(&["--max-memory", "89", "--level", "1"]).0, Some(0));
}
