//! `judge.csv` and what the summary says about it.
//!
//! # The judge's file (`judge.csv`)
//!
//! One header row, then one row per move of every judged game, a game's rows together:
//!
//! | column | meaning |
//! |---|---|
//! | `game` | the game's number |
//! | `move` | the move's number in the record, 1-based, opening moves included |
//! | `color` | `B` or `W` |
//! | `player` | the mover's `name version`, as in `results.csv` |
//! | `vertex` | the move (`pass` for a pass) |
//! | `kind` | `opening` (set by the referee), `engine`, or `play-out` (settling dead stones) |
//! | `black_before`, `black_after` | Black's win rate by the judge before and after the move |
//! | `loss` | the mover's win rate before the move minus after it (negative when the judge found the move better than its own choice) |
//! | `visits` | the judge's visits on the position after the move |
//!
//! # The summary
//!
//! Per engine, over its own moves (`engine`), the mean loss (negative losses count as 0:
//! a move cannot beat the best one, so a negative value is the judge's noise) and the share
//! of blunders (a loss over 0.1), over the whole game and by phase: the opening (the first
//! eighth of the board's points in moves, 10 on 9x9, 45 on 19x19), the middle game (up to
//! half the points) and the end. Then how well the loss predicts the results: in how many
//! decided games the side with the lower mean loss won.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Write;
use std::path::Path;

use shicho::Color;

use crate::record::{csv_line, split_csv_line};
use crate::results::ResultRow;

/// The judge file's name inside the output directory.
pub const JUDGE_FILE: &str = "judge.csv";
/// The judge's summary file.
pub const JUDGE_SUMMARY_FILE: &str = "judge.txt";
/// The header row of `judge.csv`.
pub const JUDGE_HEADER: &str =
    "game,move,color,player,vertex,kind,black_before,black_after,loss,visits";
/// A loss above this is a blunder.
pub const BLUNDER: f64 = 0.1;

/// One judged move.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeRow {
    pub game: usize,
    pub number: usize,
    pub color: Color,
    pub player: String,
    pub vertex: String,
    pub kind: String,
    pub black_before: f64,
    pub black_after: f64,
    pub loss: f64,
    pub visits: u64,
}

impl JudgeRow {
    /// The CSV line (no line end).
    pub fn line(&self) -> String {
        csv_line(&[
            self.game.to_string(),
            self.number.to_string(),
            self.color.letter().to_string(),
            self.player.clone(),
            self.vertex.clone(),
            self.kind.clone(),
            format!("{:.4}", self.black_before),
            format!("{:.4}", self.black_after),
            format!("{:.4}", self.loss),
            self.visits.to_string(),
        ])
    }

    fn parse(line: &str) -> Result<JudgeRow, String> {
        let f = split_csv_line(line);
        if f.len() != 10 {
            return Err(format!("{} fields, not 10", f.len()));
        }
        let int = |i: usize| -> Result<u64, String> {
            f[i].parse()
                .map_err(|_| format!("'{}' is not a whole number", f[i]))
        };
        let real = |i: usize| -> Result<f64, String> {
            f[i].parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("'{}' is not a number", f[i]))
        };
        let color = match f[2].as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            other => return Err(format!("colour '{other}'")),
        };
        Ok(JudgeRow {
            game: int(0)? as usize,
            number: int(1)? as usize,
            color,
            player: f[3].clone(),
            vertex: f[4].clone(),
            kind: f[5].clone(),
            black_before: real(6)?,
            black_after: real(7)?,
            loss: real(8)?,
            visits: int(9)?,
        })
    }
}

/// The rows of `judge.csv` in `dir` (none if there is no file).
///
/// # Errors
/// The file cannot be read, has another header, or a row does not parse.
pub fn read_judge(dir: &Path) -> Result<Vec<JudgeRow>, String> {
    let path = dir.join(JUDGE_FILE);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(h) if h == JUDGE_HEADER => {}
        Some(_) => return Err(format!("{} has other columns", path.display())),
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| {
            JudgeRow::parse(l).map_err(|e| format!("{} line {}: {e}", path.display(), i + 2))
        })
        .collect()
}

/// Appends `rows` to `judge.csv` in `dir`, writing the header into a new file.
///
/// # Errors
/// The file cannot be written.
pub fn append_judge(dir: &Path, rows: &[JudgeRow]) -> Result<(), String> {
    let path = dir.join(JUDGE_FILE);
    let fresh = !path.exists();
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut text = String::new();
    if fresh {
        text.push_str(JUDGE_HEADER);
        text.push('\n');
    }
    for r in rows {
        text.push_str(&r.line());
        text.push('\n');
    }
    file.write_all(text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The phases of a game on a board of `points` points: where each ends (inclusive), in
/// moves.
fn phase_ends(points: usize) -> [usize; 2] {
    [points / 8, points / 2]
}

const PHASES: [&str; 3] = ["opening", "middle", "end"];

/// Losses of one engine in one phase (or the whole game).
#[derive(Clone, Copy, Debug, Default)]
struct Losses {
    moves: usize,
    sum: f64,
    blunders: usize,
}

impl Losses {
    fn add(&mut self, loss: f64) {
        self.moves += 1;
        self.sum += loss.max(0.0);
        if loss > BLUNDER {
            self.blunders += 1;
        }
    }

    fn mean(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.sum / self.moves as f64)
    }

    fn text(&self) -> String {
        match self.mean() {
            None => "-".to_string(),
            Some(m) => format!(
                "{m:.3} ({:.1}% blunders, {} moves)",
                100.0 * self.blunders as f64 / self.moves as f64,
                self.moves
            ),
        }
    }
}

/// The summary's lines about the judge: `rows` of the judged games, `results` for the
/// board size and the winners, `names` of engines A and B.
pub fn judge_summary(rows: &[JudgeRow], results: &[ResultRow], names: &[String; 2]) -> Vec<String> {
    let by_number: BTreeMap<usize, &ResultRow> = results.iter().map(|r| (r.number, r)).collect();
    let games: BTreeSet<usize> = rows.iter().map(|r| r.game).collect();
    let size = results.first().map_or(19, |r| r.size);
    let [open_end, middle_end] = phase_ends(size * size);
    // [engine][0 = all, 1.. = phases]
    let mut losses = [[Losses::default(); 4]; 2];
    // Per game and colour: the loss sum and moves, for the prediction.
    let mut per_game: BTreeMap<usize, [Losses; 2]> = BTreeMap::new();
    let engine_of = |player: &str| names.iter().position(|n| n == player);
    for r in rows.iter().filter(|r| r.kind == "engine") {
        let Some(e) = engine_of(&r.player) else {
            continue;
        };
        let phase = if r.number <= open_end {
            1
        } else if r.number <= middle_end {
            2
        } else {
            3
        };
        losses[e][0].add(r.loss);
        losses[e][phase].add(r.loss);
        per_game.entry(r.game).or_default()[r.color.index()].add(r.loss);
    }
    let mut out = vec![format!(
        "judge: {} games judged; loss = the mover's win rate before the move minus after it \
         (below 0 counted as 0), blunder = a loss over {BLUNDER}; phases: opening moves \
         1-{open_end}, middle {}-{middle_end}, end {}-",
        games.len(),
        open_end + 1,
        middle_end + 1
    )];
    for (e, name) in names.iter().enumerate() {
        let l = &losses[e];
        out.push(format!(
            "judge {} = {name}: all {}; {} {}; {} {}; {} {}",
            ["A", "B"][e],
            l[0].text(),
            PHASES[0],
            l[1].text(),
            PHASES[1],
            l[2].text(),
            PHASES[2],
            l[3].text()
        ));
    }
    // The prediction: the colour with the lower mean loss should have won.
    let (mut right, mut decided) = (0, 0);
    for (game, colours) in &per_game {
        let (Some(b), Some(w)) = (colours[0].mean(), colours[1].mean()) else {
            continue;
        };
        let Some(winner) = by_number.get(game).and_then(|r| r.winner()) else {
            continue;
        };
        if b == w {
            continue;
        }
        decided += 1;
        let predicted = if b < w { Color::Black } else { Color::White };
        if predicted == winner {
            right += 1;
        }
    }
    if decided > 0 {
        out.push(format!(
            "judge prediction: the side with the lower mean loss won {right} of {decided} \
             decided games ({:.0}%)",
            100.0 * right as f64 / decided as f64
        ));
    }
    if let (Some(a), Some(b)) = (losses[0][0].mean(), losses[1][0].mean()) {
        let (mut score, mut n) = (0.0, 0);
        for g in &games {
            if let Some(r) = by_number.get(g) {
                n += 1;
                score += match r.winner() {
                    None => 0.5,
                    Some(c) => {
                        let player = if c == Color::Black {
                            &r.black
                        } else {
                            &r.white
                        };
                        if player == &names[0] { 1.0 } else { 0.0 }
                    }
                };
            }
        }
        if n > 0 {
            out.push(format!(
                "judge overall: A lost {a:.3} a move, B {b:.3}: the judge favours {}; A scored \
                 {:.1}% in these {n} games",
                if a < b {
                    "A"
                } else if b < a {
                    "B"
                } else {
                    "neither"
                },
                100.0 * score / n as f64
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: usize, number: usize, color: Color, player: &str, loss: f64) -> JudgeRow {
        JudgeRow {
            game,
            number,
            color,
            player: player.to_string(),
            vertex: "E5".to_string(),
            kind: "engine".to_string(),
            black_before: 0.5,
            black_after: 0.5,
            loss,
            visits: 10,
        }
    }

    #[test]
    fn rows_round_trip() {
        let r = row(3, 12, Color::White, "a, b", -0.0123);
        assert_eq!(JudgeRow::parse(&r.line()).unwrap().loss, -0.0123);
        assert!(JudgeRow::parse("1,2,X,p,E5,engine,0.5,0.5,0,1").is_err());
        assert!(JudgeRow::parse("1,2").is_err());
    }

    #[test]
    fn losses_by_phase_and_the_prediction() {
        let names = ["a".to_string(), "b".to_string()];
        let result = |number: usize, result: &str| ResultRow {
            line: String::new(),
            number,
            size: 9,
            rules: "chinese".into(),
            komi: "7.5".into(),
            black: "a".into(),
            white: "b".into(),
            result: result.into(),
            reason: crate::game::EndReason::Resign,
            moves: 50,
            cpu: shicho::ByColor::new(None, None),
            think: shicho::ByColor::new(0.0, 0.0),
            sgf: String::new(),
        };
        let rows = vec![
            row(1, 1, Color::Black, "a", 0.0),
            row(1, 2, Color::White, "b", 0.3),
            row(1, 45, Color::Black, "a", -0.1),
            row(2, 11, Color::Black, "a", 0.2),
            row(2, 12, Color::White, "b", 0.0),
        ];
        let text = judge_summary(&rows, &[result(1, "B+R"), result(2, "B+3.5")], &names).join("\n");
        // A: losses 0, 0 (from -0.1), 0.2 -> mean 0.0667; one blunder of three.
        assert!(
            text.contains("judge A = a: all 0.067 (33.3% blunders, 3 moves)"),
            "{text}"
        );
        assert!(
            text.contains("opening 0.000 (0.0% blunders, 1 moves)"),
            "{text}"
        );
        assert!(
            text.contains("phases: opening moves 1-10, middle 11-40, end 41-"),
            "{text}"
        );
        // Game 1: Black lost less and won; game 2: White lost less but Black won.
        assert!(text.contains("won 1 of 2 decided games (50%)"), "{text}");
        assert!(text.contains("A lost 0.067 a move, B 0.150"), "{text}");
    }
}
