//! What every game's typed view reads alike: the main line, the root's `GM` and `SZ`, and a
//! node's move and setup, in SGF's own points (each wing turns them into its own).

use crate::color::Color;
use crate::sgf::error::SgfError;
use crate::sgf::number;
use crate::sgf::point::{SgfPoint, parse_point};
use crate::sgf::tree::{Collection, Node};

/// Who played and where (`None` = pass).
pub type NodeMove = (Color, Option<SgfPoint>);

/// The root of the first game tree of `collection`, and the nodes of its main line after
/// the root: the first variation at every branch.
///
/// # Errors
/// [`SgfError::NoGameTree`] for a collection without a tree or a tree without a node.
pub fn main_line(
    collection: &Collection,
) -> Result<(&Node, impl Iterator<Item = &Node>), SgfError> {
    let tree = collection.0.first().ok_or(SgfError::NoGameTree)?;
    let mut nodes =
        std::iter::successors(Some(tree), |t| t.variations.first()).flat_map(|t| t.nodes.iter());
    let root = nodes.next().ok_or(SgfError::NoGameTree)?;
    Ok((root, nodes))
}

/// Refuses a root whose `GM` names another game than `number` with `other_game`'s error. A
/// root without `GM` is taken for the game the caller asked for.
///
/// # Errors
/// `other_game(GM's value)`.
pub fn check_game(
    root: &Node,
    number: &str,
    other_game: fn(String) -> SgfError,
) -> Result<(), SgfError> {
    match root.value("GM") {
        Some(gm) if gm.trim() != number => Err(other_game(gm.to_string())),
        _ => Ok(()),
    }
}

/// `SZ` = `Number` or `Number ":" Number`: a square board of a size the game is played on
/// (`playable`), or `default` without `SZ`.
///
/// # Errors
/// [`SgfError::BadSize`] for a size that is not a number, not square or not `playable`.
pub fn read_size(
    root: &Node,
    default: usize,
    playable: impl Fn(usize) -> bool,
) -> Result<usize, SgfError> {
    let Some(value) = root.value("SZ") else {
        return Ok(default);
    };
    let bad = || SgfError::BadSize(value.to_string());
    let (w, h) = match value.split_once(':') {
        Some((w, h)) => (w.trim(), h.trim()),
        None => (value.trim(), value.trim()),
    };
    if w != h {
        return Err(bad());
    }
    let size = number::number(w).ok_or_else(bad)? as usize;
    if playable(size) { Ok(size) } else { Err(bad()) }
}

/// The `B` or `W` of a node, if any.
///
/// # Errors
/// [`SgfError::BadMove`] for a node with both or several values for one,
/// [`SgfError::BadPoint`] for a point that is malformed or off a board of `size`.
pub fn node_move(node: &Node, size: usize) -> Result<Option<NodeMove>, SgfError> {
    let mut found = None;
    for property in &node.properties {
        let color = match property.ident.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            _ => continue,
        };
        if found.is_some() {
            return Err(SgfError::BadMove("two moves in one node".to_string()));
        }
        let [value] = property.values.as_slice() else {
            return Err(SgfError::BadMove(format!(
                "{} with {} values",
                property.ident,
                property.values.len()
            )));
        };
        // FF[3] wrote a pass as `tt`, which is a real point on boards above 19.
        let point = if value.is_empty() || (value == "tt" && size <= 19) {
            None
        } else {
            let point = parse_point(value, size).ok_or_else(|| SgfError::BadPoint {
                ident: property.ident.clone(),
                value: value.clone(),
            })?;
            Some(point)
        };
        found = Some((color, point));
    }
    Ok(found)
}

/// The `AB`, `AW` and `AE` (`None`: the point emptied) of a node in property order,
/// compressed lists expanded.
///
/// # Errors
/// [`SgfError::BadPoint`] for a point that is malformed or off a board of `size`.
pub fn node_setup(node: &Node, size: usize) -> Result<Vec<(SgfPoint, Option<Color>)>, SgfError> {
    let mut stones = Vec::new();
    for property in &node.properties {
        let color = match property.ident.as_str() {
            "AB" => Some(Color::Black),
            "AW" => Some(Color::White),
            "AE" => None,
            _ => continue,
        };
        // Some writers emit `AB[]` for "no stones"; it places nothing.
        for value in property.values.iter().filter(|v| !v.is_empty()) {
            let bad = || SgfError::BadPoint {
                ident: property.ident.clone(),
                value: value.clone(),
            };
            let (first, second) = value.split_once(':').unwrap_or((value, value));
            let (x1, y1) = parse_point(first, size).ok_or_else(bad)?;
            let (x2, y2) = parse_point(second, size).ok_or_else(bad)?;
            // Spec order is upper-left then lower-right; accept any two opposite corners.
            // Expanded top row first, left to right, as the points read in the SGF text.
            for y in y1.min(y2)..=y1.max(y2) {
                for x in x1.min(x2)..=x1.max(x2) {
                    stones.push(((x, y), color));
                }
            }
        }
    }
    Ok(stones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parse::parse_collection;

    fn root(text: &str) -> Node {
        parse_collection(text).unwrap().0[0].nodes[0].clone()
    }

    #[test]
    fn points_count_from_the_upper_left_corner() {
        let node = root("(;B[ba]AB[ab:bc]AE[cc])");
        assert_eq!(node_move(&node, 3), Ok(Some((Color::Black, Some((1, 0))))));
        let black = Some(Color::Black);
        assert_eq!(
            node_setup(&node, 3),
            Ok(vec![
                ((0, 1), black),
                ((1, 1), black),
                ((0, 2), black),
                ((1, 2), black),
                ((2, 2), None)
            ])
        );
    }

    #[test]
    fn sizes_within_the_game_s_bounds() {
        let even = |n: usize| n.is_multiple_of(2);
        assert_eq!(read_size(&root("(;)"), 8, even), Ok(8));
        assert_eq!(read_size(&root("(;SZ[ 6 : 6 ])"), 8, even), Ok(6));
        for bad in ["7", "6:8", "x", ""] {
            let node = root(&format!("(;SZ[{bad}])"));
            assert_eq!(
                read_size(&node, 8, even),
                Err(SgfError::BadSize(bad.to_string()))
            );
        }
    }

    #[test]
    fn the_main_line_is_the_first_variation() {
        let collection = parse_collection("(;GM[2];B[aa](;W[bb];B[cc])(;W[dd]))").unwrap();
        let (root, rest) = main_line(&collection).unwrap();
        assert_eq!(check_game(root, "2", SgfError::NotOthello), Ok(()));
        assert_eq!(
            check_game(root, "1", SgfError::NotGo),
            Err(SgfError::NotGo("2".to_string()))
        );
        let moves: Vec<_> = rest.filter_map(|n| n.get("B").or(n.get("W"))).collect();
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[2].values, ["cc"]);
    }
}
