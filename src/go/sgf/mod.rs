//! Go's SGF records (`GM[1]`): a typed view of one game, the writer, and the one
//! conversion between records and games.
//!
//! Reading goes text -> [`Collection`](crate::sgf::Collection)
//! ([`parse_collection`](crate::sgf::parse_collection)) -> [`SgfGame`]
//! ([`SgfGame::from_collection`]) -> [`Game`](crate::Game) ([`SgfGame::replay`]); writing
//! goes [`Game`](crate::Game) -> [`SgfGame`] ([`SgfGame::from_game`]) -> text
//! ([`write_game`]). The generic tree keeps every property, the typed view only what the
//! engine uses.
//!
//! Points in the typed view are `(column, row)` with column 0 on the left and row 0 at the
//! BOTTOM, as in GTP and [`Geometry::point`](crate::Geometry::point). SGF counts rows from
//! the top (`aa` is the upper-left corner), so the conversion needs the board size.
//!
//! ```
//! use shicho::Color;
//! use shicho::go::sgf::{SgfGame, write_game};
//! use shicho::sgf::parse_collection;
//!
//! let collection = parse_collection("(;SZ[9]KM[7];B[ee];W[](;B[aa])(;B[ii]))").unwrap();
//! let game = SgfGame::from_collection(&collection).unwrap();
//! assert_eq!(game.moves[0].point, Some((4, 4)));
//! assert_eq!(game.moves[1].point, None);
//! assert_eq!((game.moves[2].color, game.moves[2].point), (Color::Black, Some((0, 8))));
//! let again = SgfGame::from_collection(&parse_collection(&write_game(&game)).unwrap());
//! assert_eq!(again, Ok(game));
//! ```

mod record;
mod replay;
mod write;

pub use record::{DEFAULT_SIZE, SetupStone, SgfGame, SgfMove};
pub use replay::{ReplayError, Stop, TORUS_COMMENT};
pub use write::write_game;

#[cfg(test)]
mod tests;
