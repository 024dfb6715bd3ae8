//! The two players' colours.

use std::fmt;
use std::ops::{Index, IndexMut, Not};
use std::str::FromStr;

/// A player's colour. An empty point is `Option<Color>::None`, never a colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The opponent's colour.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The full lower-case name GNU Go prints (`black`, `white`).
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// One upper-case letter, as SGF and most front ends write it.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not one of `b`, `w`, `black`, `white` (any case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError;

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid color")
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;

    /// GTP's colour entity: `b`, `w`, `black` or `white`, case-insensitive.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        if s.eq_ignore_ascii_case("b") || s.eq_ignore_ascii_case("black") {
            Ok(Color::Black)
        } else if s.eq_ignore_ascii_case("w") || s.eq_ignore_ascii_case("white") {
            Ok(Color::White)
        } else {
            Err(ParseColorError)
        }
    }
}

/// One value per colour, indexable by `Color`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T> {
    pub black: T,
    pub white: T,
}

impl<T> ByColor<T> {
    pub fn new(black: T, white: T) -> Self {
        ByColor { black, white }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gtp_colours_in_any_case() {
        for (s, c) in [
            ("b", Color::Black),
            ("BLACK", Color::Black),
            ("W", Color::White),
            ("White", Color::White),
        ] {
            assert_eq!(s.parse::<Color>(), Ok(c));
        }
        for s in ["", "bl", "blacks", "x", "0"] {
            assert!(s.parse::<Color>().is_err());
        }
    }

    #[test]
    fn other_is_an_involution() {
        for c in Color::ALL {
            assert_ne!(c, !c);
            assert_eq!(c, !!c);
        }
    }
}
