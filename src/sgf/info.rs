//! The game information every game's record keeps in its root node: the players, the
//! result, when and where, the time, who is to move and the root's comment.

use std::str::FromStr;

use crate::color::Color;
use crate::sgf::number;
use crate::sgf::tree::Node;
use crate::sgf::write::push_property;

/// What a record's root says about the game beyond its board, as every game reads and
/// writes it. `PL` and the root's `C` are here too: FF[4] files them under setup and
/// annotation, but they belong to the root as the rest does, and are read and written with
/// it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GameInfo {
    /// `PB`
    pub black_name: Option<String>,
    /// `PW`
    pub white_name: Option<String>,
    /// `BR`
    pub black_rank: Option<String>,
    /// `WR`
    pub white_rank: Option<String>,
    /// `RE` (`B+R`, `W+2.5`, `B+12`, `0`, `Void`, ...), uninterpreted.
    pub result: Option<String>,
    /// `DT`
    pub date: Option<String>,
    /// `EV`
    pub event: Option<String>,
    /// `GN`
    pub game_name: Option<String>,
    /// `TM`: main time in seconds.
    pub time_limit: Option<f64>,
    /// `OT`: overtime system, free text.
    pub overtime: Option<String>,
    /// `PL`: who moves first in the start position.
    pub player_to_move: Option<Color>,
    /// The root node's `C`.
    pub comment: Option<String>,
}

impl GameInfo {
    /// The game information of `root`. Malformed values (`TM`, `PL`) are logged and left
    /// out: the game can be replayed without them.
    pub fn read(root: &Node) -> GameInfo {
        let text = |ident: &str| root.value(ident).map(str::to_string);
        GameInfo {
            black_name: text("PB"),
            white_name: text("PW"),
            black_rank: text("BR"),
            white_rank: text("WR"),
            result: text("RE"),
            date: text("DT"),
            event: text("EV"),
            game_name: text("GN"),
            time_limit: info_value(root, "TM", number::real),
            overtime: text("OT"),
            player_to_move: info_value(root, "PL", |v| Color::from_str(v).ok()),
            comment: text("C"),
        }
    }

    /// Appends the properties present, in the order shicho's records have them: players
    /// and ranks, date, event, name, result, time, `PL`, comment. A non-finite time is left
    /// out.
    pub fn write(&self, out: &mut String) {
        let texts = [
            ("PB", &self.black_name),
            ("BR", &self.black_rank),
            ("PW", &self.white_name),
            ("WR", &self.white_rank),
            ("DT", &self.date),
            ("EV", &self.event),
            ("GN", &self.game_name),
            ("RE", &self.result),
        ];
        for (ident, text) in texts {
            if let Some(text) = text {
                push_property(out, ident, text);
            }
        }
        if let Some(time) = self.time_limit.filter(|t| t.is_finite()) {
            push_property(out, "TM", &time.to_string());
        }
        if let Some(overtime) = &self.overtime {
            push_property(out, "OT", overtime);
        }
        if let Some(color) = self.player_to_move {
            push_property(out, "PL", &color.letter().to_string());
        }
        if let Some(comment) = &self.comment {
            push_property(out, "C", comment);
        }
    }
}

/// A game-information value, or `None` (with a warning) when it does not parse.
pub fn info_value<T>(node: &Node, ident: &str, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
    let value = node.value(ident)?;
    let parsed = parse(value.trim());
    if parsed.is_none() {
        log::warn!("ignoring malformed SGF {ident}[{value}]");
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parse::parse_collection;

    fn root(text: &str) -> Node {
        parse_collection(text).unwrap().0[0].nodes[0].clone()
    }

    #[test]
    fn written_information_reads_back() {
        let info = GameInfo {
            black_name: Some("a]b\\c".to_string()),
            white_name: Some(String::new()),
            black_rank: Some("3d".to_string()),
            white_rank: None,
            result: Some("B+12".to_string()),
            date: Some("2026-01-02".to_string()),
            event: Some("Cup".to_string()),
            game_name: Some("Final".to_string()),
            time_limit: Some(600.5),
            overtime: Some("5x30 byo-yomi".to_string()),
            player_to_move: Some(Color::White),
            comment: Some("line\nbreak".to_string()),
        };
        let mut text = String::from("(;");
        info.write(&mut text);
        text.push(')');
        assert_eq!(
            text,
            "(;PB[a\\]b\\\\c]BR[3d]PW[]DT[2026-01-02]EV[Cup]GN[Final]RE[B+12]TM[600.5]\
             OT[5x30 byo-yomi]PL[W]C[line\nbreak])"
        );
        assert_eq!(GameInfo::read(&root(&text)), info);
    }

    #[test]
    fn malformed_values_are_left_out() {
        let info = GameInfo::read(&root("(;TM[lots]PL[X]PB[ann])"));
        assert_eq!((info.time_limit, info.player_to_move), (None, None));
        assert_eq!(info.black_name.as_deref(), Some("ann"));
        let info = GameInfo::read(&root("(;TM[ 60 ]PL[ b ])"));
        assert_eq!(info.time_limit, Some(60.0));
        assert_eq!(info.player_to_move, Some(Color::Black));
    }
}
