//! SGF commands: loading a record's position and writing the game as a record. The
//! conversion itself is `sgf`'s; this is the file handling around it.

use std::io::Read;

use crate::go::geometry::{Geometry, MAX_SIZE, Topology};
use crate::go::point::Move;
use crate::gtp::commands::command_table::{Command, command};
use crate::gtp::error::GtpError;
use crate::gtp::parse;
use crate::gtp::response::Reply;
use crate::gtp::state::State;
use crate::sgf::{self, SgfGame, Stop};

pub const COMMANDS: &[Command<State>] =
    &[command("loadsgf", loadsgf), command("printsgf", printsgf)];

/// Largest SGF file `loadsgf` reads: the parser needs tens of bytes of memory per byte.
const MAX_SGF_BYTES: u64 = 16 << 20;

/// `loadsgf FILE [N|V]`: the record's main line, stopping before move N or the first move
/// at V; answers the colour to move.
fn loadsgf(s: &mut State, args: &[String]) -> Reply {
    let (file, stop) = match args {
        [file] => (file, None),
        [file, stop] => (file, Some(stop)),
        _ => return Err(GtpError::Syntax),
    };
    let stop = match stop {
        None => Stop::End,
        Some(text) => match parse::parse_int(text) {
            Ok(n) => Stop::BeforeMove(n as usize),
            // The vertex is resolved against the file's own board size by the replay.
            Err(_) => match vertex_xy(text) {
                Some((x, y)) => Stop::BeforePoint(x, y),
                None => return Err(GtpError::Syntax),
            },
        },
    };
    let game = read_record(file)
        .and_then(|record| {
            record
                .replay(s.game().rules(), s.game().komi(), stop)
                .map_err(|err| err.to_string())
        })
        .map_err(|why| {
            log::warn!("loadsgf {file}: {why}");
            GtpError::CannotLoadFile
        })?;
    let to_move = game.to_move();
    s.load_game(game);
    Ok(to_move.name().to_string())
}

/// Column and row (from the bottom) of a vertex text, whatever the board size.
fn vertex_xy(text: &str) -> Option<(usize, usize)> {
    let geo = Geometry::get(MAX_SIZE, Topology::Plane).ok()?;
    match geo.parse_move(text) {
        Ok(Move::Play(p)) => Some(geo.xy(p)),
        _ => None,
    }
}

/// The first game of an SGF file, read with a size limit.
fn read_record(file: &str) -> Result<SgfGame, String> {
    let collection = read_collection(file)?;
    SgfGame::from_collection(&collection).map_err(|err| err.to_string())
}

/// The SGF collection in `file`, read with a size limit (any game's records).
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

/// Whether `path` names something other than a regular file (a folder, a FIFO, a device).
/// loadsgf and printsgf refuse those: opening a FIFO waits for the other end and a terminal
/// for input, either of which would hang the session; /dev/stdin would eat our own commands
/// and /dev/stdout would put a record into the GTP stream.
pub fn is_special_file(path: &str) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// `printsgf [file]`: the game as SGF, or written to `file`.
fn printsgf(s: &mut State, args: &[String]) -> Reply {
    let text = sgf::write_game(&SgfGame::from_game(s.game()));
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
