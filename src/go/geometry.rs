//! Board geometry: size, topology, neighbour tables and the GTP coordinate text.
//!
//! There is no off-board padding ring: a torus has no edge, so neighbours always come from a
//! precomputed table. Each (size, topology) pair is built once and shared as `&'static`.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::go::point::{Move, Point};

/// Smallest board the engine plays on.
pub const MIN_SIZE: usize = 2;
/// Largest board GTP can address (columns A..Z without I).
pub const MAX_SIZE: usize = 25;

/// GTP column letters: `I` is skipped.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Column and row offsets of the eight points around a point, in the order `Geometry::ring`
/// gives them: the row above (left to right), the two sides, the row below.
pub const RING_OFFSETS: [(i64, i64); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Whether the board has edges or wraps around on both axes (Dao-qi).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Topology {
    Plane,
    Torus,
}

impl Topology {
    pub fn name(self) -> &'static str {
        match self {
            Topology::Plane => "plane",
            Topology::Torus => "torus",
        }
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Topology {
    type Err = ();
    fn from_str(s: &str) -> Result<Topology, ()> {
        match s.to_ascii_lowercase().as_str() {
            "plane" => Ok(Topology::Plane),
            "torus" => Ok(Topology::Torus),
            _ => Err(()),
        }
    }
}

/// The board size is outside `MIN_SIZE..=MAX_SIZE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError(pub i64);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {} is outside {}..={}",
            self.0, MIN_SIZE, MAX_SIZE
        )
    }
}

impl std::error::Error for SizeError {}

/// Why a vertex text could not be turned into a move on this board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not of the form letter+number or `pass`.
    Syntax,
    /// Well formed, but off this board.
    OffBoard,
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexError::Syntax => f.write_str("invalid vertex"),
            VertexError::OffBoard => f.write_str("vertex off the board"),
        }
    }
}

impl std::error::Error for VertexError {}

/// A point's distinct orthogonal (or diagonal) neighbours: at most four, fewer at an edge
/// or where a tiny torus makes two directions meet at the same point.
#[derive(Clone, Copy, Debug)]
struct Adjacent {
    points: [Point; 4],
    len: u8,
}

impl Adjacent {
    fn build(candidates: impl IntoIterator<Item = Point>) -> Adjacent {
        let mut adj = Adjacent {
            points: [Point::from_index(0); 4],
            len: 0,
        };
        for p in candidates {
            if !adj.points[..adj.len as usize].contains(&p) {
                adj.points[adj.len as usize] = p;
                adj.len += 1;
            }
        }
        adj
    }

    #[inline]
    fn as_slice(&self) -> &[Point] {
        &self.points[..self.len as usize]
    }
}

/// Size, topology and the neighbour tables of one kind of board.
#[derive(Debug)]
pub struct Geometry {
    size: usize,
    topology: Topology,
    neighbours: Vec<Adjacent>,
    diagonals: Vec<Adjacent>,
    /// The eight surrounding points in `RING_OFFSETS` order, `None` off the board.
    ring: Vec<[Option<Point>; 8]>,
    /// Number of u64 words in a bitset holding one bit per point.
    words: usize,
}

impl Geometry {
    /// The shared geometry for `size` and `topology`.
    ///
    /// # Errors
    /// `SizeError` when `size` is outside `MIN_SIZE..=MAX_SIZE`.
    pub fn get(size: usize, topology: Topology) -> Result<&'static Geometry, SizeError> {
        static TABLE: [[OnceLock<Geometry>; MAX_SIZE + 1]; 2] =
            [const { [const { OnceLock::new() }; MAX_SIZE + 1] }; 2];
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SizeError(size as i64));
        }
        let slot = &TABLE[topology as usize][size];
        Ok(slot.get_or_init(|| Geometry::build(size, topology)))
    }

    fn build(size: usize, topology: Topology) -> Geometry {
        let n = size as i64;
        let wrap = |x: i64, y: i64| -> Option<Point> {
            match topology {
                Topology::Plane => {
                    if (0..n).contains(&x) && (0..n).contains(&y) {
                        Some(Point::from_index((y * n + x) as usize))
                    } else {
                        None
                    }
                }
                Topology::Torus => {
                    let (x, y) = (x.rem_euclid(n), y.rem_euclid(n));
                    Some(Point::from_index((y * n + x) as usize))
                }
            }
        };
        let mut neighbours = Vec::with_capacity(size * size);
        let mut diagonals = Vec::with_capacity(size * size);
        let mut ring = Vec::with_capacity(size * size);
        for y in 0..n {
            for x in 0..n {
                let orth = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)];
                let diag = [
                    (x - 1, y - 1),
                    (x + 1, y - 1),
                    (x - 1, y + 1),
                    (x + 1, y + 1),
                ];
                neighbours.push(Adjacent::build(
                    orth.iter().filter_map(|&(a, b)| wrap(a, b)),
                ));
                diagonals.push(Adjacent::build(
                    diag.iter().filter_map(|&(a, b)| wrap(a, b)),
                ));
                ring.push(RING_OFFSETS.map(|(dx, dy)| wrap(x + dx, y + dy)));
            }
        }
        Geometry {
            size,
            topology,
            neighbours,
            diagonals,
            ring,
            words: (size * size).div_ceil(64),
        }
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    #[inline]
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Number of points, `size * size`.
    #[inline]
    pub fn num_points(&self) -> usize {
        self.size * self.size
    }

    /// Number of u64 words in a one-bit-per-point set.
    #[inline]
    pub fn bitset_words(&self) -> usize {
        self.words
    }

    /// All points in index order (row by row from the bottom, left to right).
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        (0..self.num_points()).map(Point::from_index)
    }

    /// The point at column `x` (0 = left) and row `y` (0 = bottom), if on the board.
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Option<Point> {
        (x < self.size && y < self.size).then(|| Point::from_index(y * self.size + x))
    }

    /// Column (0 = left) and row (0 = bottom) of `p`.
    #[inline]
    pub fn xy(&self, p: Point) -> (usize, usize) {
        (p.index() % self.size, p.index() / self.size)
    }

    /// Distinct orthogonal neighbours of `p` (2..=4 on a plane, 2..=4 on a torus: a 2x2 torus
    /// reaches the same point both ways).
    #[inline]
    pub fn neighbours(&self, p: Point) -> &[Point] {
        self.neighbours[p.index()].as_slice()
    }

    /// The eight points around `p` in `RING_OFFSETS` order; `None` beyond a plane's edge.
    #[inline]
    pub fn ring(&self, p: Point) -> &[Option<Point>; 8] {
        &self.ring[p.index()]
    }

    /// Distinct diagonal neighbours of `p`.
    #[inline]
    pub fn diagonals(&self, p: Point) -> &[Point] {
        self.diagonals[p.index()].as_slice()
    }

    /// Whether `p` is on the first line of a plane board (never on a torus).
    pub fn is_edge(&self, p: Point) -> bool {
        self.neighbours(p).len() < 4 && self.topology == Topology::Plane
    }

    /// Parses a GTP vertex (`D4`, `j10`, `pass`; any case; `I` is not a column).
    ///
    /// # Errors
    /// `VertexError::Syntax` for text that is no vertex, `VertexError::OffBoard` for a vertex
    /// beyond this board's size.
    pub fn parse_move(&self, text: &str) -> Result<Move, VertexError> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let (x, y) = parse_coordinates(text)?;
        self.point(x, y)
            .map(Move::Play)
            .ok_or(VertexError::OffBoard)
    }

    /// Parses a vertex that must be a point, not `pass`.
    pub fn parse_point(&self, text: &str) -> Result<Point, VertexError> {
        match self.parse_move(text)? {
            Move::Play(p) => Ok(p),
            Move::Pass => Err(VertexError::Syntax),
        }
    }

    /// The GTP text of `p`, upper case (`D4`).
    pub fn format_point(&self, p: Point) -> String {
        let (x, y) = self.xy(p);
        format!("{}{}", COLUMN_LETTERS[x] as char, y + 1)
    }

    /// The GTP text of a move, upper case, `PASS` for a pass.
    pub fn format_move(&self, m: Move) -> String {
        match m {
            Move::Play(p) => self.format_point(p),
            Move::Pass => "PASS".to_string(),
        }
    }

    /// Sorts points in reading order, as GNU Go prints them: top row first, left to right.
    pub fn sort_reading_order(&self, points: &mut [Point]) {
        points.sort_by_key(|&p| {
            let (x, y) = self.xy(p);
            (std::cmp::Reverse(y), x)
        });
    }

    /// Column letter of column `x`, as GTP writes it.
    pub fn column_letter(x: usize) -> char {
        COLUMN_LETTERS[x] as char
    }
}

/// Column (0-based) and row (0-based from the bottom) of a vertex text, without a size check.
fn parse_coordinates(text: &str) -> Result<(usize, usize), VertexError> {
    let bytes = text.as_bytes();
    let (&letter, digits) = bytes.split_first().ok_or(VertexError::Syntax)?;
    let letter = letter.to_ascii_uppercase();
    let x = COLUMN_LETTERS
        .iter()
        .position(|&l| l == letter)
        .ok_or(VertexError::Syntax)?;
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(VertexError::Syntax);
    }
    let row: usize = digits
        .iter()
        .fold(0, |acc, &d| acc * 10 + (d - b'0') as usize);
    if row == 0 {
        return Err(VertexError::OffBoard);
    }
    Ok((x, row - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_sizes_outside_the_range() {
        assert!(Geometry::get(1, Topology::Plane).is_err());
        assert!(Geometry::get(26, Topology::Torus).is_err());
        assert!(Geometry::get(2, Topology::Torus).is_ok());
    }

    #[test]
    fn plane_corners_have_two_neighbours_torus_points_four() {
        let plane = Geometry::get(9, Topology::Plane).unwrap();
        let torus = Geometry::get(9, Topology::Torus).unwrap();
        let a1 = plane.point(0, 0).unwrap();
        assert_eq!(plane.neighbours(a1).len(), 2);
        assert_eq!(torus.neighbours(a1).len(), 4);
        let mut wrapped: Vec<_> = torus
            .neighbours(a1)
            .iter()
            .map(|&p| torus.format_point(p))
            .collect();
        wrapped.sort();
        assert_eq!(wrapped, ["A2", "A9", "B1", "J1"]);
    }

    #[test]
    fn tiny_torus_neighbours_are_distinct() {
        let g = Geometry::get(2, Topology::Torus).unwrap();
        for p in g.points() {
            assert_eq!(g.neighbours(p).len(), 2);
            assert_eq!(g.diagonals(p).len(), 1);
        }
    }

    #[test]
    fn vertex_round_trip_skips_i() {
        let g = Geometry::get(19, Topology::Plane).unwrap();
        for p in g.points() {
            let text = g.format_point(p);
            assert!(!text.contains('I'));
            assert_eq!(g.parse_move(&text), Ok(Move::Play(p)));
            assert_eq!(g.parse_move(&text.to_lowercase()), Ok(Move::Play(p)));
        }
        assert_eq!(g.parse_move("PaSs"), Ok(Move::Pass));
        assert_eq!(g.parse_move("I5"), Err(VertexError::Syntax));
        assert_eq!(g.parse_move("A0"), Err(VertexError::OffBoard));
        assert_eq!(g.parse_move("A20"), Err(VertexError::OffBoard));
        assert_eq!(g.parse_move("Z1"), Err(VertexError::OffBoard));
        for bad in ["", "A", "4D", "A-1", "A1x", "é1", "A99999999999"] {
            assert_eq!(g.parse_move(bad), Err(VertexError::Syntax), "{bad}");
        }
    }
}
