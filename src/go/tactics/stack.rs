//! GTP's reading stack (`trymove`, `tryko`, `popgo`).

use std::fmt;

use crate::color::Color;
use crate::go::board::{Board, IllegalMove};
use crate::go::point::Move;

/// GTP's reading stack (`trymove`, `tryko`, `popgo`): moves played on top of a base position
/// that `attack` and friends then read from. The base is never changed.
#[derive(Clone, Debug)]
pub struct ReadingStack {
    boards: Vec<Board>,
    suicide_allowed: bool,
}

/// `popgo` with nothing to pop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StackEmpty;

impl fmt::Display for StackEmpty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // GNU Go's exact text.
        f.write_str("Stack empty.")
    }
}

impl std::error::Error for StackEmpty {}

impl ReadingStack {
    /// An empty stack over `base`. `suicide_allowed` decides whether `trymove` accepts a
    /// suicide (the game's rules).
    pub fn new(base: Board, suicide_allowed: bool) -> ReadingStack {
        ReadingStack {
            boards: vec![base],
            suicide_allowed,
        }
    }

    /// Replaces the base and empties the stack (the game moved on underneath it).
    pub fn reset(&mut self, base: Board, suicide_allowed: bool) {
        self.boards.truncate(1);
        self.boards[0] = base;
        self.suicide_allowed = suicide_allowed;
    }

    /// The position on top of the stack: the base when nothing was tried.
    pub fn board(&self) -> &Board {
        // The base is never popped, so the stack is never empty.
        self.boards
            .last()
            .expect("the base board stays on the stack")
    }

    /// Number of moves tried on top of the base.
    pub fn depth(&self) -> usize {
        self.boards.len() - 1
    }

    /// GTP `trymove`: plays a legal move (simple ko and the suicide rule; no superko, as in
    /// GNU Go) on top of the stack.
    ///
    /// # Errors
    /// Why the move is illegal; the stack is unchanged.
    pub fn trymove(&mut self, c: Color, m: Move) -> Result<(), IllegalMove> {
        let mut next = self.board().clone();
        next.play(c, m, self.suicide_allowed)?;
        self.boards.push(next);
        Ok(())
    }

    /// GTP `tryko`: like `trymove`, but a retake of the ko point is allowed (as if a ko
    /// threat had been answered).
    ///
    /// # Errors
    /// The point is occupied or the play is a forbidden suicide; the stack is unchanged.
    pub fn tryko(&mut self, c: Color, m: Move) -> Result<(), IllegalMove> {
        let board = self.board();
        if let Move::Play(p) = m {
            if board.get(p).is_some() {
                return Err(IllegalMove::Occupied);
            }
            if !self.suicide_allowed && board.is_suicide(c, p) {
                return Err(IllegalMove::Suicide);
            }
        }
        let mut next = board.clone();
        next.play_unchecked(c, m);
        self.boards.push(next);
        Ok(())
    }

    /// GTP `popgo`: takes back the last tried move.
    ///
    /// # Errors
    /// `StackEmpty` when no move was tried.
    pub fn popgo(&mut self) -> Result<(), StackEmpty> {
        if self.boards.len() <= 1 {
            return Err(StackEmpty);
        }
        self.boards.pop();
        Ok(())
    }
}
