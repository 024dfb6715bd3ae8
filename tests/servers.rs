//! The command sequences of the two server bridges, replayed through the built binary with
//! every answer checked. Neither bridge can run here (each needs an account on its server),
//! so the sequences are read from what they are made of:
//!
//! - **GTP2OGS** (OGS's bridge), version 9.0.1 (github.com/online-go/gtp2ogs at af05c66,
//!   "9.0.1 package version"), `src/Bot.ts`: the constructor asks `list_commands`;
//!   `loadState` asks `kata-list_time_settings` of an engine that lists it (and takes
//!   Fischer games natively only if the answer holds `fischer-capped`), then `boardsize`,
//!   `clear_board`, `komi` and the moves so far as `play black|white v` (lower-case
//!   vertices), handicap stones by `set_free_handicap`; `getMoves` calls `loadClock` before
//!   every `genmove` or `place_free_handicap`, which sends the time system and both
//!   `time_left`s again each time: Fischer as `kata-time_settings fischer-capped INITIAL INC
//!   MAX -1`, or to an engine without it as Canadian with the increment as a one-stone
//!   period (`kgs-time_settings canadian` or `time_settings`, main time less one increment);
//!   Japanese byo-yomi as `kgs-time_settings byoyomi` with periods left in `time_left`;
//!   Canadian; "simple" as `time_settings 0 T 1`; absolute as `time_settings T 0 0`. Every
//!   line ends in CR LF, and the clock's commands are written without waiting for their
//!   answers (`ignore_promise`), so several reach the engine before it answers any.
//!   `kill` sends `quit`. `src/Game.ts`: `genmove black|white` (`makeMove`), the opponent's
//!   moves (`sendMove`, `play`), `final_score` at the end (`gameOver`, with `farewellscore`).
//! - **kgsGtp** (KGS's bridge, closed source), version 3.5: its documentation, kgsGtp.xhtml
//!   (svn revision 11200, 2013-12-06, shipped with the download; read here through the copy
//!   of its command list in github.com/broutade/KGSAI, `RequestCommand.java`, and its 3.3
//!   version at weddslist.com/kgs/how/kgsGtp.html) lists what it sends and when: `list_commands` first
//!   (no extension unless listed), `name` and `version`; `boardsize` and the time settings
//!   for every challenge, to be refused if unplayable; for a game `boardsize`,
//!   `clear_board`, `komi`, `kgs-rules` (`japanese|chinese|aga|new_zealand`, more words may
//!   follow one day), `kgs-time_settings` (`none|absolute|canadian|byoyomi`, periods left in
//!   `time_left`'s stones under byoyomi); `play`, `genmove`, `time_left`, `undo` when the
//!   opponent takes a move back; `final_status_list dead` once the game is scored and
//!   `kgs-genmove_cleanup` when the dead stones are disputed; `kgs-chat game|private NAME
//!   MESSAGE` when someone writes to the engine (the answer goes back to them); and
//!   `kgs-game_over` when the game ends. The order within a game's setup is the
//!   documentation's order, not a recorded session.

mod gtp_session;

use std::collections::HashSet;
use std::time::Instant;

use gtp_session::Session;
use shicho::go::gtp::server::CHAT_ANSWER;

/// GTP2OGS writes CR LF line ends.
fn crlf(command: &str) -> String {
    format!("{command}\r")
}

/// Writes `commands` one after another, as GTP2OGS does, and then reads their answers.
fn pipelined(s: &mut Session, commands: &[String]) -> Vec<(bool, String)> {
    for command in commands {
        s.send(&crlf(command));
    }
    commands.iter().map(|c| s.answer(c)).collect()
}

/// A command GTP2OGS sends alone, waiting for its answer; it must succeed.
fn ogs(s: &mut Session, command: &str) -> String {
    s.ok(&crlf(command))
}

/// Whether `text` is a move on a `size` board, as genmove answers one.
fn is_move(text: &str, size: usize) -> bool {
    let text = text.to_ascii_uppercase();
    if text == "PASS" || text == "RESIGN" {
        return true;
    }
    let mut chars = text.chars();
    let Some(column) = chars.next() else {
        return false;
    };
    let columns: Vec<char> = "ABCDEFGHJKLMNOPQRSTUVWXYZ".chars().take(size).collect();
    let row: Option<usize> = chars.as_str().parse().ok();
    columns.contains(&column) && row.is_some_and(|r| (1..=size).contains(&r))
}

/// The opponent's moves, each the first of `candidates` not yet taken.
struct Opponent {
    taken: HashSet<String>,
    candidates: Vec<&'static str>,
}

impl Opponent {
    fn new(candidates: &[&'static str]) -> Opponent {
        Opponent {
            taken: HashSet::new(),
            candidates: candidates.to_vec(),
        }
    }

    fn took(&mut self, vertex: &str) {
        self.taken.insert(vertex.to_ascii_lowercase());
    }

    fn next(&mut self) -> &'static str {
        let v = *self
            .candidates
            .iter()
            .find(|v| !self.taken.contains(&v.to_ascii_lowercase()))
            .expect("a free candidate");
        self.took(v);
        v
    }
}

/// GTP2OGS's `loadClock` commands and the `genmove` after them, pipelined; the move.
fn ogs_genmove(s: &mut Session, clock: &[&str], color: &str) -> String {
    let mut commands: Vec<String> = clock.iter().map(|c| c.to_string()).collect();
    commands.push(format!("genmove {color}"));
    let answers = pipelined(s, &commands);
    for (command, (ok, text)) in commands.iter().zip(&answers) {
        if command.starts_with("genmove") {
            assert!(*ok && is_move(text, 9), "{command}: {text}");
        } else {
            assert_eq!((*ok, text.as_str()), (true, ""), "{command}");
        }
    }
    answers.last().map(|(_, m)| m.clone()).unwrap_or_default()
}

#[test]
fn gtp2ogs_plays_a_fischer_game_through_kata_time_settings() {
    let mut s = Session::start(&["--playouts", "40"]);
    let commands = ogs(&mut s, "list_commands");
    let listed: Vec<&str> = commands.lines().map(str::trim).collect();
    for needed in ["kata-list_time_settings", "kgs-time_settings", "time_left"] {
        assert!(listed.contains(&needed), "{needed} not listed");
    }
    // GTP2OGS looks for this word to send Fischer games as Fischer.
    let kinds = ogs(&mut s, "kata-list_time_settings");
    assert!(
        kinds.split_whitespace().any(|k| k == "fischer-capped"),
        "{kinds}"
    );
    for setup in ["boardsize 9", "clear_board", "komi 6.5"] {
        assert_eq!(ogs(&mut s, setup), "", "{setup}");
    }
    // A game joined after its first moves: they are replayed.
    let mut opponent = Opponent::new(&["c3", "g7", "c7", "g3", "e3", "e7", "c5", "g5"]);
    for (color, v) in [("black", "e5"), ("white", "c3")] {
        assert_eq!(ogs(&mut s, &format!("play {color} {v}")), "");
        opponent.took(v);
    }
    // OGS's clock: 60 s, 2 s a move, at most 120 s; `-1`: no limit per move.
    let mut black = 57;
    for _ in 0..3 {
        let clock = [
            "kata-time_settings fischer-capped 60 2 120 -1".to_string(),
            format!("time_left black {black} 0"),
            "time_left white 59 0".to_string(),
        ];
        let clock: Vec<&str> = clock.iter().map(String::as_str).collect();
        let mv = ogs_genmove(&mut s, &clock, "black");
        opponent.took(&mv);
        assert_eq!(ogs(&mut s, &format!("play white {}", opponent.next())), "");
        black -= 1;
    }
    // A score at the end (`farewellscore`), then `quit` as the bot is released.
    let score = ogs(&mut s, "final_score");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
    assert_eq!(ogs(&mut s, "quit"), "");
}

#[test]
fn gtp2ogs_clocks_of_every_other_time_system_are_answered() {
    let mut s = Session::start(&["--playouts", "40"]);
    ogs(&mut s, "list_commands");
    for setup in ["boardsize 9", "clear_board", "komi 0.5"] {
        ogs(&mut s, setup);
    }
    let mut opponent = Opponent::new(&[
        "c3", "g7", "c7", "g3", "e3", "e7", "c5", "g5", "d4", "f6", "d6", "f4", "b2", "h8",
    ]);
    // Each system as `loadClock` sends it to an engine that lists kgs-time_settings: in
    // main time, then in overtime.
    let clocks: [&[&str]; 10] = [
        // Japanese byo-yomi: 10 min, 5 periods of 30 s; then 25 s left with 3 periods.
        &[
            "kgs-time_settings byoyomi 600 30 5",
            "time_left black 590 0",
            "time_left white 600 0",
        ],
        &[
            "kgs-time_settings byoyomi 600 30 5",
            "time_left black 25 3",
            "time_left white 600 0",
        ],
        // Canadian: 10 min, then 25 stones in 5 min.
        &[
            "kgs-time_settings canadian 600 300 25",
            "time_left black 598 0",
            "time_left white 600 0",
        ],
        &[
            "kgs-time_settings canadian 600 300 25",
            "time_left black 290 24",
            "time_left white 600 0",
        ],
        // Fischer to an engine without kata-time_settings: 58 s of main time and a one-stone
        // period of 2 s, main time told less one increment.
        &[
            "kgs-time_settings canadian 58 2 1",
            "time_left black 55 0",
            "time_left white 57 0",
        ],
        &[
            "kgs-time_settings canadian 58 2 1",
            "time_left black 2 1",
            "time_left white 57 0",
        ],
        // "Simple": 5 s a move.
        &[
            "time_settings 0 5 1",
            "time_left black 5 1",
            "time_left white 5 1",
        ],
        // Absolute: 5 min in all.
        &[
            "time_settings 300 0 0",
            "time_left black 290 0",
            "time_left white 300 0",
        ],
        // Fischer, uncapped and with the per-move limit KataGo defines.
        &[
            "kata-time_settings fischer 30 1",
            "time_left black 28 0",
            "time_left white 30 0",
        ],
        &[
            "kata-time_settings fischer-capped 30 1 30 3",
            "time_left black 4 0",
            "time_left white 30 0",
        ],
    ];
    for clock in clocks {
        let mv = ogs_genmove(&mut s, clock, "black");
        opponent.took(&mv);
        assert_eq!(ogs(&mut s, &format!("play white {}", opponent.next())), "");
    }
}

#[test]
fn gtp2ogs_handicap_stones_are_placed_and_set() {
    let mut s = Session::start(&["--playouts", "40"]);
    ogs(&mut s, "list_commands");
    for setup in ["boardsize 9", "clear_board", "komi 0.5"] {
        ogs(&mut s, setup);
    }
    // The bot Black with free placement: its stones come from place_free_handicap, after
    // the clock.
    let clock = [
        "kata-time_settings fischer-capped 60 2 120 -1".to_string(),
        "time_left black 60 0".to_string(),
        "time_left white 60 0".to_string(),
        "place_free_handicap 2".to_string(),
    ];
    let answers = pipelined(&mut s, &clock);
    let stones = &answers[3].1;
    assert!(
        answers[3].0 && stones.split_whitespace().count() == 2,
        "{stones}"
    );
    assert!(stones.split_whitespace().all(|v| is_move(v, 9)), "{stones}");
    // The bot White: a new game, the opponent's stones by set_free_handicap.
    for setup in ["boardsize 9", "clear_board", "komi 0.5"] {
        ogs(&mut s, setup);
    }
    assert_eq!(ogs(&mut s, "set_free_handicap c3 g7"), "");
    let clock = [
        "kata-time_settings fischer-capped 60 2 120 -1",
        "time_left black 58 0",
        "time_left white 60 0",
    ];
    let mv = ogs_genmove(&mut s, &clock, "white");
    assert!(!["C3", "G7"].contains(&mv.as_str()), "{mv}");
}

#[test]
fn a_fischer_move_comes_within_the_clock() {
    // Without a cap on simulations the clock alone decides how long a move takes: with
    // 6 s left and 1 s a move, about a second (1.5 s in a debug build, which looks at the
    // clock less often than it plays).
    let mut s = Session::start(&[]);
    for setup in ["boardsize 9", "clear_board", "komi 6.5"] {
        ogs(&mut s, setup);
    }
    let clock = [
        "kata-time_settings fischer-capped 60 1 60 -1",
        "time_left black 6 0",
        "time_left white 60 0",
    ];
    let start = Instant::now();
    ogs_genmove(&mut s, &clock, "black");
    let took = start.elapsed().as_secs_f64();
    assert!(took < 6.0, "{took} s of 6");
}

/// kgsGtp's commands: GTP colours and vertices as the documentation writes them.
fn kgs(s: &mut Session, command: &str) -> String {
    s.ok(command)
}

#[test]
fn kgsgtp_plays_a_game_talks_and_ends_it() {
    let mut s = Session::start(&["--playouts", "40"]);
    let commands = kgs(&mut s, "list_commands");
    let listed: Vec<&str> = commands.lines().map(str::trim).collect();
    for extension in [
        "kgs-rules",
        "kgs-time_settings",
        "kgs-genmove_cleanup",
        "kgs-game_over",
        "kgs-chat",
        "final_status_list",
        "undo",
        "place_free_handicap",
        "set_free_handicap",
    ] {
        assert!(listed.contains(&extension), "{extension} not listed");
    }
    assert_eq!(kgs(&mut s, "name"), "shicho");
    kgs(&mut s, "version");
    // Challenges: the sizes and time systems are checked one by one.
    for challenge in [
        "boardsize 19",
        "kgs-time_settings byoyomi 1200 30 5",
        "boardsize 13",
        "kgs-time_settings canadian 900 300 25",
        "boardsize 9",
        "kgs-time_settings absolute 600",
    ] {
        assert_eq!(kgs(&mut s, challenge), "", "{challenge}");
    }
    // The game: 9x9, Japanese rules, 10 min and 5 x 30 s byo-yomi.
    for setup in [
        "boardsize 9",
        "clear_board",
        "komi 6.5",
        "kgs-rules japanese",
        "kgs-time_settings byoyomi 600 30 5",
    ] {
        assert_eq!(kgs(&mut s, setup), "", "{setup}");
    }
    assert!(kgs(&mut s, "shicho-rules").starts_with("japanese"));
    let mut opponent = Opponent::new(&["C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4"]);
    let genmove = |s: &mut Session, opponent: &mut Opponent, left: &str| {
        assert_eq!(kgs(s, &format!("time_left b {left}")), "");
        let mv = kgs(s, "genmove b");
        assert!(is_move(&mv, 9), "{mv}");
        opponent.took(&mv);
        mv
    };
    genmove(&mut s, &mut opponent, "598 0");
    assert_eq!(kgs(&mut s, &format!("play w {}", opponent.next())), "");
    // The opponent writes in the game: the answer goes back to them.
    assert_eq!(
        kgs(&mut s, "kgs-chat game alice hello, good luck"),
        CHAT_ANSWER
    );
    genmove(&mut s, &mut opponent, "590 0");
    // The opponent takes a move back and plays another.
    assert_eq!(kgs(&mut s, &format!("play w {}", opponent.next())), "");
    assert_eq!(kgs(&mut s, "undo"), "");
    assert_eq!(kgs(&mut s, &format!("play w {}", opponent.next())), "");
    // In byo-yomi, 3 periods left.
    genmove(&mut s, &mut opponent, "28 3");
    assert_eq!(kgs(&mut s, &format!("play w {}", opponent.next())), "");
    // Scoring: the dead stones, then a dispute played out.
    let dead = kgs(&mut s, "final_status_list dead");
    assert!(dead.split_whitespace().all(|v| is_move(v, 9)), "{dead}");
    let cleanup = kgs(&mut s, "kgs-genmove_cleanup b");
    assert!(is_move(&cleanup, 9), "{cleanup}");
    assert_eq!(kgs(&mut s, "kgs-game_over"), "");
    // A private message after the game, then the next game under each other KGS rule set.
    assert_eq!(
        kgs(&mut s, "kgs-chat private bob are you there?"),
        CHAT_ANSWER
    );
    for (rules, preset) in [
        ("chinese", "chinese"),
        ("aga", "aga"),
        ("new_zealand", "new-zealand"),
    ] {
        for setup in [
            "boardsize 9",
            "clear_board",
            "komi 7.5",
            &format!("kgs-rules {rules}"),
            "kgs-time_settings canadian 300 30 10",
        ] {
            assert_eq!(kgs(&mut s, setup), "", "{setup}");
        }
        assert!(kgs(&mut s, "shicho-rules").starts_with(preset), "{rules}");
        let mut opponent = Opponent::new(&["C3", "G7"]);
        genmove(&mut s, &mut opponent, "300 0");
        assert_eq!(kgs(&mut s, "kgs-game_over"), "");
    }
    assert_eq!(kgs(&mut s, "quit"), "");
}
