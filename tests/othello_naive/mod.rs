//! A deliberately plain Othello: the oracle the fast `shicho::othello` code is tested against.
//!
//! How to read it: `cells[y][x]` with `y = 0` the top row; a move walks the eight directions
//! one square at a time, collecting opponent discs until it meets an own disc (those lines
//! flip) or anything else (they don't). Nothing is cached, nothing is a bitboard, and nothing
//! of shicho is used but the `Color` enum, so a bug in the fast code cannot hide here too.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

use shicho::Color;

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Naive {
    pub size: usize,
    pub cells: Vec<Vec<Option<Color>>>,
}

impl Naive {
    /// The standard start: White on the centre squares of the main diagonal.
    pub fn new(size: usize) -> Naive {
        let mut cells = vec![vec![None; size]; size];
        let (a, b) = (size / 2 - 1, size / 2);
        cells[a][a] = Some(Color::White);
        cells[b][b] = Some(Color::White);
        cells[a][b] = Some(Color::Black);
        cells[b][a] = Some(Color::Black);
        Naive { size, cells }
    }

    pub fn get(&self, x: usize, y: usize) -> Option<Color> {
        self.cells[y][x]
    }

    /// The discs `c` would turn over by playing at (x, y); empty when illegal.
    pub fn flips(&self, c: Color, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.cells[y][x].is_some() {
            return all;
        }
        let n = self.size as i32;
        for (dx, dy) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut cx, mut cy) = (x as i32 + dx, y as i32 + dy);
            while cx >= 0 && cy >= 0 && cx < n && cy < n {
                match self.cells[cy as usize][cx as usize] {
                    Some(d) if d == c => {
                        all.extend(line.iter().copied());
                        break;
                    }
                    Some(_) => line.push((cx as usize, cy as usize)),
                    None => break,
                }
                cx += dx;
                cy += dy;
            }
        }
        all.sort_by_key(|&(x, y)| (y, x));
        all
    }

    /// Whether a disc of `c` at (x, y) would bracket some line: the same walk as `flips`,
    /// stopping at the first line found.
    pub fn brackets(&self, c: Color, x: usize, y: usize) -> bool {
        if self.cells[y][x].is_some() {
            return false;
        }
        let n = self.size as i32;
        for (dx, dy) in DIRECTIONS {
            let (mut cx, mut cy) = (x as i32 + dx, y as i32 + dy);
            let mut seen_opponent = false;
            while cx >= 0 && cy >= 0 && cx < n && cy < n {
                match self.cells[cy as usize][cx as usize] {
                    Some(d) if d == c => {
                        if seen_opponent {
                            return true;
                        }
                        break;
                    }
                    Some(_) => seen_opponent = true,
                    None => break,
                }
                cx += dx;
                cy += dy;
            }
        }
        false
    }

    /// Legal squares of `c`, in reading order.
    pub fn moves(&self, c: Color) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                if self.brackets(c, x, y) {
                    v.push((x, y));
                }
            }
        }
        v
    }

    /// Plays a legal move (panics otherwise: callers pick from `moves`).
    pub fn play(&mut self, c: Color, x: usize, y: usize) {
        let f = self.flips(c, x, y);
        assert!(!f.is_empty(), "naive: illegal play");
        for (fx, fy) in f {
            self.cells[fy][fx] = Some(c);
        }
        self.cells[y][x] = Some(c);
    }

    pub fn count(&self, c: Color) -> i32 {
        self.cells
            .iter()
            .flatten()
            .filter(|&&d| d == Some(c))
            .count() as i32
    }

    pub fn empties(&self) -> i32 {
        self.cells.iter().flatten().filter(|d| d.is_none()).count() as i32
    }

    pub fn game_over(&self) -> bool {
        self.moves(Color::Black).is_empty() && self.moves(Color::White).is_empty()
    }

    /// Move sequences of `depth` plies; a pass is a move, only when no disc move exists;
    /// nothing after two passes in a row.
    pub fn perft(&self, c: Color, depth: u32, passes: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if passes == 2 {
            return 0;
        }
        let moves = self.moves(c);
        if moves.is_empty() {
            return self.perft(c.other(), depth - 1, passes + 1);
        }
        let mut total = 0;
        for (x, y) in moves {
            let mut next = self.clone();
            next.play(c, x, y);
            total += next.perft(c.other(), depth - 1, 0);
        }
        total
    }

    /// `profile[d]` = perft(d) for every `d` up to `max_depth`, in one walk of the tree.
    pub fn perft_profile(&self, c: Color, max_depth: usize) -> Vec<u64> {
        let mut profile = vec![0; max_depth + 1];
        self.walk(c, 0, 0, &mut profile);
        profile
    }

    fn walk(&self, c: Color, ply: usize, passes: u32, profile: &mut [u64]) {
        profile[ply] += 1;
        if ply + 1 == profile.len() || passes == 2 {
            return;
        }
        let moves = self.moves(c);
        if moves.is_empty() {
            return self.walk(c.other(), ply + 1, passes + 1, profile);
        }
        for (x, y) in moves {
            let mut next = self.clone();
            next.play(c, x, y);
            next.walk(c.other(), ply + 1, 0, profile);
        }
    }

    /// The classic greedy choice, written out as the rule says: most flips; among equals the
    /// smallest row (top first), then the smallest column.
    pub fn greedy(&self, c: Color) -> Option<(usize, usize)> {
        let mut best: Option<(usize, (usize, usize))> = None;
        for y in 0..self.size {
            for x in 0..self.size {
                let n = self.flips(c, x, y).len();
                if n > 0 && best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, (x, y)));
                }
            }
        }
        best.map(|(_, s)| s)
    }

    /// The exact final disc difference for `c` to move with perfect play on both sides,
    /// empty squares going to the winner: plain minimax, no pruning, no ordering. Moves are
    /// made and taken back in place (the board is as before on return).
    pub fn minimax(&mut self, c: Color) -> i32 {
        let moves = self.moves(c);
        if moves.is_empty() {
            if self.moves(c.other()).is_empty() {
                let diff = self.count(c) - self.count(c.other());
                let e = self.empties();
                return if diff > 0 {
                    diff + e
                } else if diff < 0 {
                    diff - e
                } else {
                    0
                };
            }
            return -self.minimax(c.other());
        }
        let mut best = i32::MIN;
        for (x, y) in moves {
            let flips = self.flips(c, x, y);
            self.play(c, x, y);
            best = best.max(-self.minimax(c.other()));
            self.cells[y][x] = None;
            for (fx, fy) in flips {
                self.cells[fy][fx] = Some(c.other());
            }
        }
        best
    }
}

/// splitmix64: tiny, seedable and good enough to draw moves.
pub struct TestRng(pub u64);

impl TestRng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
