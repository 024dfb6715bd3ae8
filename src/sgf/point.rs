//! SGF's points, which every game's records use: two letters, `a`-`z` then `A`-`Z`, for
//! the column and the row, both counted from the upper-left corner (`aa`).
//!
//! The typed views turn these into their own points: Othello's squares count rows from
//! the top too, Go's points from the bottom.

/// A point as SGF counts it: (column, row), both from 0 at the upper-left corner.
pub type SgfPoint = (usize, usize);

/// Index of an SGF coordinate letter: `a`-`z` are 0-25, `A`-`Z` 26-51 (FF[4]).
pub fn letter_index(letter: u8) -> Option<usize> {
    match letter {
        b'a'..=b'z' => Some(usize::from(letter - b'a')),
        b'A'..=b'Z' => Some(usize::from(letter - b'A') + 26),
        _ => None,
    }
}

/// The SGF letter for index `i`, the inverse of [`letter_index`].
pub fn index_letter(i: usize) -> Option<char> {
    const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    LETTERS.get(i).map(|&b| char::from(b))
}

/// The point `value` names (`pd`), if it is one on a board of `size`.
pub fn parse_point(value: &str, size: usize) -> Option<SgfPoint> {
    let &[x, y] = value.as_bytes() else {
        return None;
    };
    let (x, y) = (letter_index(x)?, letter_index(y)?);
    (x < size && y < size).then_some((x, y))
}

/// The two letters of `(column, row)`, `None` past the 52 letters.
pub fn point_text((x, y): SgfPoint) -> Option<String> {
    Some([index_letter(x)?, index_letter(y)?].iter().collect())
}
