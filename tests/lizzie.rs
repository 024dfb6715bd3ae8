//! shicho as Lizzie 0.7 (Debian's `liblizzie-java`) drives it, through the built binary:
//! numbered commands, the version check, a position sent as plays with `B` and `W`,
//! `lz-analyze` at Lizzie's interval and `name` to stop it, every report read the way
//! Lizzie's `MoveData.fromInfo` reads it. `tests/lizzie/check.py` runs Lizzie itself under
//! Xvfb; this test needs nothing but the engine.

mod gtp_session;

use gtp_session::Session;
use shicho::{Geometry, Topology};

/// Lizzie 0.7's version check (`Leelaz.java`): it takes `version`'s answer for Leela Zero's
/// and reads its second dot-separated field as a number (a field that is not one throws in
/// its reader thread); below 15 it shows a dialog from that thread, which reads nothing
/// more, not even the analysis it asks for, until the dialog is closed.
fn lizzie_accepts(version: &str) -> bool {
    version
        .split('.')
        .nth(1)
        .and_then(|minor| minor.parse::<i32>().ok())
        .is_some_and(|minor| minor >= 15)
}

/// Lizzie's opening, as its engine log shows it, then a position of twenty stones as it
/// sends an SGF's setup (Black's stones, then White's).
const OPENING: [&str; 7] = [
    "name",
    "version",
    "boardsize 19",
    "komi 7.5",
    "clear_board",
    "komi 7.5",
    "komi 7.5",
];
const SETUP: [&str; 20] = [
    "B Q16", "B Q4", "B F3", "B D2", "B L4", "B Q14", "B R16", "B P16", "B O16", "B K16", "W D4",
    "W D16", "W C3", "W C6", "W O17", "W R17", "W Q17", "W P17", "W N17", "W C14",
];

/// Sends `command` with Lizzie's id and checks the answer's first line: `=id`, then a space
/// and the text if there is one (Lizzie reads the id with `parseInt` after the `=`).
fn lizzie_ask(e: &mut Session, id: u32, command: &str) -> String {
    e.send(&format!("{id} {command}"));
    let first = e.line(command);
    let text = match first.strip_prefix(&format!("={id}")) {
        Some("") => String::new(),
        Some(rest) => rest
            .strip_prefix(' ')
            .unwrap_or_else(|| panic!("{command}: {first:?}"))
            .to_string(),
        None => panic!("{command}: not a success with Lizzie's id: {first:?}"),
    };
    assert_eq!(
        e.line(command),
        "",
        "{command}: one line, then the empty line"
    );
    text
}

/// One `info` line read as `MoveData.fromInfo` reads it: groups split at " info ", keys and
/// values alternating until `pv`, `visits`, `winrate`, `prior` and `lcb` whole numbers
/// (`Integer.parseInt`), the winrate in hundredths of a percent for the side to move.
/// Returns each group's (move, visits, winrate, pv).
fn read_as_lizzie(line: &str, geo: &Geometry) -> Vec<(String, u32, u32, Vec<String>)> {
    let rest = line
        .strip_prefix("info ")
        .expect("a report starts with info");
    rest.split(" info ")
        .map(|group| {
            let data: Vec<&str> = group.trim().split(' ').collect();
            assert!(
                data.iter().all(|t| !t.is_empty()),
                "one space apart: {group:?}"
            );
            let (mut mv, mut visits, mut winrate, mut pv) = (None, None, None, None);
            let mut i = 0;
            while i < data.len() {
                if data[i] == "pv" {
                    pv = Some(data[i + 1..].iter().map(|s| s.to_string()).collect());
                    break;
                }
                let value = data.get(i + 1).expect("every key has a value");
                let number = || {
                    value
                        .parse::<u32>()
                        .unwrap_or_else(|_| panic!("{}: not a whole number: {value}", data[i]))
                };
                match data[i] {
                    "move" => mv = Some(value.to_string()),
                    "visits" => visits = Some(number()),
                    "winrate" => winrate = Some(number()),
                    "prior" | "lcb" | "order" => {
                        number();
                    }
                    _ => {}
                }
                i += 2;
            }
            let (mv, visits, winrate, pv): (String, u32, u32, Vec<String>) = (
                mv.expect("move"),
                visits.expect("visits"),
                winrate.expect("winrate"),
                pv.expect("pv"),
            );
            assert!(winrate <= 10_000, "{winrate}");
            assert!(geo.parse_point(&mv).is_ok(), "{mv}");
            assert_eq!(pv.first(), Some(&mv), "the variation starts with the move");
            for v in &pv {
                assert!(v == "pass" || geo.parse_point(v).is_ok(), "pv: {v}");
            }
            (mv, visits, winrate, pv)
        })
        .collect()
}

#[test]
fn shichos_own_version_would_stop_lizzie_and_the_override_passes() {
    let mut own = Session::start(&[]);
    let version = lizzie_ask(&mut own, 2, "version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert!(!lizzie_accepts(&version));
    let mut overridden = Session::start(&["--override-version", "0.17"]);
    assert_eq!(lizzie_ask(&mut overridden, 2, "version"), "0.17");
    assert!(lizzie_accepts("0.17") && !lizzie_accepts("0.1.0") && !lizzie_accepts("shicho"));
    // The name stays shicho's: Lizzie would take one starting with "KataGo" for KataGo.
    assert_eq!(lizzie_ask(&mut overridden, 1, "name"), "shicho");
    // Othello mode answers the same.
    let mut othello = Session::start(&["--game", "othello", "--override-version", "0.17"]);
    assert_eq!(lizzie_ask(&mut othello, 5, "version"), "0.17");
}

#[test]
fn analysis_reads_as_lizzie_reads_it() {
    let mut e = Session::start(&["--override-version", "0.17", "--threads", "1"]);
    let mut id = 0;
    for command in OPENING {
        id += 1;
        let text = lizzie_ask(&mut e, id, command);
        if command == "version" {
            assert!(lizzie_accepts(&text), "{text}");
        }
    }
    for stone in SETUP {
        id += 1;
        lizzie_ask(&mut e, id, &format!("play {stone}"));
    }
    let geo = Geometry::get(19, Topology::Plane).unwrap();
    id += 1;
    // Lizzie's default interval: 10 centiseconds.
    e.send(&format!("{id} lz-analyze 10"));
    assert_eq!(e.line("lz-analyze's start"), format!("={id}"));
    let mut reports = 0;
    let mut last = Vec::new();
    while reports < 5 {
        let line = e.line("a report");
        last = read_as_lizzie(&line, geo);
        assert!(!last.is_empty());
        reports += 1;
    }
    // Candidates, best first, each with the visits Lizzie sizes and colours them by.
    assert!(last.iter().map(|c| c.1).sum::<u32>() > 0);
    let occupied: Vec<&str> = SETUP.iter().map(|s| &s[2..]).collect();
    assert!(last.iter().all(|c| !occupied.contains(&c.0.as_str())));
    // Any command stops the analysis: Lizzie sends `name`.
    id += 1;
    e.send(&format!("{id} name"));
    loop {
        let line = e.line("the analysis's end");
        if line.is_empty() {
            break;
        }
        read_as_lizzie(&line, geo);
    }
    assert_eq!(e.line("name"), format!("={id} shicho"));
    assert_eq!(e.line("name's end"), "");
    // Lizzie's "play against the engine": two seconds a move in byo-yomi, then genmove.
    id += 1;
    lizzie_ask(&mut e, id, "time_settings 0 2 1");
    id += 1;
    let answer = lizzie_ask(&mut e, id, "genmove B");
    assert!(geo.parse_point(&answer).is_ok(), "{answer}");
}
