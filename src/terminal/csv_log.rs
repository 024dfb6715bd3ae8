//! The log of finished games: one CSV row per game, appended; and the times it records.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::color::ByColor;

/// The log's columns.
pub const HEADER: &str =
    "start,duration_s,size,game,rules,black,white,result,black_discs,white_discs,moves";

/// One finished game.
pub struct LogRow<'a> {
    /// UTC, `2026-11-24T03:40:00Z`.
    pub start: &'a str,
    pub duration_s: f64,
    /// Width and height: `8x8`.
    pub size: usize,
    pub game: &'a str,
    pub rules: &'a str,
    pub black: &'a str,
    pub white: &'a str,
    /// `B+3.5`, `W+R`, `0`...
    pub result: &'a str,
    /// Othello's disc counts at the end.
    pub discs: Option<ByColor<u32>>,
    pub moves: usize,
}

impl LogRow<'_> {
    /// The row as CSV (no line end); fields with commas, quotes or line breaks are quoted.
    pub fn to_csv(&self) -> String {
        let (black_discs, white_discs) = self.discs.map_or((String::new(), String::new()), |d| {
            (d.black.to_string(), d.white.to_string())
        });
        let fields = [
            self.start.to_string(),
            format!("{:.1}", self.duration_s),
            format!("{0}x{0}", self.size),
            self.game.to_string(),
            self.rules.to_string(),
            self.black.to_string(),
            self.white.to_string(),
            self.result.to_string(),
            black_discs,
            white_discs,
            self.moves.to_string(),
        ];
        fields
            .iter()
            .map(|f| field(f))
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Appends `row` to the CSV file at `path`, writing the header first when the file is new
/// or empty.
///
/// # Errors
/// The file cannot be opened or written.
pub fn append(path: &Path, row: &LogRow) -> io::Result<()> {
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    let empty = file.metadata()?.len() == 0;
    let mut text = String::new();
    if empty {
        text.push_str(HEADER);
        text.push('\n');
    }
    text.push_str(&row.to_csv());
    text.push('\n');
    file.write_all(text.as_bytes())
}

/// `t` as an ISO 8601 UTC time to the second (`2026-11-24T03:40:00Z`).
pub fn utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The calendar date of a day count since 1970-01-01 (proleptic Gregorian; Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn utc_times() {
        assert_eq!(utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661);
        assert_eq!(utc(t), "2000-02-29T01:01:01Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_484_400);
        assert_eq!(utc(t), "2026-11-24T01:40:00Z");
    }

    #[test]
    fn rows_quote_what_needs_it() {
        let row = LogRow {
            start: "2026-11-24T01:40:00Z",
            duration_s: 12.34,
            size: 8,
            game: "othello",
            rules: "othello",
            black: "ann",
            white: "shicho searcher, depth 2",
            result: "B+10",
            discs: Some(ByColor::new(37, 27)),
            moves: 60,
        };
        assert_eq!(
            row.to_csv(),
            "2026-11-24T01:40:00Z,12.3,8x8,othello,othello,ann,\"shicho searcher, depth 2\",B+10,37,27,60"
        );
    }
}
