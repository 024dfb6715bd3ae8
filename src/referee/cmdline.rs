//! Splitting an engine command line into program and arguments, as a POSIX shell would.
//!
//! The referee starts engines itself instead of going through `sh -c`: a shell in between
//! would be the process that gets killed when an engine hangs, leaving the real engine
//! running with our pipes open. So the quoting a user types around `--black '...'` has to be
//! understood here. Supported: blanks separate words; `'...'` is literal; `"..."` keeps
//! blanks and lets a backslash escape `"`, `\`, `$` and `` ` ``; a backslash outside quotes
//! escapes the next character. No variables, globs or operators: a command line is data.

use std::fmt;

/// The command line ends inside quotes or after a lone backslash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitError(pub String);

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unbalanced quote or trailing backslash in '{}'", self.0)
    }
}

impl std::error::Error for SplitError {}

/// The words of `line`.
///
/// ```
/// use shicho::referee::split_command_line;
/// assert_eq!(
///     split_command_line(r#"gnugo --mode gtp -l "my game.sgf" 'a b'\ c"#).unwrap(),
///     ["gnugo", "--mode", "gtp", "-l", "my game.sgf", "a b c"]
/// );
/// ```
///
/// # Errors
/// [`SplitError`] for an unterminated quote or a trailing backslash.
pub fn split_command_line(line: &str) -> Result<Vec<String>, SplitError> {
    let err = || SplitError(line.to_string());
    let mut words = Vec::new();
    let mut word = String::new();
    // A word exists once anything, even an empty pair of quotes, has been seen.
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(err()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            // A backslash-newline inside double quotes joins lines.
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(err()),
                        },
                        Some(c) => word.push(c),
                        None => return Err(err()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(c) => word.push(c),
                    None => return Err(err()),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Quotes `word` so that [`split_command_line`] (and a shell) reads it back unchanged.
pub fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The words joined back into one command line, quoted where needed.
pub fn join_command_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| quote_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("   ", &[]),
            ("gnugo --mode gtp", &["gnugo", "--mode", "gtp"]),
            ("  a\t b  ", &["a", "b"]),
            ("a '' b", &["a", "", "b"]),
            (r#"x "a \"b\" \\ \n""#, &["x", r#"a "b" \ \n"#]),
            (r"a\ b c", &["a b", "c"]),
            (r#"'it'\''s'"#, &["it's"]),
            (r#"pre"mid dle"post"#, &["premid dlepost"]),
        ];
        for (line, words) in cases {
            assert_eq!(split_command_line(line).unwrap(), *words, "{line}");
        }
    }

    #[test]
    fn rejects_unbalanced_quotes() {
        for bad in ["'a", "\"a", "a\\", "\"a\\"] {
            assert!(split_command_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn quoting_round_trips() {
        let words: Vec<String> = ["plain", "two words", "it's", "", "$HOME", "a\"b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            split_command_line(&join_command_line(&words)).unwrap(),
            words
        );
    }
}
