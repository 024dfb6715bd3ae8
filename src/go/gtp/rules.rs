//! Rules commands: KataGo's pair, and the rules in words.

use crate::go::gtp::state::State;
use crate::go::rules::{KoRule, Rules, Scoring};
use crate::go::score::format_points;
use crate::gtp::args::arity;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("kata-set-rules", kata_set_rules),
    command("kata-get-rules", kata_get_rules),
    command("shicho-rules", shicho_rules),
];

fn kata_set_rules(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let rules: Rules = args[0].parse()?;
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
        "{{\"hasButton\":false,\"ko\":\"{ko}\",\"scoring\":\"{scoring}\",\"suicide\":{},\"tax\":\"NONE\",\"whiteHandicapBonus\":\"0\",\"topology\":\"{}\",\"preset\":\"{r}\"}}",
        r.suicide_allowed(),
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
