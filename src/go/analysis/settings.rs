//! What a query's search may spend and how its numbers are told: the command line's
//! defaults, changed for one query by its `overrideSettings` (KataGo's names), and the
//! same names in `-override-config` on the command line.
//!
//! The settings shicho has: `maxVisits` (and `maxPlayouts`, the same here: a visit is a
//! simulation), `maxTime`, `numSearchThreads` (`numSearchThreadsPerAnalysisThread`),
//! `reportAnalysisWinratesAs`, `wideRootNoise` (the tunable `wide_root_noise`), and the tree
//! search's tunables by their own names (`shicho tunables` lists them). Any other key is an
//! unknown setting: KataGo's warning names it and the query goes on.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::color::Color;
use crate::go::search::Tunables;

/// Whose side the numbers take: KataGo's `reportAnalysisWinratesAs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    Black,
    White,
    /// The side analysed (the player to move).
    SideToMove,
}

impl Perspective {
    /// KataGo's spellings, any case: `b`, `black`, `w`, `white`, `sidetomove`.
    pub fn parse(text: &str) -> Option<Perspective> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Perspective::Black),
            "w" | "white" => Some(Perspective::White),
            "sidetomove" => Some(Perspective::SideToMove),
            _ => None,
        }
    }

    /// 1 when a number of `to_move`'s (a win rate's distance from one half, a lead, an
    /// owner) keeps its sign from this side, -1 when it turns over.
    pub fn sign(self, to_move: Color) -> f64 {
        match (self, to_move) {
            (Perspective::SideToMove, _)
            | (Perspective::Black, Color::Black)
            | (Perspective::White, Color::White) => 1.0,
            _ => -1.0,
        }
    }
}

/// The most visits a query may ask for, KataGo's 2^50.
pub const MAX_VISITS: usize = 1 << 50;

/// Search threads on one position at most.
pub const MAX_SEARCH_THREADS: usize = 64;

/// A query's search and report settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Simulations at most (KataGo's visits).
    pub max_visits: usize,
    /// Wall-clock time at most, from the moment the search starts.
    pub max_time: Option<Duration>,
    /// Threads searching the one position.
    pub search_threads: usize,
    pub perspective: Perspective,
    pub tunables: Tunables,
}

impl Default for Settings {
    /// KataGo's example configuration: 500 visits, no time limit, Black's side.
    fn default() -> Settings {
        Settings {
            max_visits: 500,
            max_time: None,
            search_threads: 1,
            perspective: Perspective::Black,
            tunables: Tunables::default(),
        }
    }
}

/// A setting's value as KataGo reads it: a string as it stands, anything else as JSON
/// text (`8`, `true`).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// An integer setting within `min..=max`.
fn integer(key: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let x: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("Could not parse '{value}' as int64_t for key '{key}'"))?;
    if !(min..=max).contains(&x) {
        return Err(format!("Key '{key}' must be in the range {min} to {max}"));
    }
    Ok(x)
}

/// KataGo's `wideRootNoise` (and the GTP's `analysisWideRootNoise`), read as KataGo's
/// configuration parser reads it, with its words for a bad value: `key` names it in them.
pub(crate) fn wide_root_noise(key: &str, value: &str) -> Result<f32, String> {
    real(key, value, 0.0, 5.0, "5").map(|noise| noise as f32)
}

/// A real-valued setting within `min..=max` (`max_text` as KataGo prints the bound).
fn real(key: &str, value: &str, min: f64, max: f64, max_text: &str) -> Result<f64, String> {
    let x: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("Could not parse '{value}' as double for key '{key}'"))?;
    if x.is_nan() {
        return Err(format!("Key '{key}' is nan"));
    }
    if !(min..=max).contains(&x) {
        return Err(format!(
            "Key '{key}' must be in the range {min} to {max_text}"
        ));
    }
    Ok(x)
}

impl Settings {
    /// Sets `key` from `value` (KataGo's text of it). `Ok(false)` for a key shicho has no
    /// such setting for.
    ///
    /// # Errors
    /// The value is not one the setting takes: the text says why, as KataGo's
    /// configuration parser does.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "maxVisits" | "maxPlayouts" => {
                self.max_visits = integer(key, value, 1, MAX_VISITS as i64)? as usize;
            }
            "maxTime" => {
                let seconds = real(key, value, 0.0, 1e20, "1e+20")?;
                self.max_time = Some(Duration::from_secs_f64(seconds.min(1e9)));
            }
            "numSearchThreads" | "numSearchThreadsPerAnalysisThread" => {
                let n = integer(key, value, 1, 4096)?;
                self.search_threads = (n as usize).min(MAX_SEARCH_THREADS);
            }
            "reportAnalysisWinratesAs" => {
                self.perspective = Perspective::parse(value).ok_or_else(|| {
                    format!("Could not parse config value for reportAnalysisWinratesAs: {value}")
                })?;
            }
            "wideRootNoise" => {
                self.tunables.wide_root_noise = wide_root_noise(key, value)?;
            }
            _ if Tunables::listing().iter().any(|t| t.name == key) => {
                if !self.tunables.set(key, value) {
                    return Err(format!("Could not parse '{value}' for key '{key}'"));
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Applies a query's `overrideSettings`, returning the keys shicho has no setting for
    /// (in KataGo's order: sorted).
    ///
    /// # Errors
    /// KataGo's text for the first bad value, `Could not set settings: ...`; nothing is
    /// then changed.
    pub fn override_with(&mut self, overrides: &Map<String, Value>) -> Result<Vec<String>, String> {
        let mut changed = self.clone();
        let mut unknown = Vec::new();
        for (key, value) in overrides {
            match changed.set(key, &value_text(value)) {
                Ok(true) => {}
                Ok(false) => unknown.push(key.clone()),
                Err(why) => return Err(format!("Could not set settings: {why}")),
            }
        }
        *self = changed;
        unknown.sort();
        Ok(unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overrides(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn katrains_settings_are_honoured_or_named() {
        let mut s = Settings::default();
        let unknown = s
            .override_with(&overrides(json!({
                "reportAnalysisWinratesAs": "WHITE",
                "wideRootNoise": 0.04,
                "maxTime": 8.0,
                "maxVisits": "25",
                "playoutDoublingAdvantage": 1.5,
            })))
            .unwrap();
        assert_eq!(unknown, ["playoutDoublingAdvantage"]);
        assert_eq!(s.tunables.wide_root_noise, 0.04);
        assert_eq!(s.perspective, Perspective::White);
        assert_eq!(s.max_time, Some(Duration::from_secs(8)));
        assert_eq!(s.max_visits, 25);
        let unknown = s
            .override_with(&overrides(json!({"wideRootNoise": 0, "puct": 1.5})))
            .unwrap();
        assert!(unknown.is_empty(), "puct is a tunable");
        assert_eq!(s.tunables.wide_root_noise, 0.0);
        assert_eq!(s.tunables.puct, 1.5);
    }

    #[test]
    fn a_bad_value_is_katagos_error_and_changes_nothing() {
        let mut s = Settings::default();
        for (key, value, error) in [
            (
                "maxTime",
                json!("abc"),
                "Could not set settings: Could not parse 'abc' as double for key 'maxTime'",
            ),
            (
                "maxVisits",
                json!(-3),
                "Could not set settings: Key 'maxVisits' must be in the range 1 to 1125899906842624",
            ),
            (
                "wideRootNoise",
                json!(7),
                "Could not set settings: Key 'wideRootNoise' must be in the range 0 to 5",
            ),
            (
                "reportAnalysisWinratesAs",
                json!("nobody"),
                "Could not set settings: Could not parse config value for reportAnalysisWinratesAs: nobody",
            ),
            (
                "puct",
                json!("x"),
                "Could not set settings: Could not parse 'x' for key 'puct'",
            ),
        ] {
            let mut o = Map::new();
            o.insert("maxVisits".into(), json!(7));
            o.insert(key.into(), value);
            assert_eq!(s.override_with(&o), Err(error.to_string()));
            assert_eq!(s, Settings::default());
        }
    }

    #[test]
    fn perspective_turns_the_other_sides_numbers_over() {
        assert_eq!(
            Perspective::parse("SideToMove"),
            Some(Perspective::SideToMove)
        );
        assert_eq!(Perspective::Black.sign(Color::White), -1.0);
        assert_eq!(Perspective::Black.sign(Color::Black), 1.0);
        assert_eq!(Perspective::SideToMove.sign(Color::White), 1.0);
        assert_eq!(Perspective::White.sign(Color::Black), -1.0);
    }
}
