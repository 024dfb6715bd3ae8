//! Reading a results file back: for the test over a whole directory, for `merge` and for
//! the judge's pass. The columns are those `record` writes (its module comment lists them).

use std::fs;
use std::path::Path;

use shicho::{ByColor, Color};

use crate::game::{EndReason, Outcome};
use crate::record::split_csv_line;

/// The results file's name inside the output directory.
pub const RESULTS_FILE: &str = "results.csv";
/// The summary file's name inside the output directory.
pub const SUMMARY_FILE: &str = "summary.txt";

/// One row of a results file, with its text as written.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    /// The line as in the file, without its line end (merge copies it unchanged).
    pub line: String,
    pub number: usize,
    pub size: usize,
    pub rules: String,
    pub komi: String,
    pub black: String,
    pub white: String,
    pub result: String,
    pub reason: EndReason,
    pub moves: usize,
    pub cpu: ByColor<Option<f64>>,
    pub think: ByColor<f64>,
    /// The SGF file, relative to the results file.
    pub sgf: String,
}

impl ResultRow {
    /// The winning colour by the `result` column, `None` for a draw (`0`) or anything else.
    pub fn winner(&self) -> Option<Color> {
        match self.result.as_bytes() {
            [b'B', b'+', ..] => Some(Color::Black),
            [b'W', b'+', ..] => Some(Color::White),
            _ => None,
        }
    }

    /// The row as the statistics see it, given which engine played Black.
    pub fn outcome(&self, black_engine: usize) -> Outcome {
        Outcome {
            number: self.number,
            black_engine,
            winner: self.winner(),
            reason: self.reason,
            moves: self.moves,
            think: self.think,
            engine_moves: None,
            cpu: self.cpu,
        }
    }
}

/// Which engine (0 or 1) played Black in game `number`: with alternating colours engine 0
/// has Black in the odd games, else always.
pub fn black_engine(number: usize, alternate: bool) -> usize {
    if alternate { (number - 1) % 2 } else { 0 }
}

/// The names of engines A and B in `rows`, given whether colours alternated (`None`:
/// unknown, then taken to alternate when Black's name changes between rows); `None` with
/// no rows.
pub fn engine_names(rows: &[ResultRow], alternate: Option<bool>) -> Option<[String; 2]> {
    let first = rows.iter().min_by_key(|r| r.number)?;
    let alternate = alternate.unwrap_or_else(|| alternated(rows));
    Some(if black_engine(first.number, alternate) == 0 {
        [first.black.clone(), first.white.clone()]
    } else {
        [first.white.clone(), first.black.clone()]
    })
}

/// Whether colours alternated in `rows`, for a directory that does not record it: Black's
/// name changes between games.
pub fn alternated(rows: &[ResultRow]) -> bool {
    rows.first()
        .is_some_and(|first| rows.iter().any(|r| r.black != first.black))
}

/// The rows of the results file at `path` (none if it does not exist), checked against
/// `header`, in file order.
///
/// # Errors
/// The file cannot be read, has another header, or a row does not parse; the message names
/// the file and the line.
pub fn read_results(path: &Path, header: &str) -> Result<Vec<ResultRow>, String> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(first) if first == header => {}
        Some(_) => {
            return Err(format!(
                "{} has other columns than this version writes",
                path.display()
            ));
        }
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.is_empty() {
            continue;
        }
        let row = parse_row(line).map_err(|e| format!("{} line {}: {e}", path.display(), i + 2))?;
        rows.push(row);
    }
    Ok(rows)
}

/// One row: the columns the statistics and the judge need, checked.
fn parse_row(line: &str) -> Result<ResultRow, String> {
    let f = split_csv_line(line);
    if f.len() < 18 {
        return Err(format!("{} fields, not 18 or more", f.len()));
    }
    let number: usize = f[0]
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("game '{}' is not a game number", f[0]))?;
    let size = f[3]
        .parse()
        .map_err(|_| format!("size '{}' is not a number", f[3]))?;
    let reason = EndReason::from_name(&f[10]).ok_or_else(|| format!("reason '{}'", f[10]))?;
    let moves = f[11]
        .parse()
        .map_err(|_| format!("moves '{}' is not a number", f[11]))?;
    let seconds = |text: &str| -> Result<Option<f64>, String> {
        if text.is_empty() {
            return Ok(None);
        }
        text.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Some)
            .ok_or_else(|| format!("'{text}' is not a number of seconds"))
    };
    Ok(ResultRow {
        line: line.to_string(),
        number,
        size,
        rules: f[4].clone(),
        komi: f[5].clone(),
        black: f[7].clone(),
        white: f[8].clone(),
        result: f[9].clone(),
        reason,
        moves,
        cpu: ByColor::new(seconds(&f[12])?, seconds(&f[13])?),
        think: ByColor::new(
            seconds(&f[14])?.unwrap_or(0.0),
            seconds(&f[15])?.unwrap_or(0.0),
        ),
        sgf: f[17].clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::CSV_HEADER;

    #[test]
    fn rows_read_back_and_bad_ones_are_named() {
        let dir = std::env::temp_dir().join(format!("shicho-results-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.csv");
        let row = "3,2025-01-01T00:00:00Z,1.5,9,chinese,7.5,0,a 1,b,W+R,resign,12,0.5,,1.0,2.0,\
                   \"x, y\",game-0003.sgf";
        fs::write(&path, format!("{CSV_HEADER}\n{row}\n")).unwrap();
        let rows = read_results(&path, CSV_HEADER).unwrap();
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!((r.number, r.size, r.moves), (3, 9, 12));
        assert_eq!(r.winner(), Some(Color::White));
        assert_eq!(r.reason, EndReason::Resign);
        assert_eq!((r.cpu.black, r.cpu.white), (Some(0.5), None));
        assert_eq!(r.line, row);
        assert_eq!(r.outcome(1).score_of_a(), 1.0);
        fs::write(
            &path,
            format!("{CSV_HEADER}\n{}\n", row.replace("resign", "bored")),
        )
        .unwrap();
        let err = read_results(&path, CSV_HEADER).unwrap_err();
        assert!(err.contains("line 2") && err.contains("bored"), "{err}");
        fs::write(&path, "other,header\n").unwrap();
        assert!(read_results(&path, CSV_HEADER).is_err());
        assert_eq!(read_results(&dir.join("none.csv"), CSV_HEADER), Ok(vec![]));
        let _ = fs::remove_dir_all(&dir);
    }
}
