//! 3x3 shape patterns for playouts and tree priors: the hane, cut and edge patterns of MoGo
//! (Gelly, Wang, Munos, Teytaud, "Modification of UCT with Patterns in Monte-Carlo Go",
//! 2006), which make random play answer shapes the way players do.
//!
//! A pattern is the 3x3 neighbourhood of a candidate move (the centre). It matches for
//! either colour and in any of the eight rotations and reflections. Symbols: `X` and `O` the
//! two colours, `.` empty, `#` off the board, `x` anything but `X`, `o` anything but `O`,
//! `?` anything. Every matching neighbourhood is expanded once into a table indexed by the
//! neighbourhood's code (two bits per surrounding point), so a lookup is eight reads.

use std::sync::OnceLock;

use crate::go::board::Board;
use crate::go::point::Point;

/// The patterns, rows from the top, the centre being the move.
const PATTERNS: [[&str; 3]; 13] = [
    // Hane: enclosing, non-cutting, magari; and the diagonal attachment.
    ["XOX", "...", "???"],
    ["XO.", "...", "?.?"],
    ["XO?", "X..", "x.?"],
    [".O.", "X..", "..."],
    // Cuts: unprotected, peeped, the cut between two stones, the knight's-move cut.
    ["XO?", "O.o", "?o?"],
    ["XO?", "O.X", "???"],
    ["?X?", "O.O", "ooo"],
    ["OX?", "o.O", "???"],
    // On the first line: chase, block the cut, block the connection, sagari, cut.
    ["X.?", "O.?", "##?"],
    ["OX?", "X.O", "###"],
    ["?X?", "x.O", "###"],
    ["?XO", "x.x", "###"],
    ["?OX", "X.O", "###"],
];

/// States of a surrounding point in a neighbourhood code (`Board::ring_code`).
const EMPTY: u16 = 0;
const BLACK: u16 = 1;
const WHITE: u16 = 2;
const EDGE: u16 = 3;

/// Positions of the eight surrounding points in a pattern's 3x3 grid, in the order of
/// `Geometry::ring` (row above, sides, row below).
const RING_CELLS: [(usize, usize); 8] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 2),
];

fn table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

fn build_table() -> Vec<bool> {
    let mut table = vec![false; 1 << 16];
    for pattern in PATTERNS {
        let grid: Vec<Vec<u8>> = pattern.iter().map(|row| row.bytes().collect()).collect();
        for symmetry in 0..8 {
            for swap in [false, true] {
                // The symbol at each ring position under this symmetry and colour mapping.
                let symbols: Vec<u8> = RING_CELLS
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = transform(r, c, symmetry);
                        let s = grid[r][c];
                        if swap { swap_colours(s) } else { s }
                    })
                    .collect();
                expand(&symbols, 0, 0, &mut table);
            }
        }
    }
    table
}

/// One of the eight symmetries of the 3x3 grid applied to (row, column).
fn transform(r: usize, c: usize, symmetry: usize) -> (usize, usize) {
    let (r, c) = if symmetry & 1 != 0 { (c, r) } else { (r, c) };
    let r = if symmetry & 2 != 0 { 2 - r } else { r };
    let c = if symmetry & 4 != 0 { 2 - c } else { c };
    (r, c)
}

fn swap_colours(symbol: u8) -> u8 {
    match symbol {
        b'X' => b'O',
        b'O' => b'X',
        b'x' => b'o',
        b'o' => b'x',
        s => s,
    }
}

/// The states a symbol allows, `X` being Black.
fn allowed(symbol: u8) -> &'static [u16] {
    match symbol {
        b'X' => &[BLACK],
        b'O' => &[WHITE],
        b'.' => &[EMPTY],
        b'#' => &[EDGE],
        b'x' => &[EMPTY, WHITE, EDGE],
        b'o' => &[EMPTY, BLACK, EDGE],
        _ => &[EMPTY, BLACK, WHITE, EDGE],
    }
}

/// Marks every code that the symbols (from position `i` on) allow.
fn expand(symbols: &[u8], i: usize, code: u16, table: &mut [bool]) {
    if i == symbols.len() {
        table[code as usize] = true;
        return;
    }
    for &state in allowed(symbols[i]) {
        expand(symbols, i + 1, code | state << (2 * i), table);
    }
}

/// Whether a move at the empty point `p` fits one of the patterns.
#[inline]
pub fn matches(board: &Board, p: Point) -> bool {
    table()[board.ring_code(p) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::square_from_diagram(text)
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        // The enclosing hane: the move at C2 under X O X.
        let b = board(
            "
            . . . . .
            . X O X .
            . . . . .
            . . . . .
            . . . . .",
        );
        let g = b.geometry();
        assert!(matches(&b, g.parse_point("C3").unwrap()));
        // The same shape turned a quarter and with colours swapped: O X O on the left.
        let b = board(
            "
            . . . . .
            . O . . .
            . X . . .
            . O . . .
            . . . . .",
        );
        assert!(matches(&b, b.geometry().parse_point("C3").unwrap()));
    }

    #[test]
    fn empty_surroundings_match_nothing() {
        let b = board(
            "
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            . . . . .",
        );
        for p in b.geometry().points() {
            assert!(!matches(&b, p), "{}", b.geometry().format_point(p));
        }
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        // First-line block of a side cut: O X over X . O on the edge.
        let b = board(
            "
            . . . . .
            . . . . .
            . . . . .
            . O X . .
            . X . O .",
        );
        assert!(matches(&b, b.geometry().parse_point("C1").unwrap()));
    }
}
