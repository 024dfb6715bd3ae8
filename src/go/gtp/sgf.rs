//! SGF commands: loading a record's position and writing the game as a record. The
//! conversion itself is `sgf`'s; this is the file handling around it.

use crate::go::geometry::{Geometry, MAX_SIZE, Topology};
use crate::go::gtp::state::State;
use crate::go::point::Move;
use crate::go::sgf::{SgfGame, Stop, write_game};
use crate::gtp::error::GtpError;
use crate::gtp::files::{cannot_load, print_record, read_collection};
use crate::gtp::parse;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] =
    &[command("loadsgf", loadsgf), command("printsgf", printsgf)];

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
        .map_err(|why| cannot_load(file, &why))?;
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

/// `printsgf [file]`: the game as SGF, or written to `file`.
fn printsgf(s: &mut State, args: &[String]) -> Reply {
    print_record(write_game(&SgfGame::from_game(s.game())), args)
}
