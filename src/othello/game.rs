//! A game: the board, the side to move, forced and inferred passes, history with undo, and
//! setup positions.
//!
//! Only the side to move plays ([`Game::play`]). Front ends do not all say so:
//! Quarry never sends a pass and Edax-style controllers name the colour they want to move.
//! [`Game::play_as`] serves both: a move by the colour that is *not* to move is accepted
//! when the side to move has no legal move, by first inserting that side's forced pass
//! (recorded as inferred, so an undo can take both back).

use std::fmt;

use crate::color::{ByColor, Color};
use crate::game::{BoardGame, GameKind};

use crate::othello::board::{Board, IllegalMove, Score};
use crate::othello::coord::{Move, SizeError, Square};
use crate::othello::perft::perft_board;

/// One move of the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub color: Color,
    pub mv: Move,
    /// A pass the game inserted because the other colour moved ([`Game::play_as`]).
    pub inferred: bool,
    /// The board before the move (undo restores it; a board is a few hundred bytes).
    before: Board,
}

/// What [`Game::play_as`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Played {
    /// Discs turned over (0 for a pass).
    pub flipped: u32,
    /// Whether a forced pass of the other colour was inserted first.
    pub inferred_pass: bool,
}

/// The history was empty (GTP's `cannot undo`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CannotUndo;

impl fmt::Display for CannotUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot undo")
    }
}

impl std::error::Error for CannotUndo {}

/// A game of Othello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position the history starts from (the standard start or a setup).
    start: Board,
    start_to_move: Color,
    board: Board,
    to_move: Color,
    history: Vec<Turn>,
}

impl Game {
    /// The standard start on `size`, Black to move.
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is even and within 4..=26.
    pub fn new(size: usize) -> Result<Game, SizeError> {
        Ok(Game::from_position(Board::new(size)?, Color::Black))
    }

    /// A game starting from any position (SGF `AB`/`AW`/`PL`, `gogui-setup`).
    pub fn from_position(board: Board, to_move: Color) -> Game {
        Game {
            start: board.clone(),
            start_to_move: to_move,
            board,
            to_move,
            history: Vec::new(),
        }
    }

    /// Back to the standard start of the same size.
    pub fn clear(&mut self) {
        // The size is already known to be valid.
        *self = Game::new(self.size()).expect("a valid size stays valid");
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The position the history starts from, and who moved first there (for `printsgf`).
    pub fn start(&self) -> (&Board, Color) {
        (&self.start, self.start_to_move)
    }

    /// The moves played since the start, inferred passes included (marked).
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// Passes at the end of the history, in a row.
    pub fn consecutive_passes(&self) -> usize {
        self.history
            .iter()
            .rev()
            .take_while(|t| t.mv == Move::Pass)
            .count()
    }

    /// Neither side can move.
    pub fn is_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// The disc counts (final once [`Game::is_over`]); `Display` gives `B+N`, `W+N` or `0`.
    pub fn score(&self) -> Score {
        self.board.score()
    }

    /// The legal moves of the side to move: its disc moves, or `[Pass]` when it has none
    /// and the game is not over, or nothing when it is.
    pub fn legal_moves(&self) -> Vec<Move> {
        let squares = self.board.legal_moves(self.to_move);
        if !squares.is_empty() {
            squares.into_iter().map(Move::Play).collect()
        } else if self.board.has_moves(self.to_move.other()) {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// Whether `c` could play `mv` if it were `c`'s turn: a disc move that flips, or a pass
    /// when `c` has no disc move and the game is not over.
    pub fn is_legal(&self, c: Color, mv: Move) -> bool {
        self.check(c, mv).is_ok()
    }

    fn check(&self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Play(s) if self.board.get(s).is_some() => Err(IllegalMove::Occupied),
            Move::Play(s) if !self.board.is_legal(c, s) => Err(IllegalMove::FlipsNothing),
            Move::Pass if self.board.has_moves(c) => Err(IllegalMove::PassWithMoves),
            _ => Ok(()),
        }
    }

    /// Plays `mv` for the side to move.
    ///
    /// # Errors
    /// `GameOver`, `Occupied`, `FlipsNothing` or `PassWithMoves`; the game is unchanged.
    ///
    /// # Panics
    /// When the square is off the board.
    pub fn play(&mut self, mv: Move) -> Result<u32, IllegalMove> {
        self.push(mv, false)
    }

    /// Plays `mv` for `c`, whoever is to move: when `c` is not to move but the side to move
    /// has no legal move, that side's forced pass is inserted first (Quarry sends no passes;
    /// Edax plays the pass for the other side). Otherwise a move by the wrong colour fails.
    ///
    /// # Errors
    /// `WrongColor` when the side to move could move; else as [`Game::play`]. The game is
    /// unchanged on error (an inserted pass is taken back).
    pub fn play_as(&mut self, c: Color, mv: Move) -> Result<Played, IllegalMove> {
        let inferred_pass = c != self.to_move;
        if inferred_pass {
            if self.board.has_moves(self.to_move) {
                return Err(IllegalMove::WrongColor);
            }
            self.push(Move::Pass, true)?;
        }
        match self.push(mv, false) {
            Ok(flipped) => Ok(Played {
                flipped,
                inferred_pass,
            }),
            Err(e) => {
                if inferred_pass {
                    self.pop();
                }
                Err(e)
            }
        }
    }

    /// Makes it `c`'s turn, as a `genmove c` from an Edax- or Quarry-style controller needs:
    /// nothing when `c` is to move; when the other side is to move but has no legal move,
    /// its forced pass is inserted (recorded as inferred). Returns whether a pass was
    /// inserted.
    ///
    /// # Errors
    /// `WrongColor` when the side to move has a move; `GameOver` when neither side has.
    pub fn give_turn_to(&mut self, c: Color) -> Result<bool, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if c == self.to_move {
            return Ok(false);
        }
        if self.board.has_moves(self.to_move) {
            return Err(IllegalMove::WrongColor);
        }
        self.push(Move::Pass, true)?;
        Ok(true)
    }

    fn push(&mut self, mv: Move, inferred: bool) -> Result<u32, IllegalMove> {
        let c = self.to_move;
        self.check(c, mv)?;
        let before = self.board.clone();
        let flipped = match mv {
            Move::Play(s) => self.board.play(c, s)?,
            Move::Pass => 0,
        };
        self.history.push(Turn {
            color: c,
            mv,
            inferred,
            before,
        });
        self.to_move = c.other();
        Ok(flipped)
    }

    fn pop(&mut self) -> Option<Turn> {
        let t = self.history.pop()?;
        self.board = t.before.clone();
        self.to_move = t.color;
        Some(t)
    }

    /// Takes back the last move (one history entry: an inferred pass is its own entry).
    ///
    /// # Errors
    /// [`CannotUndo`] when the history is empty.
    pub fn undo(&mut self) -> Result<Turn, CannotUndo> {
        self.pop().ok_or(CannotUndo)
    }

    /// Replaces the position by a setup: discs put or removed, and optionally the side to
    /// move. The result becomes the start; the history is cleared.
    ///
    /// # Panics
    /// When a square is off the board.
    pub fn setup(&mut self, changes: &[(Square, Option<Color>)], to_move: Option<Color>) {
        let mut board = self.board.clone();
        for &(s, disc) in changes {
            board.set(s, disc);
        }
        *self = Game::from_position(board, to_move.unwrap_or(self.to_move));
    }

    /// Sets the side to move (SGF `PL`) without changing the discs; clears the history.
    pub fn set_to_move(&mut self, c: Color) {
        self.setup(&[], Some(c));
    }

    /// The number of move sequences of `depth` plies from here, passes counted as moves and
    /// nothing after two passes in a row (see [`perft`](crate::othello::perft)).
    pub fn perft(&self, depth: u32) -> u64 {
        perft_board(
            &self.board,
            self.to_move,
            depth,
            self.consecutive_passes().min(2) as u32,
        )
    }

    /// The hash of the discs and the side to move (the searcher's table key).
    pub fn position_key(&self) -> u64 {
        self.board.position_key(self.to_move)
    }
}

/// The `showboard` diagram: the board, the disc counts and who moves (or the result).
impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.board)?;
        let s = self.score();
        write!(f, "Black (X): {}  White (O): {}  ", s.black, s.white)?;
        if self.is_over() {
            write!(f, "Game over: {s}")
        } else {
            write!(
                f,
                "{} to move",
                if self.to_move == Color::Black {
                    "Black"
                } else {
                    "White"
                }
            )
        }
    }
}

impl BoardGame for Game {
    type Move = Move;

    const PASS: Move = Move::Pass;

    fn kind(&self) -> GameKind {
        GameKind::Othello
    }

    fn size(&self) -> usize {
        Game::size(self)
    }

    fn to_move(&self) -> Color {
        Game::to_move(self)
    }

    fn legal_moves(&self) -> Vec<Move> {
        Game::legal_moves(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        Move::parse(text, Game::size(self)).map_err(|e| e.to_string())
    }

    fn format_move(&self, m: Move) -> String {
        m.to_string()
    }

    fn play(&mut self, m: Move) -> Result<(), String> {
        Game::play(self, m).map(drop).map_err(|e| e.to_string())
    }

    fn undo(&mut self) -> bool {
        Game::undo(self).is_ok()
    }

    fn moves_played(&self) -> usize {
        self.history().len()
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn rows(&self) -> Vec<String> {
        self.board().rows()
    }

    /// Discs each colour has turned over since the start.
    fn captured(&self) -> ByColor<u32> {
        let (start, _) = self.start();
        let mut board = start.clone();
        let mut flipped = ByColor::new(0, 0);
        for turn in self.history() {
            if let Move::Play(square) = turn.mv {
                // The history holds only legal moves, so replaying them cannot fail.
                flipped[turn.color] += board.play(turn.color, square).unwrap_or(0);
            }
        }
        flipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str, size: usize) -> Move {
        Move::parse(s, size).unwrap()
    }

    /// 4x4, Black to move:   O X . .   Black cannot bracket the corner disc; White
    ///                        . . . .   can play C1 over B1.
    fn forced_pass_game() -> Game {
        let mut b = Board::empty(4).unwrap();
        b.set(Square::new(0, 0), Some(Color::White));
        b.set(Square::new(1, 0), Some(Color::Black));
        Game::from_position(b, Color::Black)
    }

    #[test]
    fn plays_alternate_and_undo_restores() {
        let mut g = Game::new(8).unwrap();
        let start = g.clone();
        assert_eq!(g.play(mv("d3", 8)), Ok(1));
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.play(mv("d3", 8)), Err(IllegalMove::Occupied));
        assert_eq!(g.play(Move::Pass), Err(IllegalMove::PassWithMoves));
        assert_eq!(
            g.play_as(Color::Black, mv("c4", 8)),
            Err(IllegalMove::WrongColor)
        );
        g.play(mv("c5", 8)).unwrap();
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(g, start);
        assert_eq!(g.undo(), Err(CannotUndo));
    }

    #[test]
    fn a_move_by_the_other_colour_infers_the_forced_pass() {
        let mut g = forced_pass_game();
        assert!(!g.board().has_moves(Color::Black), "\n{g}");
        assert!(g.board().has_moves(Color::White), "\n{g}");
        assert_eq!(g.legal_moves(), [Move::Pass]);
        let w = g.board().legal_moves(Color::White)[0];
        let before = g.clone();
        // An illegal White move takes the inserted pass back.
        assert_eq!(
            g.play_as(Color::White, mv("a1", 4)),
            Err(IllegalMove::Occupied)
        );
        assert_eq!(g, before);
        let mut turned = g.clone();
        assert_eq!(turned.give_turn_to(Color::Black), Ok(false));
        assert_eq!(turned.give_turn_to(Color::White), Ok(true));
        assert_eq!(turned.to_move(), Color::White);
        assert_eq!(
            turned.give_turn_to(Color::Black),
            Err(IllegalMove::WrongColor)
        );
        let played = g.play_as(Color::White, Move::Play(w)).unwrap();
        assert!(played.inferred_pass);
        assert_eq!(g.history().len(), 2);
        assert!(g.history()[0].inferred && g.history()[0].mv == Move::Pass);
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(g, before);
    }

    #[test]
    fn showboard_says_who_moves() {
        let g = Game::new(4).unwrap();
        assert!(
            g.to_string()
                .ends_with("Black (X): 2  White (O): 2  Black to move")
        );
    }
}
