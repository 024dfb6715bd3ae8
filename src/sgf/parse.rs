//! SGF text -> [`Collection`].
//!
//! The leaves (properties, nodes, sequences) are nom parsers; game-tree nesting is handled by
//! a loop with an explicit stack, so that hostile input such as `(;(;(;(;...` cannot overflow
//! the call stack. Grammar rules are quoted from the FF[4] specification (EBNF):
//!
//! ```text
//! Collection = GameTree { GameTree }
//! GameTree   = "(" Sequence { GameTree } ")"
//! Sequence   = Node { Node }
//! Node       = ";" { Property }
//! Property   = PropIdent PropValue { PropValue }
//! PropIdent  = UcLetter { UcLetter }
//! PropValue  = "[" CValueType "]"
//! ```
//!
//! White space is allowed between any two of these tokens.

use std::collections::VecDeque;

use nom::branch::alt;
use nom::bytes::complete::{is_not, tag, take, take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::{cut, map, map_opt, opt, value};
use nom::multi::{many0, many1};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::sgf::error::SgfError;
use crate::sgf::tree::{Collection, GameTree, MAX_VARIATION_DEPTH, Node, Property};

/// `ws = *white-space`, which the spec allows between any two tokens.
///
/// `take_while` rather than nom's `multispace0`, which in nom 8.0.0 returns a misplaced
/// remainder at the end of the input (rust-bakery/nom#1808) and would skew error offsets.
fn ws(input: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// `PropIdent = UcLetter { UcLetter }`, extended as FF[3] readers do: lower-case letters may
/// be mixed in (`AddBlack`) and are dropped, leaving `AB`.
fn prop_ident(input: &str) -> IResult<&str, String> {
    map_opt(
        take_while1(|c: char| c.is_ascii_alphabetic()),
        |word: &str| {
            let ident: String = word.chars().filter(char::is_ascii_uppercase).collect();
            (!ident.is_empty()).then_some(ident)
        },
    )
    .parse(input)
}

/// `line-break = CR LF / LF CR / LF / CR`: after a backslash it is a soft line break and
/// disappears from the value.
fn line_break(input: &str) -> IResult<&str, &str> {
    alt((tag("\r\n"), tag("\n\r"), tag("\n"), tag("\r"))).parse(input)
}

/// `PropValue = "[" CValueType "]"`, unescaped: `\x` stands for `x` (so `\]` is `]` and `\\`
/// is `\`), and a backslash before a line break removes both.
///
/// Compose values (`aa:cc`) are returned whole; the typed view splits them. An escaped `:`
/// is therefore indistinguishable from a separator, which only matters for text compose
/// values such as `AP[name:version]`, none of which the engine reads.
fn prop_value(input: &str) -> IResult<&str, String> {
    let escaped = nom::bytes::complete::escaped_transform(
        is_not("\\]"),
        '\\',
        alt((value("", line_break), take(1usize))),
    );
    preceded(
        char('['),
        cut(terminated(
            map(opt(escaped), Option::unwrap_or_default),
            char(']'),
        )),
    )
    .parse(input)
}

/// `Property = PropIdent PropValue { PropValue }`
///
/// Once an identifier has been read its values must follow (`cut`), so that a broken value
/// is reported where it is rather than where the node happens to end.
fn property(input: &str) -> IResult<&str, Property> {
    map(
        (prop_ident, cut(many1(preceded(ws, prop_value)))),
        |(ident, values)| Property { ident, values },
    )
    .parse(input)
}

/// `Node = ";" { Property }`
fn node(input: &str) -> IResult<&str, Node> {
    map(
        preceded(char(';'), many0(preceded(ws, property))),
        |properties| Node { properties },
    )
    .parse(input)
}

/// `Sequence = Node { Node }`
fn sequence(input: &str) -> IResult<&str, Vec<Node>> {
    many1(preceded(ws, node)).parse(input)
}

/// `"(" ws ";"`: where a game tree starts. Used to skip text outside game trees, which
/// files carry in the form of mail headers, trailing Ctrl-Z or NUL padding.
fn tree_start(input: &str) -> IResult<&str, &str> {
    terminated(tag("("), (ws, char(';'))).parse(input)
}

/// The byte offset of `rest` in `text`, from lengths alone since `rest` is always a suffix.
fn offset(text: &str, rest: &str) -> usize {
    text.len().saturating_sub(rest.len())
}

/// A syntax error at `rest`, described by what is found there.
fn syntax_error(text: &str, rest: &str) -> SgfError {
    let reason = match rest.chars().next() {
        None => "unexpected end of input".to_string(),
        Some(c) => format!("unexpected {c:?}"),
    };
    SgfError::Syntax {
        offset: offset(text, rest),
        reason,
    }
}

/// The remaining input a nom error points at.
fn error_input<'a>(error: &nom::Err<nom::error::Error<&'a str>>) -> &'a str {
    match error {
        nom::Err::Error(e) | nom::Err::Failure(e) => e.input,
        // Only streaming parsers ask for more input; these are all complete parsers.
        nom::Err::Incomplete(_) => "",
    }
}

/// A closed game tree whose node list can still grow at the front, because it may yet be
/// folded into its parent.
struct Pending {
    nodes: VecDeque<Node>,
    variations: Vec<GameTree>,
    /// Nesting depth of `variations`: 0 without any.
    height: usize,
}

impl Pending {
    fn finish(self) -> GameTree {
        GameTree {
            nodes: Vec::from(self.nodes),
            variations: self.variations,
        }
    }
}

/// A game tree whose `(` has been read but not yet its `)`.
struct Open {
    nodes: VecDeque<Node>,
    variations: Vec<Pending>,
}

impl Open {
    /// Closes the tree. A single variation is folded into it: `(;a(;b))` is `(;a;b)`, and a
    /// file that nests every move that way would otherwise hit the depth limit.
    /// The parent's nodes are moved in front of the child's, not the other way round, so a
    /// long chain of such folds stays linear in the input size.
    fn close(mut self) -> Result<Pending, SgfError> {
        let last = self.variations.pop();
        let pending = match last {
            Some(mut only) if self.variations.is_empty() => {
                while let Some(node) = self.nodes.pop_back() {
                    only.nodes.push_front(node);
                }
                only
            }
            last => {
                self.variations.extend(last);
                let height = self
                    .variations
                    .iter()
                    .map(|v| v.height + 1)
                    .max()
                    .unwrap_or(0);
                Pending {
                    nodes: self.nodes,
                    variations: self.variations.into_iter().map(Pending::finish).collect(),
                    height,
                }
            }
        };
        if pending.height > MAX_VARIATION_DEPTH {
            return Err(SgfError::TooDeep);
        }
        Ok(pending)
    }
}

/// Parses SGF text into its game trees.
///
/// Text before, between and after game trees is skipped. Property values are unescaped but
/// otherwise untouched (no white-space conversion: the generic tree does not know which
/// values are text).
///
/// # Errors
/// [`SgfError::NoGameTree`] when there is no `(;` at all, [`SgfError::Syntax`] for broken
/// trees (unclosed brackets or parentheses, stray characters), [`SgfError::TooDeep`] for
/// variations nested deeper than [`MAX_VARIATION_DEPTH`].
pub fn parse_collection(text: &str) -> Result<Collection, SgfError> {
    let mut trees = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut rest = text;
    loop {
        if stack.is_empty() {
            match next_tree_start(rest) {
                Some(start) => rest = start,
                None => break,
            }
        }
        let (after_ws, _) = ws(rest).map_err(|e| syntax_error(text, error_input(&e)))?;
        rest = after_ws;
        if let Some(after_paren) = rest.strip_prefix('(') {
            let (after, nodes) =
                sequence(after_paren).map_err(|e| syntax_error(text, error_input(&e)))?;
            stack.push(Open {
                nodes: VecDeque::from(nodes),
                variations: Vec::new(),
            });
            rest = after;
        } else if let Some(after_paren) = rest.strip_prefix(')') {
            // `stack` is non-empty here: an empty stack only continues at a tree start.
            let Some(open) = stack.pop() else {
                return Err(syntax_error(text, rest));
            };
            let closed = open.close()?;
            match stack.last_mut() {
                Some(parent) => parent.variations.push(closed),
                None => trees.push(closed.finish()),
            }
            rest = after_paren;
        } else {
            return Err(syntax_error(text, rest));
        }
    }
    if trees.is_empty() {
        return Err(SgfError::NoGameTree);
    }
    Ok(Collection(trees))
}

/// The input from the next `(;` on, if there is one.
fn next_tree_start(mut rest: &str) -> Option<&str> {
    loop {
        if tree_start(rest).is_ok() {
            return Some(rest);
        }
        let mut chars = rest.chars();
        chars.next()?;
        let after = chars.as_str();
        rest = after.get(after.find('(')?..)?;
    }
}

/// Parses SGF bytes of unknown encoding.
///
/// Valid UTF-8 is kept; every byte that is not part of valid UTF-8 is read as Latin-1. That
/// decodes UTF-8 and Latin-1 files correctly, never fails, and keeps one byte per character
/// for other encodings (GB2312, Big5, Shift-JIS show as mojibake), so their brackets and
/// backslashes are still seen where the writer put them. `CA` is not consulted.
///
/// # Errors
/// As [`parse_collection`]; offsets refer to the decoded text.
pub fn parse_collection_bytes(bytes: &[u8]) -> Result<Collection, SgfError> {
    parse_collection(&decode(bytes))
}

/// UTF-8 where valid, Latin-1 elsewhere.
fn decode(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(chunk.invalid().iter().map(|&b| char::from(b)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prop(ident: &str, values: &[&str]) -> Property {
        Property {
            ident: ident.to_string(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    fn node_of(props: Vec<Property>) -> Node {
        Node { properties: props }
    }

    #[test]
    fn values_are_unescaped() {
        let cases = [
            ("[]", ""),
            ("[pd]", "pd"),
            (r"[a\]b]", "a]b"),
            (r"[a\\]", r"a\"),
            (r"[a\\\]]", r"a\]"),
            ("[soft\\\nbreak]", "softbreak"),
            ("[soft\\\r\nbreak]", "softbreak"),
            ("[hard\nbreak]", "hard\nbreak"),
            (r"[\q\:]", "q:"),
            ("[été]", "été"),
        ];
        for (text, want) in cases {
            assert_eq!(prop_value(text), Ok(("", want.to_string())), "{text:?}");
        }
        for text in ["[abc", r"[abc\]", r"[abc\", "abc]"] {
            assert!(prop_value(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn identifiers_drop_lower_case_letters() {
        assert_eq!(prop_ident("AddBlack[aa]"), Ok(("[aa]", "AB".to_string())));
        assert_eq!(prop_ident("KM[6]"), Ok(("[6]", "KM".to_string())));
        assert!(prop_ident("black[aa]").is_err());
        assert!(prop_ident("[aa]").is_err());
    }

    #[test]
    fn nodes_with_white_space_everywhere() {
        let text = "( ;\n FF [4]\tAB [aa] \r\n [bb:cc] ; B[] )";
        let collection = parse_collection(text).unwrap();
        assert_eq!(
            collection,
            Collection(vec![GameTree {
                nodes: vec![
                    node_of(vec![prop("FF", &["4"]), prop("AB", &["aa", "bb:cc"])]),
                    node_of(vec![prop("B", &[""])]),
                ],
                variations: vec![],
            }])
        );
    }

    #[test]
    fn variations_nest_and_single_ones_fold() {
        let tree = |nodes: &[&str], variations| GameTree {
            nodes: nodes
                .iter()
                .map(|n| node_of(vec![prop("C", &[n])]))
                .collect(),
            variations,
        };
        let got = parse_collection("(;C[a](;C[b](;C[c]));C[x])").map(|c| c.0);
        assert!(got.is_err(), "a node after a variation is not SGF");

        let got = parse_collection("(;C[a](;C[b](;C[c])))(;C[z])").unwrap();
        assert_eq!(
            got,
            Collection(vec![tree(&["a", "b", "c"], vec![]), tree(&["z"], vec![])])
        );

        let got = parse_collection("(;C[a](;C[b](;C[c])(;C[d]))(;C[e]))").unwrap();
        assert_eq!(
            got,
            Collection(vec![tree(
                &["a"],
                vec![
                    tree(&["b"], vec![tree(&["c"], vec![]), tree(&["d"], vec![])]),
                    tree(&["e"], vec![]),
                ]
            )])
        );
    }

    #[test]
    fn text_around_trees_is_skipped() {
        let text = "Ë from Zoë (really)\n\n(;GM[1])\n--\né(;C[x]) \x1a\0";
        let got = parse_collection(text).unwrap();
        assert_eq!(got.0.len(), 2);
        assert_eq!(got.0[1].nodes[0].value("C"), Some("x"));
    }

    #[test]
    fn broken_text_is_an_error() {
        assert_eq!(parse_collection(""), Err(SgfError::NoGameTree));
        assert_eq!(parse_collection("garbage"), Err(SgfError::NoGameTree));
        assert_eq!(parse_collection("((((((((("), Err(SgfError::NoGameTree));
        for text in [
            "(;B[aa",
            "(;B[aa]",
            "(;B[aa](;W[bb])",
            "(;C[a\\])",
            "(;B)",
            "(;B[aa]x)",
            "(;b[aa])",
            "(;B[aa]();W[bb])",
            "(;(((((",
        ] {
            let err = parse_collection(text).unwrap_err();
            assert!(matches!(err, SgfError::Syntax { .. }), "{text:?}: {err:?}");
        }
        assert_eq!(
            parse_collection("(;B[aa"),
            Err(SgfError::Syntax {
                offset: 6,
                reason: "unexpected end of input".to_string()
            })
        );
        assert_eq!(
            parse_collection("(;B[aa]x)"),
            Err(SgfError::Syntax {
                offset: 7,
                reason: "unexpected 'x'".to_string()
            })
        );
    }

    /// `(;` + branching tree of `depth` levels: each level has the next level and a leaf.
    fn branching(depth: usize) -> String {
        let mut text = String::new();
        for _ in 0..depth {
            text.push_str("(;");
        }
        text.push_str("(;)(;)");
        for _ in 0..depth {
            text.push_str("(;))");
        }
        format!("(;{text})")
    }

    #[test]
    fn deep_branching_is_refused_not_overflowed() {
        assert_eq!(
            parse_collection(&branching(100_000)),
            Err(SgfError::TooDeep)
        );
        let deepest = parse_collection(&branching(MAX_VARIATION_DEPTH)).unwrap();
        // The derived recursive impls must cope with the deepest accepted tree.
        let copy = deepest.clone();
        assert_eq!(copy, deepest);
        drop(copy);
        assert_eq!(
            parse_collection(&branching(MAX_VARIATION_DEPTH + 1)),
            Err(SgfError::TooDeep)
        );
    }

    #[test]
    fn deep_single_nesting_folds_into_one_sequence() {
        let depth = 200_000;
        let text = format!("(;{})", "(;B[]".repeat(depth) + &")".repeat(depth));
        let collection = parse_collection(&text).unwrap();
        assert_eq!(collection.0.len(), 1);
        assert_eq!(collection.0[0].nodes.len(), depth + 1);
        assert!(collection.0[0].variations.is_empty());

        let unclosed = "(;".repeat(depth);
        assert!(matches!(
            parse_collection(&unclosed),
            Err(SgfError::Syntax { .. })
        ));
    }

    #[test]
    fn bytes_decode_as_utf8_or_latin1() {
        assert_eq!(decode("Müller 李".as_bytes()), "Müller 李");
        assert_eq!(decode(b"M\xfcller"), "Müller");
        assert_eq!(decode(b"\xc1\xd9\xca\xc0"), "ÁÙÊÀ");
        let got = parse_collection_bytes(b"(;PB[Fran\xe7ois]PW[\xc0\xee])").unwrap();
        assert_eq!(got.0[0].nodes[0].value("PB"), Some("François"));
        assert_eq!(got.0[0].nodes[0].value("PW"), Some("Àî"));
    }
}
