//! What a play would do, asked without playing it: suicide, the liberties it would leave,
//! self-atari, captures, the hash after it; and the 3x3 neighbourhood code of a point.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::zobrist;

impl Board {
    /// Whether playing `c` at the empty point `p` would leave its own chain without
    /// liberties even after captures.
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        for &q in self.geo.neighbours(p) {
            match self.cells[q.index()] {
                None => return false,
                Some(x) => {
                    let libs = self.liberty_count(q);
                    if (x == c && libs > 1) || (x != c && libs == 1) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The liberties the chain of a `c` stone played at the empty point `p` would have, or
    /// `None` when the play captures (the count then depends on what is taken).
    pub fn liberties_after(&self, c: Color, p: Point) -> Option<usize> {
        const MAX_WORDS: usize =
            (crate::go::geometry::MAX_SIZE * crate::go::geometry::MAX_SIZE).div_ceil(64);
        let words = self.geo.bitset_words();
        let mut union = [0u64; MAX_WORDS];
        for &q in self.geo.neighbours(p) {
            match self.cells[q.index()] {
                None => union[q.index() / 64] |= 1u64 << (q.index() % 64),
                Some(x) if x == c => {
                    let h = self.head[q.index()] as usize;
                    for (w, acc) in union.iter_mut().enumerate().take(words) {
                        *acc |= self.lib_bits[h * words + w];
                    }
                }
                Some(_) => {
                    if self.libs_at(q) == 1 {
                        return None;
                    }
                }
            }
        }
        union[p.index() / 64] &= !(1u64 << (p.index() % 64));
        Some(union[..words].iter().map(|w| w.count_ones() as usize).sum())
    }

    /// The 3x3 neighbourhood code of `p` for the 3x3 patterns (`search::pattern::mogo`): two
    /// bits per surrounding point in `Geometry::ring` order (0 empty, 1 black, 2 white, 3 off
    /// the board).
    #[inline]
    pub fn ring_code(&self, p: Point) -> u16 {
        let mut code = 0;
        for (i, q) in self.geo.ring(p).iter().enumerate() {
            let state = match q {
                None => 3,
                Some(q) => match self.cells[q.index()] {
                    None => 0,
                    Some(Color::Black) => 1,
                    Some(Color::White) => 2,
                },
            };
            code |= state << (2 * i);
        }
        code
    }

    /// Whether playing `c` at the empty point `p` would capture at least one opponent chain.
    pub fn captures_something(&self, c: Color, p: Point) -> bool {
        self.geo
            .neighbours(p)
            .iter()
            .any(|&q| self.cells[q.index()] == Some(c.other()) && self.liberty_count(q) == 1)
    }

    /// The stones' hash after `c` plays at the empty point `p` (captures and a suicide
    /// included), without playing: superko checks ask this for many points.
    pub fn hash_after(&self, c: Color, p: Point) -> u64 {
        let mut hash = self.hash ^ zobrist::stone_key(p, c);
        let mut seen = [u16::MAX; 4];
        let mut captured = false;
        let mut lives = false;
        for (i, &q) in self.geo.neighbours(p).iter().enumerate() {
            let Some(x) = self.cells[q.index()] else {
                lives = true;
                continue;
            };
            let h = self.head[q.index()];
            let libs = self.chains[h as usize].libs;
            if x == c {
                lives |= libs > 1;
            } else if libs == 1 && !seen.contains(&h) {
                captured = true;
                hash ^= self
                    .chain_stones(q)
                    .fold(0, |acc, s| acc ^ zobrist::stone_key(s, x));
            }
            seen[i] = h;
        }
        if !captured && !lives {
            // Suicide: the new stone and every friendly chain it joins leave the board.
            hash ^= zobrist::stone_key(p, c);
            let mut done = [u16::MAX; 4];
            for (i, &q) in self.geo.neighbours(p).iter().enumerate() {
                let h = self.head[q.index()];
                if self.cells[q.index()] == Some(c) && !done.contains(&h) {
                    hash ^= self
                        .chain_stones(q)
                        .fold(0, |acc, s| acc ^ zobrist::stone_key(s, c));
                }
                done[i] = h;
            }
        }
        hash
    }
}
