//! shicho: a Go engine speaking GTP v2.

mod color;
mod geometry;
pub mod gtp;
mod point;
pub mod sgf;

pub use color::{ByColor, Color, ParseColorError};
pub use geometry::{Geometry, MAX_SIZE, MIN_SIZE, SizeError, Topology, VertexError};
pub use point::{Move, Point};
