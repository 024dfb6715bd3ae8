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

/// What White receives for Black's handicap stones, beyond komi (KataGo's
/// `whiteHandicapBonus`). Under area scoring each free stone Black places is a point of
/// area White never had the chance to answer; Chinese rules give all of them back, AGA's
/// all but the first (which stands for the move Black has anyway), territory rules none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HandicapBonus {
    None,
    /// A point for each handicap stone.
    Stones,
    /// A point for each handicap stone but one.
    StonesLessOne,
}

impl HandicapBonus {
    /// White's points for a game of `stones` handicap stones (0 in an even game).
    pub fn points(self, stones: usize) -> f64 {
        match self {
            HandicapBonus::None => 0.0,
            HandicapBonus::Stones => stones as f64,
            HandicapBonus::StonesLessOne => stones.saturating_sub(1) as f64,
        }
    }

    /// KataGo's name: `0`, `N` or `N-1`.
    pub fn katago_name(self) -> &'static str {
        match self {
            HandicapBonus::None => "0",
            HandicapBonus::Stones => "N",
            HandicapBonus::StonesLessOne => "N-1",
        }
    }
}

/// The settings that decide legality and the score. Each is independent of the others.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    pub ko: KoRule,
    pub suicide: SuicideRule,
    pub scoring: Scoring,
    pub topology: Topology,
    pub handicap_bonus: HandicapBonus,
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
        )
        .with_handicap_bonus(HandicapBonus::Stones),
    ),
    (
        "aga",
        Rules::new(
            KoRule::Situational,
            SuicideRule::Forbidden,
            Scoring::Area,
            Topology::Plane,
        )
        .with_handicap_bonus(HandicapBonus::StonesLessOne),
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
    /// Rules with no handicap bonus.
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
            handicap_bonus: HandicapBonus::None,
        }
    }

    pub const fn with_handicap_bonus(self, handicap_bonus: HandicapBonus) -> Rules {
        Rules {
            handicap_bonus,
            ..self
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

    /// The bonus of the preset with these rules' other settings, else none: what a custom
    /// rule set that does not name one gets, so that spelling out a preset's settings
    /// gives that preset.
    fn usual_handicap_bonus(&self) -> HandicapBonus {
        PRESETS
            .iter()
            .map(|&(_, r)| r)
            .find(|r| r.with_handicap_bonus(self.handicap_bonus) == *self)
            .map_or(HandicapBonus::None, |r| r.handicap_bonus)
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
    /// The preset name, or the custom form `ko=..,suicide=..,scoring=..,topology=..`, with
    /// `,handicap=..` where the bonus is not what the other settings' preset would give.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.preset_name() {
            return f.write_str(name);
        }
        write!(
            f,
            "ko={},suicide={},scoring={},topology={}",
            self.ko, self.suicide, self.scoring, self.topology
        )?;
        if self.handicap_bonus != self.usual_handicap_bonus() {
            write!(f, ",handicap={}", self.handicap_bonus.katago_name())?;
        }
        Ok(())
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
            "unknown rules '{}' (presets: {}; or ko=simple|positional|situational,suicide=forbidden|allowed,scoring=area|territory,topology=plane|torus,handicap=0|n|n-1)",
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
    /// `ko=simple,suicide=allowed,scoring=area,topology=torus`. Without `handicap` the bonus
    /// is that of the preset with the same other settings, else none.
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
        let mut handicap_bonus = None;
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
                "handicap" => {
                    handicap_bonus = Some(match value.as_str() {
                        "0" | "none" => HandicapBonus::None,
                        "n" => HandicapBonus::Stones,
                        "n-1" => HandicapBonus::StonesLessOne,
                        _ => return Err(unknown()),
                    })
                }
                _ => return Err(unknown()),
            }
        }
        rules.handicap_bonus = HandicapBonus::None;
        Ok(rules
            .with_handicap_bonus(handicap_bonus.unwrap_or_else(|| rules.usual_handicap_bonus())))
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
    fn handicap_bonus_is_the_preset_s_unless_named() {
        let bonus = |text: &str| text.parse::<Rules>().unwrap().handicap_bonus;
        assert_eq!(bonus("chinese"), HandicapBonus::Stones);
        assert_eq!(bonus("aga"), HandicapBonus::StonesLessOne);
        assert_eq!(bonus("japanese"), HandicapBonus::None);
        assert_eq!(bonus("new-zealand"), HandicapBonus::None);
        assert_eq!(bonus("tromp-taylor"), HandicapBonus::None);
        // The chinese preset's settings spelt out are the preset.
        let spelt = "ko=positional,suicide=forbidden,scoring=area,topology=plane";
        assert_eq!(spelt.parse::<Rules>().unwrap().to_string(), "chinese");
        let custom = format!("{spelt},handicap=0");
        let r: Rules = custom.parse().unwrap();
        assert_eq!(r.handicap_bonus, HandicapBonus::None);
        assert_eq!(r.to_string(), custom);
        assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        let r: Rules = "ko=simple,scoring=territory,handicap=N-1".parse().unwrap();
        assert_eq!(r.handicap_bonus, HandicapBonus::StonesLessOne);
        assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        assert_eq!(HandicapBonus::StonesLessOne.points(1), 0.0);
        assert_eq!(HandicapBonus::StonesLessOne.points(9), 8.0);
        assert_eq!(HandicapBonus::Stones.points(9), 9.0);
        assert!("ko=simple,handicap=2".parse::<Rules>().is_err());
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
