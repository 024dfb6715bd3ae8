//! Othello's SGF commands: `loadsgf` and `printsgf` on `GM[2]` records (the conversion is
//! `sgf::OthelloRecord`'s; the file handling is `gtp::files`').

use crate::gtp::error::GtpError;
use crate::gtp::files::{cannot_load, print_record, read_collection};
use crate::gtp::parse;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};
use crate::othello::gtp::state::OthelloState;
use crate::othello::sgf::{OthelloRecord, OthelloStop, write_othello};
use crate::othello::{MAX_SIZE, Square};

pub const COMMANDS: &[Command<OthelloState>] =
    &[command("loadsgf", loadsgf), command("printsgf", printsgf)];

/// `loadsgf FILE [N|V]`: the record's main line, stopping before move N or the first move
/// on V (an Othello vertex); answers the colour to move.
fn loadsgf(s: &mut OthelloState, args: &[String]) -> Reply {
    let (file, stop) = match args {
        [file] => (file, OthelloStop::End),
        [file, stop] => (
            file,
            match parse::parse_int(stop) {
                Ok(n) => OthelloStop::BeforeMove(n as usize),
                // Checked against the record's own size by the replay.
                Err(_) => match Square::parse(stop, MAX_SIZE) {
                    Ok(q) => OthelloStop::BeforeSquare(q),
                    Err(_) => return Err(GtpError::Syntax),
                },
            },
        ),
        _ => return Err(GtpError::Syntax),
    };
    let game = read_collection(file)
        .and_then(|c| OthelloRecord::from_collection(&c).map_err(|e| e.to_string()))
        .and_then(|record| record.replay(stop).map_err(|e| e.to_string()))
        .map_err(|why| cannot_load(file, &why))?;
    let to_move = game.to_move();
    s.load_game(game);
    Ok(to_move.name().to_string())
}

/// `printsgf [FILE]`: the game as an SGF `GM[2]` record, or written to FILE.
fn printsgf(s: &mut OthelloState, args: &[String]) -> Reply {
    print_record(write_othello(&OthelloRecord::from_game(s.game())), args)
}
