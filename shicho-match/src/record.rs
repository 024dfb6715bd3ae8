//! Writing games down: one SGF file per game and one CSV row per game.
//!
//! # The results file (`results.csv`)
//!
//! Comma-separated, one header row, one row per game appended as games finish (so rows of
//! parallel games can come out of order; `game` orders them). Fields containing a comma,
//! quote or line break are quoted with `"` (quotes doubled), as RFC 4180 says.
//!
//! | column | meaning |
//! |---|---|
//! | `game` | game number, 1-based, continuing an existing file |
//! | `start` | start time, UTC, ISO 8601 (`2025-11-22T09:15:02Z`) |
//! | `duration_s` | wall seconds from setup to result |
//! | `size` | board size |
//! | `rules` | rules preset (`chinese`, `daoqi`, ...) |
//! | `komi` | komi |
//! | `handicap` | handicap stones |
//! | `black`, `white` | players' `name version` |
//! | `result` | SGF form: `B+3.5`, `W+R` (resignation), `B+T` (time), `W+F` (forfeit), `0` (draw) |
//! | `reason` | `score`, `resign`, `time`, `illegal`, `crash`, `error`, `maxmoves` |
//! | `moves` | moves played, passes, opening and play-out included |
//! | `cpu_black_s`, `cpu_white_s` | CPU seconds by the engine's `cputime`, empty if unknown |
//! | `think_black_s`, `think_white_s` | wall seconds spent answering `genmove` |
//! | `detail` | a line for humans: the illegal move, the crash, how dead stones were decided |
//! | `sgf` | the game's SGF file name, relative to the results file |
//!
//! Othello matches (`--game othello`) write the same columns (`rules` is `othello`, komi
//! and handicap 0; the result is the disc difference, `B+12`) and two more at the end:
//! `black_discs`, `white_discs` (the discs on the board when the game ended, however it
//! ended). Their SGF files are `GM[2]` records.

use std::time::SystemTime;

use shicho::Color;
use shicho::game::GameKind;
use shicho::go::score::format_points;
use shicho::go::sgf::{SgfGame, write_game};
use shicho::othello::sgf::{OthelloRecord, write_othello};
use shicho::sgf::GameInfo;

use crate::config::MatchConfig;
use crate::game::{GameRecord, MoveKind, MoveRecord, Played};

/// The header row of `results.csv`.
pub const CSV_HEADER: &str = "game,start,duration_s,size,rules,komi,handicap,black,white,\
result,reason,moves,cpu_black_s,cpu_white_s,think_black_s,think_white_s,detail,sgf";

/// The columns Othello rows add.
pub const CSV_OTHELLO_COLUMNS: &str = "black_discs,white_discs";

/// The header row of `results.csv` for a match of `game`.
pub fn csv_header(game: GameKind) -> String {
    match game {
        GameKind::Go => CSV_HEADER.to_string(),
        GameKind::Othello => format!("{CSV_HEADER},{CSV_OTHELLO_COLUMNS}"),
    }
}

/// The SGF file name of game `number`.
pub fn sgf_file_name(number: usize) -> String {
    format!("game-{number:04}.sgf")
}

/// `t` in UTC, formatted by `strftime` directives.
fn utc(t: SystemTime, format: &str) -> String {
    match jiff::Timestamp::try_from(t) {
        Ok(ts) => ts.strftime(format).to_string(),
        // Only a time outside years -9999..=9999 gets here; no clock gives one.
        Err(_) => "?".to_string(),
    }
}

/// `2025-11-22T09:15:02Z`
pub fn iso_time(t: SystemTime) -> String {
    utc(t, "%Y-%m-%dT%H:%M:%SZ")
}

/// `2025-11-22`, SGF's `DT` form.
pub fn iso_date(t: SystemTime) -> String {
    utc(t, "%Y-%m-%d")
}

/// The game as an SGF record: players, rules, komi, date, result, the moves with the time
/// each engine took and its clock after the move as the move's comment, and a root comment with the engines' command
/// lines and how the game ended.
///
/// For an Othello game this is the empty Go record of its size: see [`othello_sgf`].
pub fn sgf_game(record: &GameRecord, cfg: &MatchConfig) -> SgfGame {
    // The board, rules, komi, handicap and moves come from the game itself, as printsgf
    // writes them; the referee adds what only it knows.
    let Played::Go(played) = &record.game else {
        return SgfGame::new(cfg.size);
    };
    let mut game = SgfGame::from_game(played);
    add_referee_info(&mut game.info, record, cfg);
    if !record.handicap.is_empty() {
        // White moves first after a handicap; said outright for readers that would guess.
        game.info.player_to_move = Some(Color::White);
    }
    for (m, played) in game.moves.iter_mut().zip(&record.moves) {
        m.comment = move_comment(played);
    }
    game
}

/// The SGF comment of a move: who chose it, the time it took, the mover's clock after it.
fn move_comment(played: &MoveRecord) -> Option<String> {
    let mut comment = match (played.kind, played.seconds) {
        (MoveKind::Opening, _) => "opening".to_string(),
        (MoveKind::Engine, Some(s)) => format!("{s:.2} s"),
        (MoveKind::Cleanup, Some(s)) => format!("play-out, {s:.2} s"),
        (MoveKind::Forced, _) => "no legal move: pass".to_string(),
        (_, None) => String::new(),
    };
    if let Some(clock) = played.clock {
        comment.push_str(&format!("; {clock}"));
    }
    Some(comment).filter(|c| !c.is_empty())
}

/// An Othello game as an SGF `GM[2]` record, with what the referee knows (players, result,
/// times); `None` for a Go game.
pub fn othello_sgf(record: &GameRecord, cfg: &MatchConfig) -> Option<OthelloRecord> {
    let Played::Othello(played) = &record.game else {
        return None;
    };
    let mut sgf = OthelloRecord::from_game(played);
    add_referee_info(&mut sgf.info, record, cfg);
    for (m, played) in sgf.moves.iter_mut().zip(&record.moves) {
        m.comment = move_comment(played);
    }
    Some(sgf)
}

/// What only the referee knows, added to a record's game information: the players, the
/// result, the date, the match and game number, the time control, and a root comment (see
/// [`root_comment`]) before the record's own.
fn add_referee_info(info: &mut GameInfo, record: &GameRecord, cfg: &MatchConfig) {
    info.black_name = Some(record.names.black.clone());
    info.white_name = Some(record.names.white.clone());
    info.result = Some(record.result.clone());
    info.date = Some(iso_date(record.start));
    info.event = Some("shicho-match".to_string());
    info.game_name = Some(format!("game {}", record.number));
    if let Some(tc) = cfg.time {
        info.time_limit = Some(f64::from(tc.main));
        info.overtime = tc.sgf_overtime();
    }
    let mut comment = root_comment(record, cfg);
    // The record's own comment says what the board is (a torus).
    comment.extend(info.comment.take());
    info.comment = Some(comment.join("\n"));
}

/// The root comment: the game, the engines' command lines, how it ended, the time.
fn root_comment(record: &GameRecord, cfg: &MatchConfig) -> Vec<String> {
    let mut comment = vec![
        format!("shicho-match game {}", record.number),
        format!(
            "Black: {}",
            shell_words::join(&cfg.engines[record.black_engine])
        ),
        format!(
            "White: {}",
            shell_words::join(&cfg.engines[1 - record.black_engine])
        ),
        format!(
            "Result: {} by {}: {}",
            record.result, record.reason, record.detail
        ),
    ];
    if let Some(t) = cfg.time {
        comment.push(format!("Time: {t} (grace {} s)", cfg.grace.as_secs_f64()));
    }
    if let Some(t) = cfg.move_time {
        comment.push(format!("Move time limit: {t} s"));
    }
    comment
}

/// The SGF text of the game (`GM[1]` or `GM[2]`).
pub fn sgf_text(record: &GameRecord, cfg: &MatchConfig) -> String {
    match othello_sgf(record, cfg) {
        Some(othello) => write_othello(&othello),
        None => write_game(&sgf_game(record, cfg)),
    }
}

/// The results-file row of the game (without line end).
pub fn csv_row(record: &GameRecord, cfg: &MatchConfig) -> String {
    let seconds = |s: Option<f64>| s.map_or(String::new(), |s| format!("{s:.3}"));
    let othello = cfg.game == GameKind::Othello;
    let mut fields = vec![
        record.number.to_string(),
        iso_time(record.start),
        format!("{:.3}", record.duration.as_secs_f64()),
        cfg.size.to_string(),
        if othello {
            "othello".to_string()
        } else {
            cfg.rules.to_string()
        },
        if othello {
            "0".to_string()
        } else {
            format_points(cfg.komi)
        },
        record.handicap.len().to_string(),
        record.names.black.clone(),
        record.names.white.clone(),
        record.result.clone(),
        record.reason.to_string(),
        record.moves.len().to_string(),
        seconds(record.cpu.black),
        seconds(record.cpu.white),
        seconds(Some(record.think.black)),
        seconds(Some(record.think.white)),
        record.detail.clone(),
        sgf_file_name(record.number),
    ];
    if othello {
        let discs = |f: fn(&shicho::othello::Score) -> u32| {
            record.discs().map_or(String::new(), |d| f(&d).to_string())
        };
        fields.push(discs(|d| d.black));
        fields.push(discs(|d| d.white));
    }
    csv_line(&fields)
}

/// Fields as one CSV line (without line end), quoted where RFC 4180 needs it.
pub(crate) fn csv_line(fields: &[String]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing into memory cannot fail, and the csv writer's buffer holds UTF-8 fields.
    writer
        .write_record(fields)
        .expect("writing into memory cannot fail");
    let bytes = writer
        .into_inner()
        .expect("writing into memory cannot fail");
    let text = String::from_utf8(bytes).expect("the fields are UTF-8");
    text.strip_suffix('\n').unwrap_or(&text).to_string()
}

/// Splits one CSV line into fields (the inverse of [`csv_row`]), for reading a results
/// file back.
pub fn split_csv_line(line: &str) -> Vec<String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    reader
        .records()
        .next()
        .and_then(Result::ok)
        .map(|r| r.iter().map(str::to_string).collect())
        .unwrap_or_else(|| vec![String::new()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn civil_time() {
        use std::time::UNIX_EPOCH;
        assert_eq!(iso_time(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(iso_date(t), "2000-02-29");
        let t = UNIX_EPOCH + Duration::from_secs(1_763_804_102);
        assert_eq!(iso_time(t), "2025-11-22T09:35:02Z");
    }

    #[test]
    fn csv_fields_round_trip() {
        let fields = ["plain", "a,b", "say \"hi\"", "", "x"];
        let line = csv_line(&fields.map(String::from));
        assert_eq!(line, r#"plain,"a,b","say ""hi""",,x"#);
        assert_eq!(split_csv_line(&line), fields);
        assert_eq!(split_csv_line(CSV_HEADER).len(), 18);
    }
}
