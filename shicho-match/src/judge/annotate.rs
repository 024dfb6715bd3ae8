//! The judge's win rates in a game's SGF record, where Sabaki and Lizzie read them.
//!
//! - **Sabaki** (`src/modules/sabaki.js`, its win-rate graph) reads `SBKV` on every node:
//!   Black's win rate in percent for the position at that node (after its move), and
//!   `SBKS`, Black's score lead, when the judge gives one. The root node carries the
//!   position before the first move.
//! - **Lizzie** (`SGFParser.java`) reads `LZ[<version> <win rate> <playouts>]` on move
//!   nodes: the win rate in percent of the player who made the node's move (Lizzie keeps the
//!   side to move's and writes `100 - it`), and the visits.
//!
//! The record is read with shicho's SGF parser into the generic tree (which keeps every
//! property), the judge's properties are replaced or added on the main line, and the tree
//! is written back; everything else in the file is kept.

use shicho::Color;
use shicho::sgf::{GameTree, Node, Property, parse_collection};

use crate::judge::evaluate::Evaluation;

/// Nodes a line in the written file, as the referee writes moves.
const NODES_PER_LINE: usize = 10;

/// `text` with the judge's `evaluations` (one per position: before the first move, then
/// after each move of the main line) on its main line. Earlier `SBKV`, `SBKS` and `LZ`
/// values are replaced.
///
/// # Errors
/// The text is no SGF, or its main line has another number of moves than `evaluations`
/// covers.
pub fn annotate(text: &str, evaluations: &[Evaluation]) -> Result<String, String> {
    let mut collection = parse_collection(text).map_err(|e| e.to_string())?;
    let tree = collection
        .0
        .first_mut()
        .ok_or_else(|| "no game tree".to_string())?;
    let mut position = 0;
    let mut count_error = None;
    let mut root = true;
    walk_main_line(tree, &mut |node: &mut Node| {
        node.properties
            .retain(|p| !matches!(p.ident.as_str(), "SBKV" | "SBKS" | "LZ"));
        let mover = node_mover(node);
        if mover.is_some() {
            position += 1;
        } else if !root {
            // A setup node between moves: no position of its own to show.
            return;
        }
        root = false;
        let Some(e) = evaluations.get(position) else {
            count_error = Some(position);
            return;
        };
        let value = |ident: &str, v: String| Property {
            ident: ident.to_string(),
            values: vec![v],
        };
        node.properties
            .push(value("SBKV", format!("{:.2}", 100.0 * e.black)));
        if let Some(lead) = e.black_lead {
            node.properties.push(value("SBKS", format!("{lead:.2}")));
        }
        if let Some(c) = mover {
            let own = if c == Color::Black {
                e.black
            } else {
                1.0 - e.black
            };
            node.properties.push(value(
                "LZ",
                format!("shicho-match {:.1} {}", 100.0 * own, e.visits),
            ));
        }
    });
    if let Some(p) = count_error {
        return Err(format!(
            "the record has more moves than the {} positions judged (position {p})",
            evaluations.len()
        ));
    }
    if position + 1 != evaluations.len() {
        return Err(format!(
            "the record has {position} moves, the judge saw {}",
            evaluations.len().saturating_sub(1)
        ));
    }
    Ok(write_collection(&collection.0))
}

/// The colour of the node's move, if it has one.
fn node_mover(node: &Node) -> Option<Color> {
    if node.get("B").is_some() {
        Some(Color::Black)
    } else if node.get("W").is_some() {
        Some(Color::White)
    } else {
        None
    }
}

/// Calls `f` on every node of the main line (the first variation at every branch), in
/// order.
fn walk_main_line(tree: &mut GameTree, f: &mut dyn FnMut(&mut Node)) {
    let mut tree = tree;
    loop {
        for node in &mut tree.nodes {
            f(node);
        }
        match tree.variations.first_mut() {
            Some(next) => tree = next,
            None => return,
        }
    }
}

/// The game trees as SGF text: the root node on the first line, then `NODES_PER_LINE`
/// nodes a line.
fn write_collection(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for tree in trees {
        let mut count = 0;
        write_tree(&mut out, tree, &mut count);
        out.push('\n');
    }
    out
}

fn write_tree(out: &mut String, tree: &GameTree, count: &mut usize) {
    out.push('(');
    for node in &tree.nodes {
        if *count == 1 || (*count > 1 && (*count - 1).is_multiple_of(NODES_PER_LINE)) {
            out.push('\n');
        }
        *count += 1;
        out.push(';');
        for p in &node.properties {
            out.push_str(&p.ident);
            for v in &p.values {
                out.push('[');
                for c in v.chars() {
                    if c == ']' || c == '\\' {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push(']');
            }
        }
    }
    for v in &tree.variations {
        write_tree(out, v, count);
    }
    out.push(')');
}

#[cfg(test)]
mod tests {
    use super::*;
    use shicho::go::sgf::SgfGame;

    fn eval(black: f64) -> Evaluation {
        Evaluation {
            black,
            black_lead: None,
            visits: 7,
        }
    }

    #[test]
    fn values_land_on_the_main_line_and_the_rest_is_kept() {
        let text =
            "(;FF[4]GM[1]SZ[9]C[a \\] b]\n;B[ee]C[1.2 s];AB[aa];W[cc]SBKV[1](;B[]LZ[x])(;B[gg]))\n";
        let out = annotate(text, &[eval(0.5), eval(0.6), eval(0.25), eval(0.125)]).unwrap();
        let c = parse_collection(&out).unwrap();
        let game = SgfGame::from_collection(&c).unwrap();
        assert_eq!(game.moves.len(), 3);
        assert_eq!(game.info.comment.as_deref(), Some("a ] b"));
        assert_eq!(game.moves[0].comment.as_deref(), Some("1.2 s"));
        let main: Vec<&Node> = {
            let t = &c.0[0];
            t.nodes.iter().chain(t.variations[0].nodes.iter()).collect()
        };
        let sbkv: Vec<Option<&str>> = main.iter().map(|n| n.value("SBKV")).collect();
        assert_eq!(
            sbkv,
            [
                Some("50.00"),
                Some("60.00"),
                None,
                Some("25.00"),
                Some("12.50")
            ]
        );
        // White's move at 25% for Black is 75% for White; Black's pass at 12.5%.
        assert_eq!(main[3].value("LZ"), Some("shicho-match 75.0 7"));
        assert_eq!(main[4].value("LZ"), Some("shicho-match 12.5 7"));
        // The second variation is kept, unannotated.
        assert!(c.0[0].variations[1].nodes[0].get("SBKV").is_none());
        // Annotating again replaces the values.
        let again = annotate(&out, &[eval(0.1), eval(0.2), eval(0.3), eval(0.4)]).unwrap();
        assert_eq!(again.matches("SBKV").count(), 4);
        assert!(again.contains("SBKV[40.00]"));
    }

    #[test]
    fn a_count_mismatch_is_an_error() {
        let text = "(;SZ[9];B[ee];W[cc])";
        assert!(annotate(text, &[eval(0.5), eval(0.5)]).is_err());
        assert!(annotate(text, &[eval(0.5); 4]).is_err());
        assert!(annotate("not sgf", &[]).is_err());
    }
}
