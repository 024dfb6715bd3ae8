//! The analysis commands through the built binary, read as KataGo's front ends read them
//! (`GTP_Extensions.md`): every key of `kata-analyze`'s groups and of its `rootInfo`, the
//! values' ranges, the `ownership` block's size and sign (the side analysed positive), the
//! scores' sign, `avoid` and `allow` kept, `minmoves` and `maxmoves` obeyed; the genmove
//! variants' frame (`=`, `info` lines, `play MOVE`) and their move played; `kata-raw-nn`'s
//! layout; a bad argument answered with an error that changes nothing. With the network
//! and without (`--weights none`: the playouts' scores and ownership).

mod gtp_session;

use gtp_session::Session;

/// One `info` group: its keys and values in order, its pv, and any `movesOwnership`.
struct Group {
    fields: Vec<(String, String)>,
    pv: Vec<String>,
    moves_ownership: Vec<f64>,
}

impl Group {
    fn get(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {key} in {:?}", self.fields))
    }

    fn number(&self, key: &str) -> f64 {
        let v: f64 = self.get(key).parse().unwrap();
        assert!(v.is_finite(), "{key} {v}");
        v
    }
}

/// A report line of the KataGo dialect: its groups, its `rootInfo` pairs, its `ownership`.
struct KataReport {
    groups: Vec<Group>,
    root_info: Vec<(String, String)>,
    ownership: Vec<f64>,
}

fn is_vertex(v: &str) -> bool {
    v == "PASS" || {
        let (letter, number) = v.split_at(1);
        letter.bytes().all(|b| b.is_ascii_uppercase() && b != b'I')
            && number.parse::<u32>().is_ok_and(|n| (1..=25).contains(&n))
    }
}

fn numbers(tokens: &[&str]) -> Vec<f64> {
    tokens.iter().map(|t| t.parse::<f64>().unwrap()).collect()
}

/// Reads a line as KataGo lays it out: `info` groups of key-value pairs up to `pv`, the pv's
/// vertices, an optional `movesOwnership` block; then the top-level `rootInfo` and
/// `ownership`.
fn read_kata(line: &str, points: usize) -> KataReport {
    let tokens: Vec<&str> = line.split(' ').collect();
    assert!(
        tokens.iter().all(|t| !t.is_empty()),
        "one space apart: {line}"
    );
    let mut report = KataReport {
        groups: Vec::new(),
        root_info: Vec::new(),
        ownership: Vec::new(),
    };
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "info" => {
                let mut group = Group {
                    fields: Vec::new(),
                    pv: Vec::new(),
                    moves_ownership: Vec::new(),
                };
                i += 1;
                while tokens[i] != "pv" {
                    group.fields.push((tokens[i].into(), tokens[i + 1].into()));
                    i += 2;
                }
                i += 1;
                while i < tokens.len() && is_vertex(tokens[i]) {
                    group.pv.push(tokens[i].into());
                    i += 1;
                }
                if tokens.get(i) == Some(&"movesOwnership") {
                    group.moves_ownership = numbers(&tokens[i + 1..i + 1 + points]);
                    i += 1 + points;
                }
                report.groups.push(group);
            }
            "rootInfo" => {
                i += 1;
                while i < tokens.len() && !["info", "ownership"].contains(&tokens[i]) {
                    report
                        .root_info
                        .push((tokens[i].into(), tokens[i + 1].into()));
                    i += 2;
                }
            }
            "ownership" => {
                report.ownership = numbers(&tokens[i + 1..]);
                assert_eq!(report.ownership.len(), points, "one value a point");
                i = tokens.len();
            }
            other => panic!("unexpected {other:?} in {line}"),
        }
    }
    report
}

/// Runs a streaming analysis command until `reports` reports have come, stops it with a
/// blank line, and returns every report.
fn analyse(e: &mut Session, command: &str, reports: usize) -> Vec<String> {
    e.send(&format!("5 {command}"));
    assert_eq!(e.line(command), "=5", "{command}");
    let mut lines = Vec::new();
    for _ in 0..reports {
        lines.push(e.line("a report"));
    }
    e.send("");
    loop {
        let line = e.line("the end of the analysis");
        if line.is_empty() {
            return lines;
        }
        lines.push(line);
    }
}

/// The engine on a 9x9 board, Black's stones on the left, White's on the right.
fn position(args: &[&str]) -> Session {
    let mut e = Session::start(args);
    for command in [
        "boardsize 9",
        "clear_board",
        "komi 7",
        "play b C3",
        "play w G7",
        "play b C7",
        "play w G3",
        "play b C5",
    ] {
        e.ok(command);
    }
    e
}

const KEYS: [&str; 9] = [
    "move",
    "visits",
    "winrate",
    "scoreMean",
    "scoreStdev",
    "scoreLead",
    "prior",
    "lcb",
    "order",
];

#[test]
fn kata_analyze_reports_every_key_in_range() {
    for weights in ["builtin", "none"] {
        let mut e = position(&["--weights", weights]);
        let lines = analyse(
            &mut e,
            "kata-analyze w 20 ownership true movesOwnership true rootInfo true minmoves 5",
            2,
        );
        for line in &lines {
            let r = read_kata(line, 81);
            assert!(r.groups.len() >= 5, "{weights}: minmoves 5");
            let mut visits = 0.0;
            for (order, g) in r.groups.iter().enumerate() {
                let keys: Vec<&str> = g.fields.iter().map(|(k, _)| k.as_str()).collect();
                assert_eq!(keys, KEYS, "{weights}: KataGo's keys, in its order");
                assert_eq!(g.get("order"), order.to_string());
                assert_eq!(g.get("scoreMean"), g.get("scoreLead"));
                for key in ["winrate", "prior"] {
                    assert!((0.0..=1.0).contains(&g.number(key)), "{weights}: {key}");
                }
                assert!(g.number("scoreStdev") >= 0.0);
                assert!(g.number("scoreLead").abs() < 100.0);
                visits += g.number("visits");
                assert_eq!(g.pv[0], g.get("move"));
                assert_eq!(g.moves_ownership.len(), 81, "{weights}");
                assert!(g.moves_ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
            }
            let keys: Vec<&str> = r.root_info.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(
                keys,
                ["visits", "winrate", "scoreMean", "scoreStdev", "scoreLead"]
            );
            assert_eq!(
                r.root_info[0].1.parse::<f64>().unwrap(),
                visits,
                "{weights}"
            );
            assert!(r.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        }
        // maxmoves caps, and the lz dialect shows no scores.
        let lines = analyse(&mut e, "kata-analyze 20 maxmoves 2", 2);
        assert!(lines.iter().all(|l| read_kata(l, 81).groups.len() <= 2));
        let lines = analyse(&mut e, "lz-analyze 20", 1);
        assert!(!lines[0].contains("score"));
        let lines = analyse(&mut e, "analyze w 20", 1);
        assert!(
            lines[0].contains(" scoreLead "),
            "Sabaki's analyze shows the score"
        );
    }
}

#[test]
fn ownership_and_scores_are_the_side_analysed() {
    for weights in ["builtin", "none"] {
        // Five Black stones against none: Black far ahead (KataGo 1.18's b18 net: Black
        // leads by 75 with Black to move, White trails by 69 with White to move, E5 owned
        // +0.996 for Black and -0.997 for White).
        let mut e = Session::start(&["--weights", weights]);
        for command in ["boardsize 9", "clear_board", "komi 7"] {
            e.ok(command);
        }
        for v in ["C3", "C7", "G3", "G7", "E5"] {
            e.ok(&format!("play b {v}"));
            e.ok("play w pass");
        }
        // E5: the fifth row from the top, the fifth column.
        let e5 = 4 * 9 + 4;
        let mut leads = Vec::new();
        for colour in ["b", "w"] {
            let lines = analyse(
                &mut e,
                &format!("kata-analyze {colour} 20 ownership true rootInfo true"),
                1,
            );
            let r = read_kata(lines.last().unwrap(), 81);
            let owner = r.ownership[e5];
            match colour {
                "b" => assert!(owner > 0.5, "{weights}: Black's stone, for Black {owner}"),
                _ => assert!(owner < -0.5, "{weights}: Black's stone, for White {owner}"),
            }
            let lead = &r
                .root_info
                .iter()
                .find(|(k, _)| k == "scoreLead")
                .unwrap()
                .1;
            leads.push(lead.parse::<f64>().unwrap());
            for g in &r.groups {
                let lead = g.number("scoreLead");
                assert_eq!(lead > 0.0, colour == "b", "{weights}: {colour} {lead}");
            }
        }
        assert!(leads[0] > 10.0 && leads[1] < -10.0, "{weights}: {leads:?}");
    }
}

#[test]
fn avoid_and_allow_keep_moves_out_of_the_search() {
    let mut e = position(&[]);
    let lines = analyse(
        &mut e,
        "kata-analyze w 20 avoid w D4,E5,pass 1 minmoves 80",
        2,
    );
    for line in &lines {
        let moves: Vec<String> = read_kata(line, 81)
            .groups
            .iter()
            .map(|g| g.get("move").to_string())
            .collect();
        assert!(moves.len() > 60, "minmoves fills in the unvisited moves");
        for avoided in ["D4", "E5", "PASS"] {
            assert!(
                !moves.iter().any(|m| m == avoided),
                "{avoided} in {moves:?}"
            );
        }
    }
    // Black's replies too, two plies deep: none of the pvs' second moves is F5.
    let lines = analyse(&mut e, "lz-analyze w 20 avoid b F5 2", 2);
    for group in lines.last().unwrap().split("info ").skip(1) {
        let pv: Vec<&str> = group.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert_ne!(pv.get(1), Some(&"F5"), "{group}");
    }
    let lines = analyse(&mut e, "kata-analyze w 20 allow w E5,D4 1 minmoves 10", 2);
    for line in &lines {
        let mut moves: Vec<String> = read_kata(line, 81)
            .groups
            .iter()
            .map(|g| g.get("move").to_string())
            .collect();
        moves.sort();
        assert_eq!(moves, ["D4", "E5"]);
    }
}

#[test]
fn a_bad_argument_is_an_error_that_changes_nothing() {
    let mut e = position(&[]);
    let before = e.ok("showboard");
    for (command, error) in [
        ("kata-analyze b 10 ownership maybe", "syntax error"),
        ("kata-analyze b 10 avoid b E3", "syntax error"),
        (
            "kata-analyze b 10 avoid b Z99 1",
            "bad analysis argument: 'Z99' is not a vertex of this board",
        ),
        (
            "kata-analyze b 10 avoid b E3 0",
            "bad analysis argument: avoid's ply must be 1 or more, not 0",
        ),
        (
            "lz-analyze b 10 allow b E3 1 avoid b D4 1",
            "bad analysis argument: allow excludes any other avoid or allow for black",
        ),
        (
            "lz-analyze b 10 ownership true",
            "bad analysis argument: ownership is a key of the kata- commands",
        ),
        (
            "kata-genmove_analyze b 10 foo 3",
            "bad analysis argument: unknown key 'foo'",
        ),
        ("lz-genmove_analyze b interval", "syntax error"),
        ("kata-raw-nn 8", "symmetry must be 'all' or 0 to 7, not '8'"),
        ("kata-raw-nn", "syntax error"),
    ] {
        e.fails(command, error);
    }
    assert_eq!(e.ok("showboard"), before, "nothing played");
    let mut classic = Session::start(&["--weights", "none"]);
    classic.fails("kata-raw-nn 0", "unknown command");
}

/// The moves a `kata-analyze` looked at once its reports count `visits` in all.
fn moves_searched(e: &mut Session, visits: f64) -> usize {
    e.send("6 kata-analyze b 10");
    assert_eq!(e.line("the start"), "=6");
    let moves = loop {
        let r = read_kata(&e.line("a report"), 81);
        let total: f64 = r.groups.iter().map(|g| g.number("visits")).sum();
        if total >= visits {
            break r.groups.len();
        }
    };
    e.send("");
    while !e.line("the end of the analysis").is_empty() {}
    moves
}

#[test]
fn analysis_wide_root_noise_spreads_the_analysis_alone() {
    let mut e = position(&[]);
    let plain = moves_searched(&mut e, 300.0);
    // genmove's noise leaves the analysis as it was.
    e.ok("kata-set-param wideRootNoise 5");
    let genmove_noise = moves_searched(&mut e, 300.0);
    e.ok("kata-set-param analysisWideRootNoise 5");
    let wide = moves_searched(&mut e, 300.0);
    assert!(
        wide >= 30 && wide >= 2 * plain.max(genmove_noise),
        "{plain} moves, {genmove_noise} under genmove's noise, {wide} under the analysis's"
    );
}

#[test]
fn genmove_analyze_reports_then_plays() {
    for weights in ["builtin", "none"] {
        let mut e = position(&["--weights", weights, "--playouts", "2000"]);
        // The next command comes at once: the genmove runs to its end all the same.
        e.send("7 kata-genmove_analyze w 1 ownership true");
        e.send("8 list_stones white");
        assert_eq!(e.line("the start"), "=7");
        let mut reports = 0;
        let played = loop {
            let line = e.line("a report or the move");
            if let Some(mv) = line.strip_prefix("play ") {
                break mv.to_string();
            }
            let r = read_kata(&line, 81);
            assert!(!r.groups.is_empty() && r.ownership.len() == 81);
            reports += 1;
        };
        assert!(reports >= 1, "{weights}: at least the last report");
        assert_eq!(e.line("the end"), "");
        let stones = e.line("list_stones");
        assert!(
            stones.contains(&played),
            "{weights}: {played} not in {stones}"
        );
        assert_eq!(e.line("list_stones' end"), "");
        // Leela Zero's dialect, Black to move by default.
        e.send("9 lz-genmove_analyze 0");
        assert_eq!(e.line("the start"), "=9");
        let last = e.line("the only report");
        assert!(
            last.starts_with("info move ") && !last.contains("score"),
            "{last}"
        );
        assert!(e.line("the move").starts_with("play "));
        assert_eq!(e.line("the end"), "");
    }
}

#[test]
fn raw_nn_is_katagos_layout() {
    let mut e = position(&[]);
    let text = e.ok("kata-raw-nn w 0");
    let lines: Vec<&str> = text.lines().collect();
    let keys: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split(' ').next())
        .filter(|k| k.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && *k != "NAN")
        .collect();
    assert_eq!(
        keys,
        [
            "symmetry",
            "whiteWin",
            "whiteLoss",
            "noResult",
            "whiteLead",
            "shorttermWinlossError",
            "shorttermScoreError",
            "policy",
            "policyPass",
            "whiteOwnership"
        ]
    );
    let policy = lines.iter().position(|&l| l == "policy").unwrap();
    for row in &lines[policy + 1..policy + 10] {
        assert_eq!(row.split_whitespace().count(), 9, "{row}");
    }
    let owners = lines.iter().position(|&l| l == "whiteOwnership").unwrap();
    assert_eq!(lines.len(), owners + 10);
    let win: f64 = lines[1].split(' ').nth(1).unwrap().parse().unwrap();
    let loss: f64 = lines[2].split(' ').nth(1).unwrap().parse().unwrap();
    assert!((win + loss - 1.0).abs() < 1e-5);
    let all = e.ok("kata-raw-nn all");
    assert_eq!(all.matches("symmetry ").count(), 8);
}
