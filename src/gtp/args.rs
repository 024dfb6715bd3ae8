//! Arguments as every game's handlers take them, each with the error text its command
//! family answers. Vertices are each game's own (`go::gtp::args`, `othello::gtp::args`).

use crate::color::Color;
use crate::gtp::error::GtpError;
use crate::gtp::parse;

/// Exactly `n` arguments, or a syntax error.
pub fn arity(args: &[String], n: usize) -> Result<(), GtpError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(GtpError::Syntax)
    }
}

/// A GTP colour argument.
pub fn color(text: &str) -> Result<Color, GtpError> {
    Ok(parse::parse_color(text)?)
}

/// A colour argument of GNU Go's commands, with GNU Go's text.
pub fn gg_color(text: &str) -> Result<Color, GtpError> {
    parse::parse_color(text).map_err(|_| GtpError::InvalidColor)
}

/// A GTP int argument.
pub fn int(text: &str) -> Result<u32, GtpError> {
    Ok(parse::parse_int(text)?)
}

/// A GTP float argument.
pub fn float(text: &str) -> Result<f64, GtpError> {
    Ok(parse::parse_float(text)?)
}
