//! What every game's SGF writer shares: the start of the root node, properties with their
//! values escaped, setup grouped by kind, and the layout of the move lines.

use crate::color::Color;

/// Moves per line, to keep lines short enough for text tools and mail.
pub const MOVES_PER_LINE: usize = 10;

/// A record's first line up to its board: `(;FF[4]GM[game]CA[UTF-8]AP[shicho:version]SZ[size]`.
/// The game's own properties and the [`GameInfo`](crate::sgf::info::GameInfo) follow.
pub fn record_start(game: u32, size: usize) -> String {
    let mut out = format!("(;FF[4]GM[{game}]CA[UTF-8]");
    push_property(
        &mut out,
        "AP",
        &format!("shicho:{}", env!("CARGO_PKG_VERSION")),
    );
    push_property(&mut out, "SZ", &size.to_string());
    out
}

/// `ident[value]` with `value` escaped.
pub fn push_property(out: &mut String, ident: &str, value: &str) {
    out.push_str(ident);
    push_value(out, value);
}

/// `[value]`, escaping the two characters that would end or escape the value early.
pub fn push_value(out: &mut String, value: &str) {
    out.push('[');
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}

/// `AB`, `AW` and `AE` (`None`) for points already in SGF letters: one property per kind
/// that has points, each kind in list order.
pub fn push_setup(out: &mut String, stones: &[(String, Option<Color>)]) {
    for (ident, color) in [
        ("AB", Some(Color::Black)),
        ("AW", Some(Color::White)),
        ("AE", None),
    ] {
        let mut first = true;
        for (point, _) in stones.iter().filter(|(_, c)| *c == color) {
            if first {
                out.push_str(ident);
                first = false;
            }
            push_value(out, point);
        }
    }
}

/// The main line, [`MOVES_PER_LINE`] moves to a line, each line after a line break:
/// `nodes` writes the nodes of one move (its [`push_move`], and any node before it).
pub fn push_main_line<M>(out: &mut String, moves: &[M], mut nodes: impl FnMut(&mut String, &M)) {
    for (i, m) in moves.iter().enumerate() {
        if i % MOVES_PER_LINE == 0 {
            out.push('\n');
        }
        nodes(out, m);
    }
}

/// A move's node: `;B[pd]`, `;W[]` for a pass, with the node's comment.
pub fn push_move(out: &mut String, color: Color, point: &str, comment: Option<&str>) {
    out.push(';');
    push_property(out, &color.letter().to_string(), point);
    if let Some(comment) = comment {
        push_property(out, "C", comment);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_is_grouped_by_kind_and_moves_by_line() {
        let mut out = String::new();
        let stone = |p: &str, c| (p.to_string(), c);
        let (b, w) = (Some(Color::Black), Some(Color::White));
        push_setup(
            &mut out,
            &[
                stone("aa", w),
                stone("bb", None),
                stone("cc", b),
                stone("dd", w),
            ],
        );
        assert_eq!(out, "AB[cc]AW[aa][dd]AE[bb]");

        let mut out = String::new();
        let moves: Vec<usize> = (0..12).collect();
        push_main_line(&mut out, &moves, |out, &i| {
            let comment = (i == 1).then_some("a]b");
            push_move(
                out,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                "",
                comment,
            );
        });
        assert_eq!(
            out,
            "\n;B[];W[]C[a\\]b];B[];W[];B[];W[];B[];W[];B[];W[]\n;B[];W[]"
        );
    }
}
