//! Rules commands: KataGo's pair, KGS's, and the rules in words.

use crate::go::gtp::state::State;
use crate::go::rules::{KoRule, Rules, Scoring};
use crate::go::score::format_points;
use crate::gtp::args::arity;
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("kata-set-rules", kata_set_rules),
    command("kata-get-rules", kata_get_rules),
    command("kgs-rules", kgs_rules),
    command("shicho-rules", shicho_rules),
];

fn kata_set_rules(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let rules: Rules = args[0].parse()?;
    s.set_rules(rules);
    Ok(String::new())
}

/// The rule sets KGS names, each a preset here (`new_zealand` is an alias of
/// `new-zealand`; KGS's Chinese rules are positional superko, as the `chinese` preset is).
const KGS_RULES: [&str; 4] = ["japanese", "chinese", "aga", "new_zealand"];

/// KGS's `kgs-rules NAME`, sent as each game starts. kgsGtp's documentation says more
/// parameters may follow one day and are to be ignored; it ignores the answer too.
fn kgs_rules(s: &mut State, args: &[String]) -> Reply {
    let name = args.first().ok_or(GtpError::Syntax)?;
    let rules = KGS_RULES
        .contains(&name.as_str())
        .then(|| Rules::preset(name))
        .flatten()
        .ok_or_else(|| {
            GtpError::UnknownRules(format!(
                "unknown rules '{name}' (KGS's are {})",
                KGS_RULES.join(", ")
            ))
        })?;
    s.set_rules(rules);
    Ok(String::new())
}

/// KataGo's JSON form, plus the topology and the preset name.
fn kata_get_rules(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let r = s.game().rules();
    let ko = match r.ko {
        KoRule::Simple => "SIMPLE",
        KoRule::Positional => "POSITIONAL",
        KoRule::Situational => "SITUATIONAL",
    };
    let scoring = match r.scoring {
        Scoring::Area => "AREA",
        Scoring::Territory => "TERRITORY",
    };
    Ok(format!(
        "{{\"hasButton\":false,\"ko\":\"{ko}\",\"scoring\":\"{scoring}\",\"suicide\":{},\"tax\":\"NONE\",\"whiteHandicapBonus\":\"{}\",\"topology\":\"{}\",\"preset\":\"{r}\"}}",
        r.suicide_allowed(),
        r.handicap_bonus.katago_name(),
        r.topology.name().to_uppercase()
    ))
}

fn shicho_rules(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    let r = s.game().rules();
    Ok(format!(
        "{r} (ko {}, suicide {}, scoring {}, topology {}), komi {}",
        r.ko,
        r.suicide,
        r.scoring,
        r.topology,
        format_points(s.game().komi())
    ))
}
