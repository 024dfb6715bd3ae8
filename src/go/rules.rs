//! Rules as independent settings (ko, suicide, scoring, topology) with named presets.

use std::fmt;
use std::str::FromStr;

use crate::go::geometry::Topology;

/// Which repetitions a play may not create.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KoRule {
    /// A play may not recreate the position (stones only) that stood just before the
    /// opponent's last move (a pass counts as a move).
    Simple,
    /// A play may not recreate any earlier position of the game.
    Positional,
    /// A play may not create a (position, colour to move next) pair that occurred earlier.
    Situational,
}

/// Whether a play that leaves its own chain without liberties is legal (the chain is then
/// removed and counted as captured by the opponent).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SuicideRule {
    Forbidden,
    Allowed,
}

/// How the game is counted.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Scoring {
    /// Stones plus empty regions reaching only one colour (Tromp-Taylor), minus komi.
    Area,
    /// Territory plus prisoners, minus komi.
    Territory,
}

/// The settings that decide legality and the score. Each is independent of the others.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    pub ko: KoRule,
    pub suicide: SuicideRule,
    pub scoring: Scoring,
    pub topology: Topology,
}

/// The named presets, in the order `list` shows them. The names are the interface.
pub const PRESETS: [(&str, Rules); 6] = [
    (
        "japanese",
        Rules::new(
            KoRule::Simple,
            SuicideRule::Forbidden,
            Scoring::Territory,
            Topology::Plane,
        ),
    ),
    (
        "chinese",
        Rules::new(
            KoRule::Positional,
            SuicideRule::Forbidden,
            Scoring::Area,
            Topology::Plane,
        ),
    ),
    (
        "aga",
        Rules::new(
            KoRule::Situational,
            SuicideRule::Forbidden,
            Scoring::Area,
            Topology::Plane,
        ),
    ),
    (
        "new-zealand",
        Rules::new(
            KoRule::Situational,
            SuicideRule::Allowed,
            Scoring::Area,
            Topology::Plane,
        ),
    ),
    (
        "tromp-taylor",
        Rules::new(
            KoRule::Positional,
            SuicideRule::Allowed,
            Scoring::Area,
            Topology::Plane,
        ),
    ),
    (
        "daoqi",
        Rules::new(
            KoRule::Situational,
            SuicideRule::Allowed,
            Scoring::Area,
            Topology::Torus,
        ),
    ),
];

/// Other spellings accepted for the presets (KataGo's and common ones).
const ALIASES: [(&str, &str); 10] = [
    ("korean", "japanese"),
    ("chinese-ogs", "chinese"),
    ("chinese_ogs", "chinese"),
    ("tromp_taylor", "tromp-taylor"),
    ("trompTaylor", "tromp-taylor"),
    ("new_zealand", "new-zealand"),
    ("nz", "new-zealand"),
    ("stone_scoring", "chinese"),
    ("dao-qi", "daoqi"),
    ("torus", "daoqi"),
];

impl Rules {
    pub const fn new(
        ko: KoRule,
        suicide: SuicideRule,
        scoring: Scoring,
        topology: Topology,
    ) -> Rules {
        Rules {
            ko,
            suicide,
            scoring,
            topology,
        }
    }

    /// The rules of a preset, by name or alias (case-insensitive).
    pub fn preset(name: &str) -> Option<Rules> {
        let name = ALIASES
            .iter()
            .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
            .map_or(name, |(_, preset)| preset);
        PRESETS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, r)| r)
    }

    /// The preset these rules equal, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS.iter().find(|(_, r)| r == self).map(|&(n, _)| n)
    }

    pub fn suicide_allowed(&self) -> bool {
        self.suicide == SuicideRule::Allowed
    }

    /// Board size a user of these rules expects when none is given.
    pub fn default_size(&self) -> usize {
        match self.topology {
            Topology::Plane => 19,
            Topology::Torus => 16,
        }
    }

    /// Komi a user of these rules expects when none is given.
    pub fn default_komi(&self) -> f64 {
        match (self.topology, self.scoring) {
            (Topology::Torus, _) => 4.0,
            (Topology::Plane, Scoring::Territory) => 6.5,
            (Topology::Plane, Scoring::Area) => 7.5,
        }
    }
}

impl Default for Rules {
    /// Chinese rules: the engine's default.
    fn default() -> Rules {
        PRESETS[1].1
    }
}

impl fmt::Display for KoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KoRule::Simple => "simple",
            KoRule::Positional => "positional",
            KoRule::Situational => "situational",
        })
    }
}

impl fmt::Display for SuicideRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SuicideRule::Forbidden => "forbidden",
            SuicideRule::Allowed => "allowed",
        })
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scoring::Area => "area",
            Scoring::Territory => "territory",
        })
    }
}

impl fmt::Display for Rules {
    /// The preset name, or the custom form `ko=..,suicide=..,scoring=..,topology=..`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => f.write_str(name),
            None => write!(
                f,
                "ko={},suicide={},scoring={},topology={}",
                self.ko, self.suicide, self.scoring, self.topology
            ),
        }
    }
}

/// The text named no preset and was no valid custom rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
        write!(
            f,
            "unknown rules '{}' (presets: {}; or ko=simple|positional|situational,suicide=forbidden|allowed,scoring=area|territory,topology=plane|torus)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;

    /// A preset name or alias, or a custom set of `key=value` settings separated by commas,
    /// starting from the default (chinese) for keys not given, e.g.
    /// `ko=simple,suicide=allowed,scoring=area,topology=torus`.
    fn from_str(text: &str) -> Result<Rules, UnknownRules> {
        let text = text.trim();
        if let Some(rules) = Rules::preset(text) {
            return Ok(rules);
        }
        let unknown = || UnknownRules(text.to_string());
        if !text.contains('=') {
            return Err(unknown());
        }
        let mut rules = Rules::default();
        for setting in text.split(',') {
            let (key, value) = setting.split_once('=').ok_or_else(unknown)?;
            let value = value.trim().to_ascii_lowercase();
            match key.trim().to_ascii_lowercase().as_str() {
                "ko" => {
                    rules.ko = match value.as_str() {
                        "simple" => KoRule::Simple,
                        "positional" => KoRule::Positional,
                        "situational" => KoRule::Situational,
                        _ => return Err(unknown()),
                    }
                }
                "suicide" => {
                    rules.suicide = match value.as_str() {
                        "forbidden" | "false" | "no" => SuicideRule::Forbidden,
                        "allowed" | "true" | "yes" => SuicideRule::Allowed,
                        _ => return Err(unknown()),
                    }
                }
                "scoring" => {
                    rules.scoring = match value.as_str() {
                        "area" => Scoring::Area,
                        "territory" => Scoring::Territory,
                        _ => return Err(unknown()),
                    }
                }
                "topology" => rules.topology = value.parse().map_err(|()| unknown())?,
                _ => return Err(unknown()),
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_through_their_names() {
        for (name, rules) in PRESETS {
            assert_eq!(name.parse::<Rules>(), Ok(rules));
            assert_eq!(rules.to_string(), name);
        }
        assert_eq!(Rules::default().to_string(), "chinese");
    }

    #[test]
    fn custom_rules_round_trip() {
        let r: Rules = "ko=simple,suicide=allowed,scoring=area,topology=torus"
            .parse()
            .unwrap();
        assert_eq!(
            r,
            Rules::new(
                KoRule::Simple,
                SuicideRule::Allowed,
                Scoring::Area,
                Topology::Torus
            )
        );
        assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        assert_eq!(
            "ko=situational,suicide=allowed,topology=torus"
                .parse::<Rules>()
                .map(|r| r.to_string()),
            Ok("daoqi".into())
        );
    }

    #[test]
    fn rejects_unknown_rules() {
        for bad in [
            "",
            "go",
            "ko=",
            "ko=super",
            "colour=red",
            "japanese,",
            "=,=",
        ] {
            assert!(bad.parse::<Rules>().is_err(), "{bad}");
        }
    }
}
