//! Setup commands: board size, clearing, komi, handicap.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::game::Game;
use crate::go::gtp::args::format_points;
use crate::go::gtp::state::State;
use crate::go::handicap;
use crate::go::point::{Move, Point};
use crate::gtp::args::{arity, float, int};
use crate::gtp::error::GtpError;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command};

pub const COMMANDS: &[Command<State>] = &[
    command("boardsize", boardsize),
    command("clear_board", clear_board),
    command("komi", komi),
    command("fixed_handicap", fixed_handicap),
    command("place_free_handicap", place_free_handicap),
    command("set_free_handicap", set_free_handicap),
];

fn boardsize(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let size = int(&args[0])?;
    s.resize(size as usize)?;
    Ok(String::new())
}

fn clear_board(s: &mut State, args: &[String]) -> Reply {
    arity(args, 0)?;
    s.clear();
    Ok(String::new())
}

fn komi(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    s.set_komi(float(&args[0])?);
    Ok(String::new())
}

/// Whether handicap stones may be placed: nothing on the board and nothing played.
fn board_is_empty(game: &Game) -> bool {
    game.history_len() == 0 && game.board().empties().len() == game.geometry().num_points()
}

/// Starts the game from `stones` as Black's handicap, White to move.
fn place_handicap(s: &mut State, stones: &[Point]) -> Reply {
    let geo = s.geo();
    let mut cells = vec![None; geo.num_points()];
    for &p in stones {
        cells[p.index()] = Some(Color::Black);
    }
    let board = Board::from_stones(geo, &cells).map_err(|_| GtpError::BadVertexList)?;
    let (rules, komi) = (s.game().rules(), s.game().komi());
    s.replace_game(Game::with_position(board, Color::White, rules, komi));
    Ok(format_points(geo, stones.iter().copied()))
}

fn fixed_handicap(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let n = int(&args[0])? as usize;
    if !board_is_empty(s.game()) {
        return Err(GtpError::BoardNotEmpty);
    }
    let stones = handicap::fixed(s.geo(), n).ok_or(GtpError::InvalidNumberOfStones)?;
    place_handicap(s, &stones)
}

fn place_free_handicap(s: &mut State, args: &[String]) -> Reply {
    arity(args, 1)?;
    let n = int(&args[0])? as usize;
    if !board_is_empty(s.game()) {
        return Err(GtpError::BoardNotEmpty);
    }
    let stones = handicap::free(s.geo(), n).ok_or(GtpError::InvalidNumberOfStones)?;
    place_handicap(s, &stones)
}

fn set_free_handicap(s: &mut State, args: &[String]) -> Reply {
    if !board_is_empty(s.game()) {
        return Err(GtpError::BoardNotEmpty);
    }
    let geo = s.geo();
    if args.len() < 2 || args.len() >= geo.num_points() {
        return Err(GtpError::BadVertexList);
    }
    let mut stones = Vec::with_capacity(args.len());
    for a in args {
        match geo.parse_move(a) {
            Ok(Move::Play(p)) if !stones.contains(&p) => stones.push(p),
            _ => return Err(GtpError::BadVertexList),
        }
    }
    place_handicap(s, &stones).map(|_| String::new())
}
