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

use std::time::{SystemTime, UNIX_EPOCH};

use crate::color::Color;
use crate::geometry::Topology;
use crate::score::format_points;
use crate::sgf::{SetupStone, SgfGame, SgfMove, write_game};

use super::cmdline::join_command_line;
use super::config::MatchConfig;
use super::play::{GameRecord, MoveKind};

/// The header row of `results.csv`.
pub const CSV_HEADER: &str = "game,start,duration_s,size,rules,komi,handicap,black,white,\
result,reason,moves,cpu_black_s,cpu_white_s,think_black_s,think_white_s,detail,sgf";

/// The SGF file name of game `number`.
pub fn sgf_file_name(number: usize) -> String {
    format!("game-{number:04}.sgf")
}

/// Civil date and time (UTC) of `t`: year, month, day, hour, minute, second.
pub fn utc(t: SystemTime) -> (i64, u32, u32, u32, u32, u32) {
    let secs = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    };
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    let rem = rem as u32;
    (year, month, day, rem / 3600, rem / 60 % 60, rem % 60)
}

/// `2025-11-22T09:15:02Z`
pub fn iso_time(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = utc(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `2025-11-22`, SGF's `DT` form.
pub fn iso_date(t: SystemTime) -> String {
    let (y, mo, d, ..) = utc(t);
    format!("{y:04}-{mo:02}-{d:02}")
}

/// The game as an SGF record: players, rules, komi, date, result, the moves with the time
/// each engine took as the move's comment, and a root comment with the engines' command
/// lines and how the game ended.
pub fn sgf_game(record: &GameRecord, cfg: &MatchConfig) -> SgfGame {
    let geo = cfg.start_game().geometry();
    let mut game = SgfGame::new(cfg.size);
    game.komi = Some(cfg.komi);
    game.rules = Some(cfg.rules.to_string());
    game.black_name = Some(record.names.black.clone());
    game.white_name = Some(record.names.white.clone());
    game.result = Some(record.result.clone());
    game.date = Some(iso_date(record.start));
    game.event = Some("shicho-match".to_string());
    game.game_name = Some(format!("game {}", record.number));
    if !record.handicap.is_empty() {
        game.handicap = Some(record.handicap.len() as u32);
        game.player_to_move = Some(Color::White);
    }
    game.setup = record
        .handicap
        .iter()
        .map(|&p| SetupStone {
            point: geo.xy(p),
            color: Some(Color::Black),
        })
        .collect();
    if let Some(tc) = cfg.time {
        game.time_limit = Some(f64::from(tc.main));
        game.overtime = tc.sgf_overtime();
    }
    game.moves = record
        .moves
        .iter()
        .map(|m| SgfMove {
            setup: Vec::new(),
            color: m.color,
            point: m.mv.point().map(|p| geo.xy(p)),
            comment: Some(match (m.kind, m.seconds) {
                (MoveKind::Opening, _) => "opening".to_string(),
                (MoveKind::Engine, Some(s)) => format!("{s:.2} s"),
                (MoveKind::Cleanup, Some(s)) => format!("play-out, {s:.2} s"),
                (_, None) => String::new(),
            })
            .filter(|c| !c.is_empty()),
        })
        .collect();
    let mut comment = vec![
        format!("shicho-match game {}", record.number),
        format!(
            "Black: {}",
            join_command_line(&cfg.engines[record.black_engine])
        ),
        format!(
            "White: {}",
            join_command_line(&cfg.engines[1 - record.black_engine])
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
    if cfg.rules.topology == Topology::Torus {
        comment.push(
            "Topology: torus (Dao-qi): the board wraps around, left edge to right, top to \
             bottom; no point is on an edge."
                .to_string(),
        );
    }
    game.comment = Some(comment.join("\n"));
    game
}

/// The SGF text of the game.
pub fn sgf_text(record: &GameRecord, cfg: &MatchConfig) -> String {
    write_game(&sgf_game(record, cfg))
}

/// One CSV field, quoted when needed.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The results-file row of the game (without line end).
pub fn csv_row(record: &GameRecord, cfg: &MatchConfig) -> String {
    let seconds = |s: Option<f64>| s.map_or(String::new(), |s| format!("{s:.3}"));
    let fields = [
        record.number.to_string(),
        iso_time(record.start),
        format!("{:.3}", record.duration.as_secs_f64()),
        cfg.size.to_string(),
        cfg.rules.to_string(),
        format_points(cfg.komi),
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
    fields
        .iter()
        .map(|f| csv_field(f))
        .collect::<Vec<_>>()
        .join(",")
}

/// Splits one CSV line into fields (the inverse of [`csv_field`] joined by commas), for
/// reading a results file back.
pub fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn civil_time() {
        assert_eq!(iso_time(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(iso_date(t), "2000-02-29");
        let t = UNIX_EPOCH + Duration::from_secs(1_763_804_102);
        assert_eq!(iso_time(t), "2025-11-22T09:35:02Z");
    }

    #[test]
    fn csv_fields_round_trip() {
        let fields = ["plain", "a,b", "say \"hi\"", "", "x"];
        let line = fields
            .iter()
            .map(|f| csv_field(f))
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(line, r#"plain,"a,b","say ""hi""",,x"#);
        assert_eq!(split_csv_line(&line), fields);
        assert_eq!(split_csv_line(CSV_HEADER).len(), 18);
    }
}
