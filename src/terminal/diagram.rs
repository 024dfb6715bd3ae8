//! Boards as the terminal shows them: `X` black, `O` white, `.` empty, the last move in
//! parentheses as GNU Go's ASCII board marks it, column letters above and below, row
//! numbers on both sides.
//!
//! ```text
//!     A B C D E
//!  5  . . . . .  5
//!  4  . .(X). .  4
//!  3  . O . . .  3
//! ```

use crate::color::Color;

/// What a diagram shows, in screen order: `cells[row][col]`, the top row first.
pub struct Picture {
    pub cells: Vec<Vec<Option<Color>>>,
    /// Column labels, left to right.
    pub columns: Vec<char>,
    /// Row labels, top to bottom.
    pub rows: Vec<String>,
    /// The last move's cell on the screen (column, row), if it was a play.
    pub last: Option<(usize, usize)>,
}

impl Picture {
    pub fn render(&self) -> String {
        let mut letters = String::from("   ");
        for &c in &self.columns {
            letters.push(' ');
            letters.push(c);
        }
        let mut out = letters.clone();
        out.push('\n');
        for (j, row) in self.cells.iter().enumerate() {
            let label = self.rows.get(j).map_or("", String::as_str);
            out.push_str(&format!("{label:>2} "));
            let marked = self.last.and_then(|(x, y)| (y == j).then_some(x));
            for (i, cell) in row.iter().enumerate() {
                out.push(separator(marked, i));
                out.push(match cell {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            out.push(separator(marked, row.len()));
            out.push_str(&format!(" {label}\n"));
        }
        out.push_str(&letters);
        out
    }
}

/// The character before cell `i`: `(` before the marked cell, `)` after it.
fn separator(marked: Option<usize>, i: usize) -> char {
    match marked {
        Some(m) if m == i => '(',
        Some(m) if m + 1 == i => ')',
        _ => ' ',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_last_move_with_parentheses() {
        let b = Some(Color::Black);
        let w = Some(Color::White);
        let p = Picture {
            cells: vec![vec![None, b, w], vec![w, None, b]],
            columns: vec!['A', 'B', 'C'],
            rows: vec!["2".into(), "1".into()],
            last: Some((2, 1)),
        };
        assert_eq!(
            p.render(),
            "    A B C\n 2  . X O  2\n 1  O .(X) 1\n    A B C"
        );
    }
}
