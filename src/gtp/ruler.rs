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
//! Two games are ruled here: Dao-qi (Go on a torus, whose captures across the wrap-around
//! edge GoGui's plane rules would miss) and Othello. A game says what the commands need
//! through [`RulerGame`], and a GTP state hands its game over through [`Ruled`]; the family
//! [`Ruler`] is then the same for every state. Plane Go answers `Go` to
//! `gogui-rules_game_id` and offers none of the other commands, so GoGui rules it (and keeps
//! the board size the user chose) as before.

use std::marker::PhantomData;

use crate::color::{ByColor, Color};
use crate::gtp::args::arity;
use crate::gtp::response::Reply;
use crate::gtp::table::{Command, command, command_if};

/// What GoGui's ruler commands need to know of a game.
pub trait RulerGame {
    /// `gogui-rules_game_id`: `Go` lets GoGui rule the game itself; anything else (an
    /// upper-case letter, then lower case) asks for a ruler.
    fn game_id(&self) -> &'static str;

    /// Whether the other `gogui-rules_*` commands are offered: GoGui starts a ruler only
    /// for a program that lists them.
    fn is_ruled(&self) -> bool {
        self.game_id() != "Go"
    }

    fn board_size(&self) -> usize;

    /// The board as GoGui draws it: one string per row, top row first, one character per
    /// point: `X` black, `O` white, `.` empty.
    fn rows(&self) -> Vec<String>;

    /// The side to move's legal moves as GoGui names them (`pass` included when it is
    /// legal); empty once the game is over.
    fn legal_moves(&self) -> Vec<String>;

    fn side_to_move(&self) -> Color;

    /// The result, in words, for GoGui's "game finished" dialog.
    fn final_result(&self) -> String;

    /// Stones (discs) each colour has taken from the other.
    fn captured(&self) -> ByColor<u32>;

    /// GoGui graphics drawn over the board after every move, if the game has any.
    fn board_gfx(&self) -> Option<String> {
        None
    }
}

/// A GTP state whose game GoGui's ruler commands can look at.
pub trait Ruled {
    fn ruled(&self) -> &dyn RulerGame;
}

/// The ruler family for the state type `S`.
pub struct Ruler<S>(PhantomData<S>);

impl<S: Ruled + 'static> Ruler<S> {
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

fn is_ruled<S: Ruled>(s: &S) -> bool {
    s.ruled().is_ruled()
}

fn has_gfx<S: Ruled>(s: &S) -> bool {
    is_ruled(s) && s.ruled().board_gfx().is_some()
}

fn game_id<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().game_id().to_string())
}

fn board_size<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().board_size().to_string())
}

/// Rows of `X`, `O` and `.` separated by spaces (GoGui reads those characters and skips
/// every other, so no coordinate labels: `O` is a column letter).
fn board<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let rows: Vec<String> = s
        .ruled()
        .rows()
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            cells.join(" ")
        })
        .collect();
    Ok(rows.join("\n"))
}

fn legal_moves<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().legal_moves().join(" "))
}

fn side_to_move<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().side_to_move().name().to_string())
}

fn final_result<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().final_result())
}

/// `BLACK_CAPTURED WHITE_CAPTURED`: what Black has taken, then what White has.
fn captured_count<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    let c = s.ruled().captured();
    Ok(format!("{} {}", c.black, c.white))
}

fn board_gfx<S: Ruled>(s: &mut S, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(s.ruled().board_gfx().unwrap_or_default())
}
