//! Smart Game Format (SGF FF[4]) game records: a generic tree, a typed view of one Go game,
//! and a writer; Othello records (`GM[2]`) have their own typed view and writer
//! ([`OthelloRecord`], [`write_othello`]).
//!
//! Reading goes text -> [`Collection`] ([`parse_collection`]) -> [`SgfGame`]
//! ([`SgfGame::from_collection`]); writing goes [`SgfGame`] -> text ([`write_game`]). The
//! generic tree keeps every property, the typed view only what the engine uses.
//!
//! Points in the typed view are `(column, row)` with column 0 on the left and row 0 at the
//! BOTTOM, as in GTP and [`Geometry::point`](crate::Geometry::point). SGF counts rows from
//! the top (`aa` is the upper-left corner), so the conversion needs the board size.
//!
//! ```
//! use shicho::Color;
//! use shicho::sgf::{SgfGame, parse_collection, write_game};
//!
//! let collection = parse_collection("(;SZ[9]KM[7];B[ee];W[](;B[aa])(;B[ii]))").unwrap();
//! let game = SgfGame::from_collection(&collection).unwrap();
//! assert_eq!(game.moves[0].point, Some((4, 4)));
//! assert_eq!(game.moves[1].point, None);
//! assert_eq!((game.moves[2].color, game.moves[2].point), (Color::Black, Some((0, 8))));
//! let again = SgfGame::from_collection(&parse_collection(&write_game(&game)).unwrap());
//! assert_eq!(again, Ok(game));
//! ```

mod error;
mod game;
mod number;
mod othello;
mod parse;
mod record;
mod tree;
mod write;

pub use error::SgfError;
pub use game::{DEFAULT_SIZE, SetupStone, SgfGame, SgfMove};
pub use number::MAX_NUMBER;
pub use othello::{
    OTHELLO_DEFAULT_SIZE, OthelloRecord, OthelloReplayError, OthelloSgfMove, OthelloStop,
    write_othello,
};
pub use parse::{parse_collection, parse_collection_bytes};
pub use record::{ReplayError, Stop, TORUS_COMMENT};
pub use tree::{Collection, GameTree, MAX_VARIATION_DEPTH, Node, Property};
pub use write::write_game;

#[cfg(test)]
mod tests;
