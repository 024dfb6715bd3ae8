//! GoGui's ruler commands (`gogui-rules_*`): how GoGui 1.6 shows a game it does not know.
//!
//! GoGui asks an attached program for `gogui-rules_game_id`. If the answer is `Go` it keeps
//! its own rules. Otherwise, when the program also lists `gogui-rules_legal_moves` and
//! `gogui-rules_side_to_move`, it starts the same command a second time as the *ruler*
//! and from then on keeps no rules of its own: it sends the ruler `clear_board` and
//! `play`s (after every move and whenever it navigates, the whole game again from
//! `clear_board`), draws whatever `gogui-rules_board` answers, lets a player click only
//! where `gogui-rules_legal_moves` lists a point (`pass` only when listed), asks
//! `gogui-rules_side_to_move` who is next, takes its board size from
//! `gogui-rules_board_size` (a bare integer: GoGui parses it with `parseInt`), shows
//! `gogui-rules_captured_count` in its prisoner counts, and when the legal moves come back
//! empty ends the game with `gogui-rules_final_result` in a dialog. The ruler gets no
//! `komi` and no `boardsize`: it counts with its own command line's.
//!
//! Two games are ruled: Dao-qi (Go on a torus, whose captures across the wrap-around edge
//! GoGui's plane rules would miss) and Othello. The family [`Ruler`] is the same for every
//! game: it reads the game through [`BoardGame`], and a GTP state adds what only GoGui asks
//! ([`Ruled`]: the game's id, the result in words, graphics). Plane Go answers `Go` to
//! `gogui-rules_game_id` and offers none of the other commands, so GoGui rules it (and keeps
//! the board size the user chose) as before.

use std::marker::PhantomData;

use crate::game::BoardGame;
use crate::gtp::args::arity;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command, command_if};

/// A GTP state whose game GoGui's ruler commands can look at.
pub trait Ruled: 'static {
    type Game: BoardGame;

    fn ruled(&self) -> &Self::Game;

    /// `gogui-rules_game_id`: `Go` lets GoGui rule the game itself; anything else (an
    /// upper-case letter, then lower case) asks for a ruler.
    fn game_id(&self) -> &'static str;

    /// The result, in words, for GoGui's "game finished" dialog.
    fn final_result(&self) -> String;

    /// The board as GoGui is to draw it, top row first (the game's own rows, unless its
    /// rows run the other way from GoGui's).
    fn gogui_rows(&self) -> Vec<String> {
        self.ruled().rows()
    }

    /// GoGui graphics drawn over the board after every move, if the game has any.
    fn board_gfx(&self) -> Option<String> {
        None
    }
}

/// The ruler family for the state type `S`.
pub struct Ruler<S>(PhantomData<S>);

impl<S: Ruled> Ruler<S> {
    pub const COMMANDS: &'static [Command<S>] = &[
        command("gogui-rules_game_id", game_id::<S>),
        command_if("gogui-rules_board_size", board_size::<S>, is_ruled::<S>),
        command_if("gogui-rules_board", board::<S>, is_ruled::<S>),
        command_if("gogui-rules_legal_moves", legal_moves::<S>, is_ruled::<S>),
        command_if("gogui-rules_side_to_move", side_to_move::<S>, is_ruled::<S>),
        command_if("gogui-rules_final_result", final_result::<S>, is_ruled::<S>),
        command_if(
            "gogui-rules_captured_count",
            captured_count::<S>,
            is_ruled::<S>,
        ),
        command_if("gogui-rules_board_gfx", board_gfx::<S>, has_gfx::<S>),
    ];
}

/// Whether the other `gogui-rules_*` commands are offered: GoGui starts a ruler only for a
/// program that lists them.
fn is_ruled<S: Ruled>(s: &S) -> bool {
    s.game_id() != "Go"
}

fn has_gfx<S: Ruled>(s: &S) -> bool {
    is_ruled(s) && s.board_gfx().is_some()
}

fn game_id<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.game_id().to_string())
}

fn board_size<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().size().to_string())
}

/// Rows of `X`, `O` and `.` separated by spaces (GoGui reads those characters and skips
/// every other, so no coordinate labels: `O` is a column letter).
fn board<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let rows: Vec<String> = s
        .gogui_rows()
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            cells.join(" ")
        })
        .collect();
    Ok(rows.join("\n"))
}

/// The side to move's legal moves as GoGui names them (`pass` included when it is legal);
/// empty once the game is over.
fn legal_moves<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let game = s.ruled();
    let moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| {
            if m == S::Game::PASS {
                "pass".to_string()
            } else {
                game.format_move(m)
            }
        })
        .collect();
    Ok(moves.join(" "))
}

fn side_to_move<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().to_move().name().to_string())
}

fn final_result<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.final_result())
}

/// `BLACK_CAPTURED WHITE_CAPTURED`: what Black has taken, then what White has.
fn captured_count<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let c = s.ruled().captured();
    Ok(format!("{} {}", c.black, c.white))
}

fn board_gfx<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.board_gfx().unwrap_or_default())
}
