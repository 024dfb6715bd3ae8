//! Boards as text: the diagrams tests and `showboard` use (`X` black, `O` white, `.` empty).

use crate::color::Color;
use crate::go::board::Board;
use crate::go::geometry::Geometry;
use crate::go::point::Point;

impl Board {
    /// A square plane board from a diagram whose size is its number of rows, for unit tests.
    #[cfg(test)]
    pub(crate) fn square_from_diagram(text: &str) -> Board {
        let n = text.lines().filter(|l| !l.trim().is_empty()).count();
        let geo =
            Geometry::get(n, crate::go::geometry::Topology::Plane).expect("a valid test size");
        Board::from_diagram(geo, text).expect("a valid test diagram")
    }

    /// The point a unit test names (`D4`) on this board's geometry; a typo panics.
    #[cfg(test)]
    pub(crate) fn point(&self, vertex: &str) -> Point {
        self.geometry()
            .parse_point(vertex)
            .expect("a vertex on the board")
    }

    /// A board from a diagram: one line per row, top row first, `X`/`x`/`B` black,
    /// `O`/`o`/`W` white, `.`/`+`/`,` empty; spaces are ignored, as are lines without any
    /// of those characters (so coordinate labels may be left in, except on the rows).
    ///
    /// # Errors
    /// A description of what does not fit: wrong row count or width, a chain without liberties.
    pub fn from_diagram(geo: &'static Geometry, text: &str) -> Result<Board, String> {
        let n = geo.size();
        let rows: Vec<Vec<Option<Color>>> = text
            .lines()
            .map(|line| {
                line.chars()
                    .filter_map(|ch| match ch {
                        'X' | 'x' | 'B' => Some(Some(Color::Black)),
                        'O' | 'o' | 'W' => Some(Some(Color::White)),
                        '.' | '+' | ',' => Some(None),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        if rows.len() != n || rows.iter().any(|r| r.len() != n) {
            return Err(format!("diagram is not {n}x{n}"));
        }
        let mut stones = vec![None; n * n];
        for (i, row) in rows.iter().enumerate() {
            let y = n - 1 - i;
            for (x, &cell) in row.iter().enumerate() {
                stones[y * n + x] = cell;
            }
        }
        Board::from_stones(geo, &stones)
            .map_err(|p| format!("chain at {} has no liberties", geo.format_point(p)))
    }

    /// A diagram with column letters and row numbers: `X` black, `O` white, `.` empty.
    pub fn diagram(&self) -> String {
        self.diagram_shifted(0, 0)
    }

    /// The diagram with the torus view shifted: the point drawn at column `x`, row `y` is the
    /// board's `(x + dx, y + dy)` (mod size). Labels follow the points, not the screen.
    pub fn diagram_shifted(&self, dx: usize, dy: usize) -> String {
        let n = self.size();
        let col = |x: usize| (x + dx) % n;
        let row = |y: usize| (y + dy) % n;
        let mut out = String::from("   ");
        for x in 0..n {
            out.push(' ');
            out.push(Geometry::column_letter(col(x)));
        }
        out.push('\n');
        for y in (0..n).rev() {
            out.push_str(&format!("{:>2} ", row(y) + 1));
            for x in 0..n {
                out.push(' ');
                let p = Point::from_index(row(y) * n + col(x));
                out.push(match self.cells[p.index()] {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if self.ko.is_some_and(|k| k.point == p) => '!',
                    None => '.',
                });
            }
            out.push_str(&format!(" {:>2}\n", row(y) + 1));
        }
        out.push_str("   ");
        for x in 0..n {
            out.push(' ');
            out.push(Geometry::column_letter(col(x)));
        }
        out
    }
}
