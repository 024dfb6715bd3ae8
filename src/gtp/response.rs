//! Responses as GTP frames them.

use crate::gtp::error::GtpError;

/// What a command answers: the response text, or why it failed.
pub type Reply = Result<String, GtpError>;

/// A response ready to be written, and whether the session ends after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub text: String,
    pub quit: bool,
}

/// Frames a reply as GTP requires: `=id text` or `?id message`, one space after the id even
/// when the text is empty, no empty line inside, and the empty line that ends a response.
pub fn frame(id: Option<&str>, reply: &Reply) -> String {
    let (mark, body) = match reply {
        Ok(text) => ('=', std::borrow::Cow::Borrowed(text.as_str())),
        Err(error) => ('?', std::borrow::Cow::Owned(error.to_string())),
    };
    let mut out = String::with_capacity(body.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    out.push(' ');
    // A leading newline (showboard's diagram) is kept: it follows the `= ` on the first line.
    // Any other blank line would end the response early, so it is dropped.
    let mut lines = body.split('\n');
    if let Some(first) = lines.next() {
        out.push_str(first.trim_end());
    }
    for line in lines {
        let line = line.trim_end();
        if !line.is_empty() {
            out.push('\n');
            out.push_str(line);
        }
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_follow_the_protocol() {
        assert_eq!(frame(None, &Ok(String::new())), "= \n\n");
        assert_eq!(frame(Some("12"), &Ok("D4".into())), "=12 D4\n\n");
        assert_eq!(
            frame(Some("007"), &Err(GtpError::IllegalMove)),
            "?007 illegal move\n\n"
        );
        assert_eq!(frame(None, &Ok("a\n\nb\n".into())), "= a\nb\n\n");
        assert_eq!(
            frame(None, &Ok("\n  A B\n 1 . .".into())),
            "= \n  A B\n 1 . .\n\n"
        );
    }
}
