//! Smart Game Format (SGF FF[4]), as every game's records use it: text to a generic tree
//! ([`parse_collection`] -> [`Collection`]), the numbers and points of its values, what
//! every game's typed view reads alike (`read`: the main line, `GM`, `SZ`, a node's move
//! and setup), the game information of a record's root ([`GameInfo`]), and what every
//! writer shares (`write`: the root's start, escaping, setup, the move lines). Each game's
//! typed view of a record, its writer and its conversion to and from games are in its wing
//! (`go::sgf`, `othello::sgf`).
//!
//! ```
//! use shicho::sgf::parse_collection;
//!
//! let collection = parse_collection("(;GM[1]SZ[9];B[ee](;W[aa])(;W[ii]))").unwrap();
//! let root = &collection.0[0].nodes[0];
//! assert_eq!(root.value("SZ"), Some("9"));
//! assert_eq!(collection.0[0].variations.len(), 2);
//! ```

pub mod error;
pub mod info;
pub mod number;
pub mod parse;
pub mod point;
pub mod read;
pub mod tree;
pub mod write;

pub use error::SgfError;
pub use info::GameInfo;
pub use number::MAX_NUMBER;
pub use parse::{parse_collection, parse_collection_bytes};
pub use tree::{Collection, GameTree, MAX_VARIATION_DEPTH, Node, Property};
