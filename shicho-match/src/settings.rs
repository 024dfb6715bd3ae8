//! `settings.txt`: what an output directory's later runs must keep, so that resuming it
//! (`-o` the same directory) continues the same test on the same slice with the same
//! openings, and `merge` can check that shards belong together.
//!
//! One `key = value` a line, `#` starts a comment:
//!
//! | key | value |
//! |---|---|
//! | `sprt` | the test, `ELO0,ELO1,ALPHA,BETA` |
//! | `alternate` | `true` or `false`: colours swap every other game |
//! | `seed` | the seed of the random openings |
//! | `shard` | `K/N`: the directory holds the K-th of N slices |
//! | `planned` | shards only: the last game number the runs so far covered |

use std::fmt;
use std::fs;
use std::path::Path;
use std::str::FromStr;

use crate::sprt::SprtSpec;

/// The settings file's name inside the output directory.
pub const SETTINGS_FILE: &str = "settings.txt";

/// `--shard K/N`: the K-th (1-based) of N disjoint slices of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Whether unit `unit` (0-based: a game, or a pair of games with alternating colours)
    /// is in this slice. Slices interleave, so shards that run at the same speed leave the
    /// union without long gaps.
    pub fn holds(&self, unit: usize) -> bool {
        unit % self.n == self.k - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}': give K/N with 1 <= K <= N, e.g. 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// The settings of an output directory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSettings {
    pub sprt: Option<SprtSpec>,
    pub alternate: Option<bool>,
    pub seed: Option<u64>,
    pub shard: Option<Shard>,
    pub planned: Option<usize>,
}

impl RunSettings {
    /// The settings of `dir`; the default (nothing known) when it has no settings file.
    ///
    /// # Errors
    /// The file cannot be read, or a line is not `key = value` with a known key and a valid
    /// value.
    pub fn load(dir: &Path) -> Result<RunSettings, String> {
        let path = dir.join(SETTINGS_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(RunSettings::default());
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        RunSettings::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The settings in `text` (the file's contents).
    ///
    /// # Errors
    /// A message naming the bad line.
    pub fn parse(text: &str) -> Result<RunSettings, String> {
        let mut settings = RunSettings::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |why: String| format!("line {}: {why}", i + 1);
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| bad(format!("'{line}' is not key = value")))?;
            let value = value.trim();
            match key.trim() {
                "sprt" => settings.sprt = Some(value.parse().map_err(bad)?),
                "alternate" => {
                    settings.alternate = Some(match value {
                        "true" => true,
                        "false" => false,
                        _ => return Err(bad(format!("alternate '{value}' is not true/false"))),
                    });
                }
                "seed" => {
                    settings.seed = Some(
                        value
                            .parse()
                            .map_err(|_| bad(format!("seed '{value}' is not a number")))?,
                    );
                }
                "shard" => settings.shard = Some(value.parse().map_err(bad)?),
                "planned" => {
                    settings.planned = Some(
                        value
                            .parse()
                            .map_err(|_| bad(format!("planned '{value}' is not a number")))?,
                    );
                }
                other => return Err(bad(format!("unknown key '{other}'"))),
            }
        }
        Ok(settings)
    }

    /// The file's text.
    pub fn text(&self) -> String {
        let mut out = String::from(
            "# shicho-match: what later runs in this directory keep (see `shicho-match --help`)\n",
        );
        if let Some(s) = &self.sprt {
            out.push_str(&format!("sprt = {s}\n"));
        }
        if let Some(a) = self.alternate {
            out.push_str(&format!("alternate = {a}\n"));
        }
        if let Some(s) = self.seed {
            out.push_str(&format!("seed = {s}\n"));
        }
        if let Some(s) = self.shard {
            out.push_str(&format!("shard = {s}\n"));
        }
        if let Some(p) = self.planned {
            out.push_str(&format!("planned = {p}\n"));
        }
        out
    }

    /// Writes the file into `dir`.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let path = dir.join(SETTINGS_FILE);
        fs::write(&path, self.text()).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_slice_units() {
        let s: Shard = "2/3".parse().unwrap();
        let held: Vec<usize> = (0..9).filter(|&u| s.holds(u)).collect();
        assert_eq!(held, [1, 4, 7]);
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn settings_round_trip_and_bad_lines_are_named() {
        let settings = RunSettings {
            sprt: Some("0,10".parse().unwrap()),
            alternate: Some(true),
            seed: Some(7),
            shard: Some(Shard { k: 1, n: 4 }),
            planned: Some(100),
        };
        assert_eq!(RunSettings::parse(&settings.text()), Ok(settings));
        assert_eq!(RunSettings::parse(""), Ok(RunSettings::default()));
        let err = RunSettings::parse("seed = 1\ncolour = red\n").unwrap_err();
        assert!(err.contains("line 2") && err.contains("colour"), "{err}");
        assert!(RunSettings::parse("sprt = 5,1").is_err());
        assert!(RunSettings::parse("alternate yes").is_err());
    }
}
