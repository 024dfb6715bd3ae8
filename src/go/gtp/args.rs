//! Go's vertex arguments, each with the error text its command family answers; points
//! written back in GNU Go's order; the rules core's errors as GTP's.

use crate::color::Color;
use crate::go::board::IllegalMove;
use crate::go::game::CannotUndo;
use crate::go::geometry::{Geometry, SizeError, VertexError};
use crate::go::gtp::state::State;
use crate::go::point::{Move, Point};
use crate::go::rules::UnknownRules;
use crate::go::tactics::StackEmpty;
use crate::gtp::args::color;
use crate::gtp::error::GtpError;
use crate::gtp::parse;

/// A move on this board (`pass` allowed); a malformed or off-board vertex is a syntax
/// error in standard commands.
pub fn move_on(s: &State, text: &str) -> Result<Move, GtpError> {
    s.geo().parse_move(text).map_err(|_| GtpError::Syntax)
}

/// A point for GNU Go's extension commands, with GNU Go's error text.
pub fn point(s: &State, text: &str) -> Result<Point, GtpError> {
    match s.geo().parse_move(text) {
        Ok(Move::Play(p)) => Ok(p),
        Ok(Move::Pass) | Err(VertexError::Syntax | VertexError::OffBoard) => {
            Err(GtpError::InvalidCoordinate)
        }
    }
}

/// A point that must hold a stone (GNU Go's `countlib`, `findlib`, `attack`...) in the
/// position those commands look at: the top of the reading stack (`trymove`) if any.
pub fn stone(s: &State, text: &str) -> Result<Point, GtpError> {
    let p = point(s, text)?;
    if s.board().get(p).is_none() {
        return Err(GtpError::VertexMustNotBeEmpty);
    }
    Ok(p)
}

/// GNU Go's `COLOUR VERTEX` argument pair (`is_legal`, `trymove`), with its error text.
pub fn gg_move(s: &State, args: &[String]) -> Result<(Color, Move), GtpError> {
    let bad = GtpError::InvalidColorOrCoordinate;
    let [color, vertex] = args else {
        return Err(bad);
    };
    let c = parse::parse_color(color).map_err(|_| bad.clone())?;
    let m = s.geo().parse_move(vertex).map_err(|_| bad)?;
    Ok((c, m))
}

/// Colour/vertex pairs (`gogui-play_sequence`, `gogui-setup`), checked before anything is
/// played.
pub fn move_pairs(s: &State, args: &[String]) -> Result<Vec<(Color, Move)>, GtpError> {
    if !args.len().is_multiple_of(2) {
        return Err(GtpError::Syntax);
    }
    args.chunks(2)
        .map(|pair| Ok((color(&pair[0])?, move_on(s, &pair[1])?)))
        .collect()
}

/// Points in GNU Go's order (rows from the top, then columns), space separated.
pub fn format_points(geo: &Geometry, points: impl IntoIterator<Item = Point>) -> String {
    let mut points: Vec<Point> = points.into_iter().collect();
    geo.sort_reading_order(&mut points);
    points
        .iter()
        .map(|&p| geo.format_point(p))
        .collect::<Vec<_>>()
        .join(" ")
}

impl From<IllegalMove> for GtpError {
    fn from(_: IllegalMove) -> GtpError {
        GtpError::IllegalMove
    }
}

impl From<CannotUndo> for GtpError {
    fn from(_: CannotUndo) -> GtpError {
        GtpError::CannotUndo
    }
}

impl From<SizeError> for GtpError {
    fn from(_: SizeError) -> GtpError {
        GtpError::UnacceptableSize
    }
}

impl From<StackEmpty> for GtpError {
    fn from(_: StackEmpty) -> GtpError {
        GtpError::StackEmpty
    }
}

impl From<UnknownRules> for GtpError {
    fn from(err: UnknownRules) -> GtpError {
        GtpError::UnknownRules(err.to_string())
    }
}
