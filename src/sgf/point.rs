//! SGF's point letters, which every game's records use: `a`-`z` then `A`-`Z`.

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
