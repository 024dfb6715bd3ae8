//! Learnt move weights ("gammas"): one per shape and one per level of each feature group
//! of `features`. A move's strength is the product of its features' gammas, and the chance
//! that a player picks it is its strength over the sum of all legal moves' strengths
//! (Coulom's generalized Bradley-Terry model).
//!
//! The weights come from `train/src/priors.rs` (minorization-maximization on game
//! records the project made itself) and are compiled in, one table learnt on 9x9 games
//! (`data/gammas-9x9.txt`) and one on 19x19 games (`data/gammas-19x19.txt`): what a move's
//! line or its distance from the last move says depends on the board's size (the fifth
//! line is the centre of a 9x9 board but a loose move on 19x19, and a far move is a
//! mistake on 9x9 but a normal tenuki on 19x19). The text form:
//! ```text
//! group capture 1 2.5        a group's level and its gamma
//! shape 0x00012a4 1.7        a canonical shape code and its gamma
//! spatial 0x9f03c2d1e4 2.2   a larger shape's hash and its gamma
//! ```
//! Anything absent weighs 1. Of a move's larger shapes only the largest in the table counts.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::go::search::pattern::features::{Features, GROUPS, OWNER};

/// The smallest board that uses the table learnt on 19x19 games: 13x13's lines 5 to 7
/// are open board, as they are on 19x19, not the centre that 9x9's fifth line is.
pub const LARGE_BOARD: usize = 13;

/// The larger shapes' hashes are random already: hashing them again, as the default
/// hasher would on every lookup of every candidate, is wasted time.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlreadyHashed(u64);

impl Hasher for AlreadyHashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Larger shapes' hashes and their gammas.
pub type SpatialGammas = HashMap<u64, f32, BuildHasherDefault<AlreadyHashed>>;

/// A table of gammas.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gammas {
    pub groups: Vec<Vec<f32>>,
    pub shapes: HashMap<u32, f32>,
    pub spatial: SpatialGammas,
}

impl Gammas {
    /// Every gamma 1.
    pub fn neutral() -> Gammas {
        Gammas {
            groups: GROUPS.iter().map(|&(_, n)| vec![1.0; n]).collect(),
            shapes: HashMap::new(),
            spatial: SpatialGammas::default(),
        }
    }

    /// The table compiled into the engine for a board of `size`: the one learnt on 9x9
    /// games below [`LARGE_BOARD`], the one learnt on 19x19 games from there on.
    pub fn builtin(size: usize) -> &'static Gammas {
        static SMALL: OnceLock<Gammas> = OnceLock::new();
        static LARGE: OnceLock<Gammas> = OnceLock::new();
        let (table, text, name) = if size < LARGE_BOARD {
            (&SMALL, include_str!("data/gammas-9x9.txt"), "9x9")
        } else {
            (&LARGE, include_str!("data/gammas-19x19.txt"), "19x19")
        };
        table.get_or_init(|| {
            Gammas::parse(text).unwrap_or_else(|e| {
                log::error!("built-in {name} gammas: {e}");
                Gammas::neutral()
            })
        })
    }

    /// Reads the text form (see the module documentation).
    ///
    /// # Errors
    /// The first line that is not understood.
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut g = Gammas::neutral();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("line {}: '{line}'", n + 1);
            match fields.as_slice() {
                ["group", name, level, gamma] => {
                    let group = GROUPS.iter().position(|(g, _)| g == name).ok_or_else(bad)?;
                    let level: usize = level.parse().map_err(|_| bad())?;
                    let gamma: f32 = gamma.parse().map_err(|_| bad())?;
                    *g.groups[group].get_mut(level).ok_or_else(bad)? = gamma;
                }
                ["shape", code, gamma] => {
                    let code = u32::from_str_radix(code.trim_start_matches("0x"), 16)
                        .map_err(|_| bad())?;
                    let gamma: f32 = gamma.parse().map_err(|_| bad())?;
                    g.shapes.insert(code, gamma);
                }
                ["spatial", hash, gamma] => {
                    let hash = u64::from_str_radix(hash.trim_start_matches("0x"), 16)
                        .map_err(|_| bad())?;
                    let gamma: f32 = gamma.parse().map_err(|_| bad())?;
                    g.spatial.insert(hash, gamma);
                }
                _ => return Err(bad()),
            }
        }
        Ok(g)
    }

    /// The text form, shapes in code order.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (group, levels) in self.groups.iter().enumerate() {
            for (level, gamma) in levels.iter().enumerate() {
                out.push_str(&format!("group {} {level} {gamma:.4}\n", GROUPS[group].0));
            }
        }
        let mut shapes: Vec<_> = self.shapes.iter().collect();
        shapes.sort_by_key(|(code, _)| **code);
        for (code, gamma) in shapes {
            out.push_str(&format!("shape {code:#x} {gamma:.4}\n"));
        }
        let mut spatial: Vec<_> = self.spatial.iter().collect();
        spatial.sort_by_key(|(hash, _)| **hash);
        for (hash, gamma) in spatial {
            out.push_str(&format!("spatial {hash:#x} {gamma:.4}\n"));
        }
        out
    }

    /// Whether the owner feature has weights, so that an ownership estimate is worth its
    /// playouts.
    pub fn uses_owner(&self) -> bool {
        self.groups[OWNER].iter().any(|&g| g != 1.0)
    }

    /// A move's strength: the product of its features' gammas.
    pub fn strength(&self, f: &Features) -> f32 {
        let mut s = self.shapes.get(&f.shape).copied().unwrap_or(1.0);
        if let Some(gamma) = f.spatial.iter().rev().find_map(|h| self.spatial.get(h)) {
            s *= gamma;
        }
        for (group, &level) in f.levels.iter().enumerate() {
            s *= self.groups[group][level as usize];
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_lines_are_refused() {
        let mut g = Gammas::neutral();
        g.groups[0][2] = 3.5;
        g.shapes.insert(0x1234, 0.25);
        g.spatial.insert(0xdead_beef_0123, 4.5);
        let back = Gammas::parse(&g.to_text()).unwrap();
        assert_eq!(back, g);
        assert!(Gammas::parse("group nonsense 1 2").is_err());
        assert!(Gammas::parse("group capture 99 2").is_err());
        assert!(Gammas::parse("shape zz 1").is_err());
        assert!(Gammas::parse("spatial 0x12").is_err());
        for size in [5, 9, 13, 19, 25] {
            assert_eq!(Gammas::builtin(size).groups.len(), GROUPS.len());
            assert!(!Gammas::builtin(size).shapes.is_empty(), "{size}x{size}");
        }
        assert_ne!(Gammas::builtin(9), Gammas::builtin(19));
    }

    #[test]
    fn only_the_largest_known_larger_shape_counts() {
        let mut g = Gammas::neutral();
        let mut f = Features {
            shape: 7,
            spatial: [10, 11, 12, 13, 14],
            levels: [0; GROUPS.len()],
        };
        assert_eq!(g.strength(&f), 1.0);
        g.shapes.insert(7, 2.0);
        g.spatial.insert(11, 3.0);
        assert_eq!(g.strength(&f), 6.0);
        g.spatial.insert(13, 5.0);
        assert_eq!(g.strength(&f), 10.0, "13 is larger than 11");
        f.spatial[3] = 99;
        assert_eq!(g.strength(&f), 6.0);
        g.groups[0][1] = 0.5;
        f.levels[0] = 1;
        assert_eq!(g.strength(&f), 3.0);
    }
}
