//! A query's `rules`: KataGo's names and rule objects, read as shicho's [`Rules`].
//!
//! A name is first one of shicho's presets or aliases, as `kata-set-rules` reads it
//! (`chinese` is shicho's, with positional superko), then one of KataGo's other spellings
//! (`new zealand`, `stone_scoring`, `chinese-kgs`, `bga`, ...), then shicho's own
//! `ko=..,suicide=..` form. An object sets KataGo's keys over KataGo's default for
//! objects (Tromp-Taylor-like: positional superko, area scoring, suicide allowed). What
//! shicho does not model (a button, a tax on every group) is dropped with a warning that
//! names the rules used instead, as KataGo warns when its network lacks a rule; what does
//! not change play or scoring here (`friendlyPassOk`) is taken silently.

use serde_json::Value;

use crate::go::rules::{HandicapBonus, KoRule, Rules, Scoring, SuicideRule};

/// Rules as read, with the komi they imply and what was left out.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadRules {
    pub rules: Rules,
    /// The komi a query without `komi` gets: KataGo's for these rules.
    pub komi: f64,
    /// Set when the rules asked for something shicho cannot play (a button, a tax).
    pub approximated: bool,
}

/// KataGo's names beyond shicho's presets and aliases (compared without case, spaces,
/// dashes or underscores), the preset each is played as here, the komi KataGo gives it,
/// and whether something of it is lost.
const KATAGO_NAMES: [(&str, &str, f64, bool); 14] = [
    ("japanese", "japanese", 6.5, false),
    ("korean", "japanese", 6.5, false),
    ("chinese", "chinese", 7.5, false),
    ("chineseogs", "chinese", 7.5, false),
    ("chinesekgs", "chinese", 7.5, false),
    ("stonescoring", "chinese", 7.5, true),
    ("ancientarea", "chinese", 7.5, true),
    ("ancientterritory", "japanese", 6.5, true),
    ("aga", "aga", 7.5, false),
    ("bga", "aga", 7.5, false),
    ("french", "aga", 7.5, false),
    ("agabutton", "aga", 7.0, true),
    ("newzealand", "new-zealand", 7.0, false),
    ("tromptaylor", "tromp-taylor", 7.5, false),
];

/// KataGo's other names for its `nz`, `goe` and `ing` rules.
const SHORT_NAMES: [(&str, &str, f64); 3] = [
    ("nz", "new-zealand", 7.0),
    ("goe", "tromp-taylor", 7.5),
    ("ing", "tromp-taylor", 7.5),
];

fn squeezed(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The komi a user of `rules` expects (KataGo's and shicho's defaults agree on these).
fn default_komi(rules: &Rules) -> f64 {
    rules.default_komi()
}

/// Reads a rules name.
fn by_name(name: &str) -> Option<ReadRules> {
    let key = squeezed(name.trim());
    let known = KATAGO_NAMES
        .iter()
        .map(|&(k, preset, komi, lost)| (k, preset, komi, lost))
        .chain(SHORT_NAMES.iter().map(|&(k, p, komi)| (k, p, komi, false)))
        .find(|(k, ..)| *k == key);
    if let Some((_, preset, komi, approximated)) = known {
        // Shicho's own preset of the name when it has one (`chinese`: positional superko).
        let rules = Rules::preset(name.trim()).or_else(|| Rules::preset(preset))?;
        return Some(ReadRules {
            rules,
            komi,
            approximated,
        });
    }
    let rules: Rules = name.parse().ok()?;
    Some(ReadRules {
        rules,
        komi: default_komi(&rules),
        approximated: false,
    })
}

/// Reads a rules object: KataGo's keys `ko`, `scoring` (or `score`), `tax`, `suicide`,
/// `hasButton`, `whiteHandicapBonus`, `friendlyPassOk`, `komi`.
fn by_object(object: &serde_json::Map<String, Value>) -> Option<ReadRules> {
    let mut rules = Rules::preset("tromp-taylor")?;
    let mut komi = None;
    let mut approximated = false;
    for (key, value) in object {
        match key.as_str() {
            "ko" => {
                rules.ko = match value.as_str()?.to_ascii_uppercase().as_str() {
                    "SIMPLE" => KoRule::Simple,
                    "POSITIONAL" => KoRule::Positional,
                    "SITUATIONAL" => KoRule::Situational,
                    _ => return None,
                }
            }
            "scoring" | "score" => {
                rules.scoring = match value.as_str()?.to_ascii_uppercase().as_str() {
                    "AREA" => Scoring::Area,
                    "TERRITORY" => Scoring::Territory,
                    _ => return None,
                }
            }
            "tax" => match value.as_str()?.to_ascii_uppercase().as_str() {
                "NONE" | "SEKI" => {}
                "ALL" => approximated = true,
                _ => return None,
            },
            "suicide" => {
                rules.suicide = if value.as_bool()? {
                    SuicideRule::Allowed
                } else {
                    SuicideRule::Forbidden
                }
            }
            "hasButton" => approximated |= value.as_bool()?,
            "friendlyPassOk" => {
                value.as_bool()?;
            }
            "whiteHandicapBonus" => rules.handicap_bonus = handicap_bonus(value.as_str()?)?,
            "komi" => {
                let k = value.as_f64()?;
                if !(-400.0..=400.0).contains(&k) || (k * 2.0).fract() != 0.0 {
                    return None;
                }
                komi = Some(k);
            }
            _ => return None,
        }
    }
    Some(ReadRules {
        rules,
        komi: komi.unwrap_or_else(|| default_komi(&rules)),
        approximated,
    })
}

/// KataGo's name of a handicap bonus (`0`, `N`, `N-1`).
pub fn handicap_bonus(name: &str) -> Option<HandicapBonus> {
    match name {
        "0" => Some(HandicapBonus::None),
        "N" => Some(HandicapBonus::Stones),
        "N-1" => Some(HandicapBonus::StonesLessOne),
        _ => None,
    }
}

/// What went wrong with a query's `rules`, as KataGo words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Neither a string nor an object.
    WrongType,
    /// `Could not parse rules: TEXT` (an object as its JSON text).
    Unknown(String),
}

impl RulesError {
    pub fn text(&self) -> String {
        match self {
            RulesError::WrongType => "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.".to_string(),
            RulesError::Unknown(text) => format!("Could not parse rules: {text}"),
        }
    }
}

/// Reads a query's `rules` value.
///
/// # Errors
/// A value of the wrong type, or rules neither KataGo nor shicho knows.
pub fn read(value: &Value) -> Result<ReadRules, RulesError> {
    match value {
        Value::String(name) => by_name(name).ok_or_else(|| RulesError::Unknown(name.clone())),
        Value::Object(object) => {
            by_object(object).ok_or_else(|| RulesError::Unknown(value.to_string()))
        }
        _ => Err(RulesError::WrongType),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn preset(name: &str) -> Rules {
        Rules::preset(name).unwrap()
    }

    #[test]
    fn names_are_shichos_presets_then_katagos_spellings() {
        for (name, expected, komi) in [
            ("chinese", "chinese", 7.5),
            ("japanese", "japanese", 6.5),
            ("Korean", "japanese", 6.5),
            ("new zealand", "new-zealand", 7.0),
            ("stone_scoring", "chinese", 7.5),
            ("tromp-taylor", "tromp-taylor", 7.5),
            ("chinese-kgs", "chinese", 7.5),
            ("bga", "aga", 7.5),
            ("daoqi", "daoqi", 4.0),
        ] {
            let r = read(&json!(name)).unwrap();
            assert_eq!(r.rules, preset(expected), "{name}");
            assert_eq!(r.komi, komi, "{name}");
        }
        assert!(read(&json!("aga-button")).unwrap().approximated);
        assert!(!read(&json!("aga")).unwrap().approximated);
        let custom = read(&json!("ko=simple,scoring=territory")).unwrap();
        assert_eq!(custom.rules.ko, KoRule::Simple);
    }

    #[test]
    fn objects_set_katagos_keys_over_tromp_taylor() {
        let r = read(
            &json!({"ko":"SIMPLE","scoring":"TERRITORY","tax":"SEKI","suicide":false,
            "hasButton":false,"whiteHandicapBonus":"0","friendlyPassOk":true}),
        )
        .unwrap();
        assert_eq!(r.rules, preset("japanese"));
        assert_eq!(r.komi, 6.5);
        assert!(!r.approximated);
        let r = read(&json!({"komi": 5.5})).unwrap();
        assert_eq!((r.rules, r.komi), (preset("tromp-taylor"), 5.5));
        assert!(read(&json!({"hasButton": true})).unwrap().approximated);
        let r = read(&json!({"scoring":"AREA","whiteHandicapBonus":"N-1"})).unwrap();
        assert_eq!(r.rules.handicap_bonus, HandicapBonus::StonesLessOne);
        assert!(read(&json!({"whiteHandicapBonus":"N+1"})).is_err());
    }

    #[test]
    fn errors_are_katagos() {
        assert_eq!(
            read(&json!("bogus")).unwrap_err().text(),
            "Could not parse rules: bogus"
        );
        assert_eq!(
            read(&json!({"ko":"WEIRD"})).unwrap_err().text(),
            r#"Could not parse rules: {"ko":"WEIRD"}"#
        );
        assert_eq!(
            read(&json!({"foo":1})).unwrap_err().text(),
            r#"Could not parse rules: {"foo":1}"#
        );
        assert_eq!(read(&json!(5)), Err(RulesError::WrongType));
        assert_eq!(read(&json!({"komi": 7.3})).ok(), None);
    }
}
