//! The slow self-check of every incrementally maintained structure, for tests.

use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::zobrist;

impl Board {
    /// Recomputes every derived structure from the stones alone (flood fill) and compares.
    /// For tests and debugging: it is slow.
    ///
    /// # Errors
    /// A description of the first inconsistency found.
    pub fn check_consistency(&self) -> Result<(), String> {
        let geo = self.geo;
        let mut hash = 0;
        for p in geo.points() {
            if let Some(c) = self.cells[p.index()] {
                hash ^= zobrist::stone_key(p, c);
            }
        }
        if hash != self.hash {
            return Err(format!("hash {:#x} != recomputed {:#x}", self.hash, hash));
        }
        let mut listed: Vec<Point> = self.empties.clone();
        listed.sort();
        let actual: Vec<Point> = geo
            .points()
            .filter(|p| self.cells[p.index()].is_none())
            .collect();
        if listed != actual {
            return Err("empty list differs from the empty points".into());
        }
        for (i, &e) in self.empties.iter().enumerate() {
            if self.empty_index[e.index()] as usize != i {
                return Err(format!("empty index of {} is stale", geo.format_point(e)));
            }
        }
        let words = geo.bitset_words();
        for p in geo.points() {
            let is_head =
                self.cells[p.index()].is_some() && self.head[p.index()] as usize == p.index();
            let bits = &self.lib_bits.0[p.index() * words..(p.index() + 1) * words];
            if !is_head && bits.iter().any(|&w| w != 0) {
                return Err(format!(
                    "{} holds liberty bits but heads no chain",
                    geo.format_point(p)
                ));
            }
        }
        for p in geo.points() {
            let Some(c) = self.cells[p.index()] else {
                continue;
            };
            // Flood fill the chain and its liberties.
            let mut chain = vec![p];
            let mut libs = Vec::new();
            let mut i = 0;
            while i < chain.len() {
                for &q in geo.neighbours(chain[i]) {
                    match self.cells[q.index()] {
                        Some(x) if x == c && !chain.contains(&q) => chain.push(q),
                        None if !libs.contains(&q) => libs.push(q),
                        _ => {}
                    }
                }
                i += 1;
            }
            chain.sort();
            libs.sort();
            let mut listed: Vec<Point> = self.chain_stones(p).collect();
            listed.sort();
            let name = geo.format_point(p);
            if listed != chain {
                return Err(format!(
                    "chain of {name}: linked stones differ from flood fill"
                ));
            }
            if chain
                .iter()
                .any(|&s| self.head[s.index()] != self.head[p.index()])
            {
                return Err(format!("chain of {name}: stones disagree on the head"));
            }
            if self.chain_len(p) != chain.len() {
                return Err(format!(
                    "chain of {name}: stone count {} != {}",
                    self.chain_len(p),
                    chain.len()
                ));
            }
            let listed_libs: Vec<Point> = self.liberties(p).collect();
            if listed_libs != libs || self.liberty_count(p) != libs.len() {
                return Err(format!(
                    "chain of {name}: liberties {:?} (count {}) != flood fill {:?}",
                    listed_libs
                        .iter()
                        .map(|&l| geo.format_point(l))
                        .collect::<Vec<_>>(),
                    self.liberty_count(p),
                    libs.iter()
                        .map(|&l| geo.format_point(l))
                        .collect::<Vec<_>>()
                ));
            }
            if libs.is_empty() {
                return Err(format!("chain of {name} has no liberties"));
            }
        }
        Ok(())
    }
}
