//! GTP input: line preprocessing, command lines and the simple entities.
//!
//! Everything here is a total function: any byte sequence gives either a value or an error,
//! never a panic, because the controller on the other end of the pipe is not trusted to be
//! well behaved (and a fuzz test holds us to it).
//!
//! Grammar rules in the doc comments use ABNF (RFC 5234) with `SP` = space, `HT` = tab,
//! `DIGIT` = `0`-`9`; `WSP` below means any ASCII white space.

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{all_consuming, eof, opt, peek, recognize};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::color::Color;

/// Largest GTP `int`: the spec bounds it by 2^31 - 1 so that C engines can use a signed int.
pub const MAX_INT: u32 = (1 << 31) - 1;

/// What a GoGui front end writes to ask a running search to stop early.
const INTERRUPT_COMMENT: &[u8] = b"# interrupt";

/// Applies the GTP v2 preprocessing (spec section 3.1) to one raw input line.
///
/// In order: everything from the first LF on is dropped (it belongs to the next line), CR and
/// every other control character except HT are deleted, the comment from the first `#` on is
/// cut, HT becomes a space, and surrounding spaces are trimmed.
///
/// Bytes >= 128 are deleted as well. GTP is US-ASCII, so such bytes carry no meaning the
/// protocol can express; dropping them (rather than replacing them with `?` or rejecting the
/// line) keeps a stray byte in an otherwise valid command from turning it into a syntax error,
/// and lets the result be a `String` without a decoding step.
///
/// Returns `None` for lines that are empty or only white space after this; the spec says such
/// lines get no response at all, so the caller simply skips them.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    let mut line = String::with_capacity(raw.len());
    for &byte in raw {
        match byte {
            b'\n' | b'#' => break,
            b'\t' => line.push(' '),
            0..=31 | 127 | 128..=255 => {}
            _ => line.push(char::from(byte)),
        }
    }
    let trimmed = line.trim_matches(' ');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// Whether `raw` is GoGui's interrupt request: exactly `# interrupt` once surrounding white
/// space (including the CR of a CRLF line ending) is trimmed.
///
/// This must be checked on the raw line, because preprocessing deletes comments.
pub fn is_interrupt_comment(raw: &[u8]) -> bool {
    raw.trim_ascii() == INTERRUPT_COMMENT
}

/// One GTP command: `[id] command_name [arguments]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommandLine {
    /// The id digits exactly as sent (leading zeros and all), since the response has to echo
    /// the same id and a `u32` could neither hold 40 digits nor keep `007` apart from `7`.
    pub id: Option<String>,
    /// The command name, case preserved: GTP command names are case sensitive.
    pub name: String,
    /// The remaining white-space separated tokens, uninterpreted.
    pub args: Vec<String>,
}

impl fmt::Display for CommandLine {
    /// The line as a controller would send it. A name made only of digits, written without an
    /// id, reads back as an id; no GTP command is named like that.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = &self.id {
            write!(f, "{id} ")?;
        }
        f.write_str(&self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// Why a line is not a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandLineErrorKind {
    /// Nothing but white space. Preprocessing already filters these out.
    Empty,
    /// An id with no command name after it.
    MissingName,
}

/// A line that is not a command, with the id it started with (if any) so that the error
/// response can carry it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommandLineError {
    pub id: Option<String>,
    pub kind: CommandLineErrorKind,
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CommandLineErrorKind::Empty => f.write_str("empty command line"),
            CommandLineErrorKind::MissingName => f.write_str("missing command name"),
        }
    }
}

impl std::error::Error for CommandLineError {}

/// `WSP = SP / HT / LF / CR / FF`
///
/// Only SP survives preprocessing; the rest are accepted so that callers who skip it (tests,
/// tools) are not tripped up by a stray tab or line ending.
fn is_wsp(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// `sep = 1*WSP`
fn sep(input: &str) -> IResult<&str, &str> {
    take_while1(is_wsp).parse(input)
}

/// `opt-sep = *WSP`
fn opt_sep(input: &str) -> IResult<&str, &str> {
    take_while(is_wsp).parse(input)
}

/// `token = 1*(any character but WSP)`
fn token(input: &str) -> IResult<&str, &str> {
    take_while1(|c| !is_wsp(c)).parse(input)
}

/// `id = 1*DIGIT` as a whole token, i.e. followed by `sep` or the end of the line.
///
/// `12abc` is therefore a command name, not id 12 and name `abc`.
fn id(input: &str) -> IResult<&str, &str> {
    terminated(digit1, peek(alt((sep, eof)))).parse(input)
}

/// `args = *(sep token)`
fn args(input: &str) -> IResult<&str, Vec<&str>> {
    many0(preceded(sep, token)).parse(input)
}

/// A command line cut into id and, when present, name and arguments.
type Parts<'a> = (Option<&'a str>, Option<(&'a str, Vec<&'a str>)>);

/// `command-line = opt-sep [id opt-sep] [token args] opt-sep`
///
/// The name is optional here so that the caller can tell "no name" from other trouble.
fn command_line(input: &str) -> IResult<&str, Parts<'_>> {
    all_consuming((
        preceded(opt_sep, opt(terminated(id, opt_sep))),
        terminated(opt((token, args)), opt_sep),
    ))
    .parse(input)
}

/// Splits a preprocessed line into id, command name and arguments.
///
/// ```
/// use shicho::gtp::parse::{parse_command_line, preprocess};
///
/// let line = preprocess(b"12 play\tb D4 # first move\r\n").unwrap();
/// let command = parse_command_line(&line).unwrap();
/// assert_eq!(command.id.as_deref(), Some("12"));
/// assert_eq!(command.name, "play");
/// assert_eq!(command.args, ["b", "D4"]);
/// ```
///
/// # Errors
/// `Empty` for a blank line, `MissingName` for a line holding only an id (the error then
/// carries that id).
pub fn parse_command_line(line: &str) -> Result<CommandLine, CommandLineError> {
    // Every input matches the grammar (tokens take any non-space character), so the error
    // arm is only there to keep this function total without an unwrap.
    let (id, rest) = match command_line(line) {
        Ok((_, parsed)) => parsed,
        Err(_) => (None, None),
    };
    let id = id.map(str::to_string);
    match rest {
        Some((name, args)) => Ok(CommandLine {
            id,
            name: name.to_string(),
            args: args.into_iter().map(str::to_string).collect(),
        }),
        None => {
            let kind = if id.is_some() {
                CommandLineErrorKind::MissingName
            } else {
                CommandLineErrorKind::Empty
            };
            Err(CommandLineError { id, kind })
        }
    }
}

/// Which GTP entity an argument failed to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntityError {
    Int,
    Float,
    Bool,
    Color,
}

impl fmt::Display for EntityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EntityError::Int => "invalid int",
            EntityError::Float => "invalid float",
            EntityError::Bool => "invalid boolean",
            EntityError::Color => "invalid color",
        })
    }
}

impl std::error::Error for EntityError {}

/// GTP `int = 1*DIGIT`, at most [`MAX_INT`].
///
/// Leading zeros are accepted (GNU Go reads ints with `%d`, which does too); signs are not.
///
/// # Errors
/// `EntityError::Int` for anything else, including values above `MAX_INT`.
pub fn parse_int(text: &str) -> Result<u32, EntityError> {
    let digits: IResult<&str, &str> = all_consuming(digit1).parse(text);
    let (_, digits) = digits.map_err(|_| EntityError::Int)?;
    digits
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_INT)
        .ok_or(EntityError::Int)
}

/// `*DIGIT`
///
/// Not nom's `digit0`: in nom 8.0.0 the `character::complete::*0` parsers hand back a wrong
/// remainder when they consume the whole input (rust-bakery/nom#1808), which makes
/// `recognize` cut its result short (`6.5` came out as `6.`). `take_while` is unaffected.
fn digits0(input: &str) -> IResult<&str, &str> {
    take_while(|c: char| c.is_ascii_digit()).parse(input)
}

/// `float = [sign] mantissa [exponent]`
/// `mantissa = 1*DIGIT ["." *DIGIT] / "." 1*DIGIT`
/// `exponent = ("e" / "E") [sign] 1*DIGIT`
/// `sign = "+" / "-"`
fn float(input: &str) -> IResult<&str, &str> {
    recognize((
        opt(one_of("+-")),
        alt((
            recognize((digit1, opt((char('.'), digits0)))),
            recognize((char('.'), digit1)),
        )),
        opt((one_of("eE"), opt(one_of("+-")), digit1)),
    ))
    .parse(input)
}

/// GTP `float`: a decimal number such as `6.5`, `-3`, `.5` or `7e0`.
///
/// The spec only says "decimal number"; the grammar above is what C's `%f` and Java's
/// `Double.parseDouble` agree on, minus their `nan`/`inf` spellings, which no komi or time
/// can sensibly be.
///
/// # Errors
/// `EntityError::Float` for text outside the grammar and for numbers too large for an `f64`.
pub fn parse_float(text: &str) -> Result<f64, EntityError> {
    let number: IResult<&str, &str> = all_consuming(float).parse(text);
    let (_, number) = number.map_err(|_| EntityError::Float)?;
    number
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or(EntityError::Float)
}

/// GTP `boolean = "true" / "false"`, case sensitive like every GTP string.
///
/// # Errors
/// `EntityError::Bool` for anything else.
pub fn parse_bool(text: &str) -> Result<bool, EntityError> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(EntityError::Bool),
    }
}

/// GTP `color`: `b`, `w`, `black` or `white` in any case.
///
/// # Errors
/// `EntityError::Color` for anything else.
pub fn parse_color(text: &str) -> Result<Color, EntityError> {
    Color::from_str(text).map_err(|_| EntityError::Color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cmd(id: Option<&str>, name: &str, args: &[&str]) -> CommandLine {
        CommandLine {
            id: id.map(str::to_string),
            name: name.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }

    #[test]
    fn preprocess_known_answers() {
        let cases: &[(&[u8], Option<&str>)] = &[
            (b"boardsize 9", Some("boardsize 9")),
            (b"1 boardsize 9 # c", Some("1 boardsize 9")),
            (b"play\tb\tD4\r\n", Some("play b D4")),
            (b"  genmove w  \n", Some("genmove w")),
            (b"kom\x01i 6\x7f.5", Some("komi 6.5")),
            (b"na\x1bme\x0b", Some("name")),
            (b"loadsgf caf\xc3\xa9.sgf", Some("loadsgf caf.sgf")),
            (b"name\nversion", Some("name")),
            (b"# interrupt", None),
            (b"#? [0]", None),
            (b"", None),
            (b"\r\n", None),
            (b" \t \x00\x07 ", None),
            (b"   # just a comment", None),
            (b"\xff\xfe", None),
        ];
        for &(raw, want) in cases {
            assert_eq!(preprocess(raw).as_deref(), want, "{raw:?}");
        }
    }

    #[test]
    fn interrupt_comment_is_recognised_exactly() {
        assert!(is_interrupt_comment(b"# interrupt"));
        assert!(is_interrupt_comment(b"  # interrupt\r\n"));
        assert!(is_interrupt_comment(b"\t# interrupt\n"));
        assert!(!is_interrupt_comment(b"#interrupt"));
        assert!(!is_interrupt_comment(b"# interrupt now"));
        assert!(!is_interrupt_comment(b"# Interrupt"));
        assert!(!is_interrupt_comment(b"1 # interrupt"));
        assert!(!is_interrupt_comment(b""));
    }

    #[test]
    fn command_lines_known_answers() {
        let cases = [
            ("boardsize 9", cmd(None, "boardsize", &["9"])),
            ("1 boardsize 9", cmd(Some("1"), "boardsize", &["9"])),
            (
                "  007   play  b   D4 ",
                cmd(Some("007"), "play", &["b", "D4"]),
            ),
            ("list_commands", cmd(None, "list_commands", &[])),
            ("12abc x", cmd(None, "12abc", &["x"])),
            ("5 123", cmd(Some("5"), "123", &[])),
            ("-1 quit", cmd(None, "-1", &["quit"])),
            ("play\tW\tpass", cmd(None, "play", &["W", "pass"])),
            ("Name", cmd(None, "Name", &[])),
        ];
        for (line, want) in cases {
            assert_eq!(parse_command_line(line), Ok(want), "{line:?}");
        }
    }

    #[test]
    fn long_ids_are_echoed_digit_for_digit() {
        let id = "1234567890123456789012345678901234567890";
        let parsed = parse_command_line(&format!("{id} name")).unwrap();
        assert_eq!(parsed.id.as_deref(), Some(id));
    }

    #[test]
    fn an_id_without_a_name_keeps_the_id() {
        assert_eq!(
            parse_command_line(" 42  "),
            Err(CommandLineError {
                id: Some("42".to_string()),
                kind: CommandLineErrorKind::MissingName
            })
        );
        assert_eq!(
            parse_command_line(""),
            Err(CommandLineError {
                id: None,
                kind: CommandLineErrorKind::Empty
            })
        );
        assert_eq!(
            parse_command_line(" \t "),
            Err(CommandLineError {
                id: None,
                kind: CommandLineErrorKind::Empty
            })
        );
    }

    #[test]
    fn preprocessed_regression_line() {
        let line = preprocess(b"1 boardsize 9 # c").unwrap();
        assert_eq!(
            parse_command_line(&line),
            Ok(cmd(Some("1"), "boardsize", &["9"]))
        );
    }

    #[test]
    fn ints() {
        assert_eq!(parse_int("0"), Ok(0));
        assert_eq!(parse_int("19"), Ok(19));
        assert_eq!(parse_int("007"), Ok(7));
        assert_eq!(parse_int("2147483647"), Ok(MAX_INT));
        for bad in [
            "",
            "-1",
            "+1",
            " 1",
            "1 ",
            "1.0",
            "0x10",
            "2147483648",
            "4294967296",
            "99999999999999999999999",
            "١",
        ] {
            assert_eq!(parse_int(bad), Err(EntityError::Int), "{bad:?}");
        }
    }

    #[test]
    fn floats() {
        let good = [
            ("6.5", 6.5),
            ("-3", -3.0),
            ("+0.5", 0.5),
            (".5", 0.5),
            ("7.", 7.0),
            ("1e3", 1000.0),
            ("1.e2", 100.0),
            ("007.50", 7.5),
            ("1.5E-1", 0.15),
            ("-0", 0.0),
        ];
        for (text, want) in good {
            assert_eq!(parse_float(text), Ok(want), "{text:?}");
        }
        for bad in [
            "",
            ".",
            "-",
            "e5",
            "1e",
            "1e+",
            "nan",
            "NaN",
            "inf",
            "-infinity",
            "1e999",
            "6,5",
            " 6.5",
            "6.5 ",
            "0x1p3",
            "1..2",
            "--1",
        ] {
            assert_eq!(parse_float(bad), Err(EntityError::Float), "{bad:?}");
        }
    }

    #[test]
    fn bools_and_colours() {
        assert_eq!(parse_bool("true"), Ok(true));
        assert_eq!(parse_bool("false"), Ok(false));
        assert_eq!(parse_bool("True"), Err(EntityError::Bool));
        assert_eq!(parse_bool("1"), Err(EntityError::Bool));
        assert_eq!(parse_color("B"), Ok(Color::Black));
        assert_eq!(parse_color("white"), Ok(Color::White));
        assert_eq!(parse_color("blue"), Err(EntityError::Color));
    }

    /// A command name no controller would confuse with an id.
    fn name_strategy() -> impl Strategy<Value = String> {
        "[a-zA-Z_-][!-~]{0,15}"
    }

    fn command_strategy() -> impl Strategy<Value = CommandLine> {
        (
            proptest::option::of("[0-9]{1,45}"),
            name_strategy(),
            proptest::collection::vec("[!-~]{1,12}", 0..6),
        )
            .prop_map(|(id, name, args)| CommandLine { id, name, args })
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = is_interrupt_comment(&raw);
            if let Some(line) = preprocess(&raw) {
                prop_assert!(line.is_ascii());
                prop_assert!(!line.contains('#'));
                prop_assert_eq!(line.trim(), line.as_str());
                let _ = parse_command_line(&line);
            }
            let text = String::from_utf8_lossy(&raw);
            let _ = parse_command_line(&text);
            let _ = parse_int(&text);
            let _ = parse_float(&text);
            let _ = parse_bool(&text);
            let _ = parse_color(&text);
        }

        #[test]
        fn formatted_commands_round_trip(c in command_strategy()) {
            prop_assert_eq!(parse_command_line(&c.to_string()), Ok(c));
        }

        #[test]
        fn preprocessing_keeps_comment_free_commands(mut c in command_strategy()) {
            // A `#` would start a comment, which is the point of preprocessing.
            c.name = c.name.replace('#', "x");
            c.args = c.args.iter().map(|a| a.replace('#', "x")).collect();
            let raw = format!("\t{c} # trailing comment\r\n");
            let line = preprocess(raw.as_bytes());
            prop_assert_eq!(line.as_deref().map(parse_command_line), Some(Ok(c)));
        }

        #[test]
        fn ints_in_range_round_trip(n in 0..=MAX_INT) {
            prop_assert_eq!(parse_int(&n.to_string()), Ok(n));
        }

        #[test]
        fn finite_floats_round_trip(x in any::<f64>().prop_filter("finite", |x| x.is_finite())) {
            // Display never uses exponents; `{:e}` always does: both must read back.
            prop_assert_eq!(parse_float(&x.to_string()), Ok(x));
            prop_assert_eq!(parse_float(&format!("{x:e}")), Ok(x));
        }
    }
}
