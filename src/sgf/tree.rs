//! The generic SGF tree: every property of every node, as read.

/// All game trees of one SGF file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Collection(pub Vec<GameTree>);

/// A sequence of nodes followed by its alternative continuations.
///
/// A tree with exactly one variation means the same as the concatenation of the two
/// sequences, and the parser stores it that way; so every `variations` list here is either
/// empty or holds at least two trees.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameTree {
    pub nodes: Vec<Node>,
    /// The first one is the main line.
    pub variations: Vec<GameTree>,
}

/// One node: its properties in file order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    pub properties: Vec<Property>,
}

impl Node {
    /// The first property called `ident`.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.ident == ident)
    }

    /// The first value of the first property called `ident`.
    pub fn value(&self, ident: &str) -> Option<&str> {
        self.get(ident)
            .and_then(|p| p.values.first())
            .map(String::as_str)
    }
}

/// A property: identifier and unescaped values.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Property {
    /// Upper-case letters only (`AddBlack` in an FF[3] file is stored as `AB`).
    pub ident: String,
    /// At least one value; the empty string for `[]`.
    pub values: Vec<String>,
}

/// How deeply variations may nest (after single variations are folded into their parent).
///
/// The derived `Clone`, `PartialEq` and `Debug` of the tree types, and dropping them, recurse
/// once per level; this bound keeps them well inside a 2 MiB thread stack even in debug
/// builds.
/// Real files branch a few dozen levels deep at most.
pub const MAX_VARIATION_DEPTH: usize = 1000;
