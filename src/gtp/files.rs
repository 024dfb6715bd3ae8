//! The file handling of `loadsgf` and `printsgf`, whichever game's record they carry.

use std::io::Read;

use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::sgf;

/// Largest SGF file `loadsgf` reads: the parser needs tens of bytes of memory per byte.
const MAX_SGF_BYTES: u64 = 16 << 20;

/// The SGF collection in `file`, read with a size limit.
///
/// # Errors
/// Why it could not be read, in words (for the log).
pub fn read_collection(file: &str) -> Result<sgf::Collection, String> {
    if is_special_file(file) {
        return Err("not a regular file".into());
    }
    let handle = std::fs::File::open(file).map_err(|err| err.to_string())?;
    let mut bytes = Vec::new();
    handle
        .take(MAX_SGF_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| err.to_string())?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err("file too large".into());
    }
    sgf::parse_collection_bytes(&bytes).map_err(|err| err.to_string())
}

/// `loadsgf`'s answer when `file` could not be loaded, for `why` (logged: GTP's text is
/// only `cannot load file`).
pub fn cannot_load(file: &str, why: &str) -> GtpError {
    log::warn!("loadsgf {file}: {why}");
    GtpError::CannotLoadFile
}

/// Whether `path` names something other than a regular file (a folder, a FIFO, a device).
/// loadsgf and printsgf refuse those: opening a FIFO waits for the other end and a terminal
/// for input, either of which would hang the session; /dev/stdin would eat our own commands
/// and /dev/stdout would put a record into the GTP stream.
pub fn is_special_file(path: &str) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// `printsgf [FILE]`'s answer: the record `text` itself, or nothing once it is written to
/// FILE.
pub fn print_record(text: String, args: &[String]) -> Reply {
    match args {
        [] => Ok(text),
        [file] if is_special_file(file) => {
            Err(GtpError::CannotWriteFile("not a regular file".into()))
        }
        [file] => std::fs::write(file, text)
            .map(|()| String::new())
            .map_err(|err| GtpError::CannotWriteFile(err.to_string())),
        _ => Err(GtpError::Syntax),
    }
}
