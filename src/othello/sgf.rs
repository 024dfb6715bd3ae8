//! Othello records: SGF `GM[2]` read into an [`OthelloRecord`], written back, and turned
//! into and out of an Othello [`Game`].
//!
//! SGF counts rows from the top (`aa` is the upper-left corner), as Othello front ends do,
//! so a record's point is directly a [`Square`]: `dc` is `D3`. A pass is `[]` (or `tt` on
//! boards up to 19x19, FF[3]'s pass). The start position is the root's `AB`/`AW`/`AE`; a
//! root with none of them means the standard start (the four centre discs), which is how
//! records that leave the obvious out read. The writer always writes the start position
//! out, so any reader sees it. Setup after the first move is refused (the game keeps no
//! such history).

use std::fmt;

use crate::color::Color;
use crate::othello::{Board, Game, IllegalMove, Move, Square, check_size};
use crate::sgf::error::SgfError;
use crate::sgf::info::GameInfo;
use crate::sgf::point::point_text;
use crate::sgf::read::{check_game, main_line, node_move, node_setup, read_size};
use crate::sgf::tree::{Collection, Node};
use crate::sgf::write::{push_main_line, push_move, push_setup, record_start};

/// The board size of an Othello record without `SZ`.
pub const OTHELLO_DEFAULT_SIZE: usize = 8;

/// One move of an Othello record's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OthelloSgfMove {
    pub color: Color,
    /// `None` is a pass.
    pub square: Option<Square>,
    /// The node's `C` text.
    pub comment: Option<String>,
}

/// The main line of one Othello game, with the game information shicho reads and writes.
#[derive(Clone, Debug, PartialEq)]
pub struct OthelloRecord {
    /// `SZ`, 8 when absent.
    pub size: usize,
    /// The root's discs (`AB`, `AW`; `AE` empties), in property order; `None` when the
    /// root has no setup at all: the standard start.
    pub setup: Option<Vec<(Square, Option<Color>)>>,
    /// The main line: the first variation at every branch.
    pub moves: Vec<OthelloSgfMove>,
    /// The players, result, date, event, time, who moves first (Black when `PL` is absent)
    /// and the root's comment; [`OthelloRecord::from_collection`] leaves ranks out.
    pub info: GameInfo,
}

/// Where replaying an Othello record stops (`loadsgf FILE [N|V]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OthelloStop {
    End,
    /// Before the move with this number (1 = the first move).
    BeforeMove(usize),
    /// Before the first move on this square.
    BeforeSquare(Square),
}

/// Why an Othello record could not be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OthelloReplayError {
    /// The move with this number breaks the rules, and how.
    Illegal(usize, IllegalMove),
    /// The move with this number is off the board.
    OffBoard(usize),
}

impl fmt::Display for OthelloReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OthelloReplayError::Illegal(n, why) => write!(f, "move {n} is illegal ({why})"),
            OthelloReplayError::OffBoard(n) => write!(f, "move {n} is off the board"),
        }
    }
}

impl std::error::Error for OthelloReplayError {}

impl OthelloRecord {
    /// An empty record (the standard start) on a board of `size`.
    pub fn new(size: usize) -> OthelloRecord {
        OthelloRecord {
            size,
            setup: None,
            moves: Vec::new(),
            info: GameInfo::default(),
        }
    }

    /// The Othello record of the first game tree of `collection`.
    ///
    /// # Errors
    /// [`SgfError`] for an empty collection, a `GM` other than 2 (a record without `GM`
    /// is taken as Othello: the caller asked for one), a size Othello does not have,
    /// malformed or off-board points, a node with two moves, setup after the first move.
    pub fn from_collection(collection: &Collection) -> Result<OthelloRecord, SgfError> {
        let (root, after_root) = main_line(collection)?;
        check_game(root, "2", SgfError::NotOthello)?;
        let size = read_size(root, OTHELLO_DEFAULT_SIZE, |n| check_size(n).is_ok())?;
        let mut record = OthelloRecord::new(size);
        record.info = GameInfo {
            // Othello's view has always left ranks out; keeping them would change what a
            // record reads as, which is a decision of its own.
            black_rank: None,
            white_rank: None,
            ..GameInfo::read(root)
        };
        let setup = setup_discs(root, size)?;
        let has_setup = ["AB", "AW", "AE"].iter().any(|i| root.get(i).is_some());
        record.setup = has_setup.then_some(setup);
        if let Some((color, square)) = othello_move(root, size)? {
            record.moves.push(OthelloSgfMove {
                color,
                square,
                comment: None,
            });
        }
        for node in after_root {
            let has_setup = ["AB", "AW", "AE"].iter().any(|i| node.get(i).is_some());
            if has_setup {
                return Err(SgfError::SetupInPlay);
            }
            if let Some((color, square)) = othello_move(node, size)? {
                record.moves.push(OthelloSgfMove {
                    color,
                    square,
                    comment: node.value("C").map(str::to_string),
                });
            }
        }
        Ok(record)
    }

    /// The record of `game`: its start position written out, who moved first, every move
    /// (passes the game inferred included: they happened).
    pub fn from_game(game: &Game) -> OthelloRecord {
        let (start, first) = game.start();
        let mut record = OthelloRecord::new(game.size());
        record.setup = Some(
            start
                .squares()
                .filter_map(|s| start.get(s).map(|c| (s, Some(c))))
                .collect(),
        );
        record.info.player_to_move = Some(first);
        record.moves = game
            .history()
            .iter()
            .map(|t| OthelloSgfMove {
                color: t.color,
                square: t.mv.square(),
                comment: None,
            })
            .collect();
        record
    }

    /// The game the record describes, up to `stop`. A move by the colour not to move is
    /// taken as Quarry sends it: the side to move had to pass (the pass is inferred).
    ///
    /// # Errors
    /// [`OthelloReplayError`] for a move the rules refuse.
    pub fn replay(&self, stop: OthelloStop) -> Result<Game, OthelloReplayError> {
        // `from_collection` checked the size; a record built in code may not have.
        let size = check_size(self.size).unwrap_or(OTHELLO_DEFAULT_SIZE);
        let board = match &self.setup {
            None => Board::new(size).expect("a checked size"),
            Some(discs) => {
                let mut board = Board::empty(size).expect("a checked size");
                for &(s, disc) in discs.iter().filter(|(s, _)| s.is_on(size)) {
                    board.set(s, disc);
                }
                board
            }
        };
        let mut game = Game::from_position(board, self.info.player_to_move.unwrap_or(Color::Black));
        for (i, m) in self.moves.iter().enumerate() {
            let stopped = match stop {
                OthelloStop::End => false,
                OthelloStop::BeforeMove(n) => i + 1 >= n,
                OthelloStop::BeforeSquare(s) => m.square == Some(s),
            };
            if stopped {
                // The move's colour is to move, as GNU Go's loadsgf has it, when the
                // rules allow it (the other side has to pass).
                let _ = game.give_turn_to(m.color);
                break;
            }
            let mv = match m.square {
                Some(s) if s.is_on(size) => Move::Play(s),
                Some(_) => return Err(OthelloReplayError::OffBoard(i + 1)),
                None => Move::Pass,
            };
            game.play_as(m.color, mv)
                .map_err(|why| OthelloReplayError::Illegal(i + 1, why))?;
        }
        Ok(game)
    }
}

/// The SGF text of an Othello record: one game tree, FF[4], `GM[2]`.
pub fn write_othello(record: &OthelloRecord) -> String {
    let size = record.size;
    let mut out = record_start(2, size);
    record.info.write(&mut out);
    let setup = match &record.setup {
        Some(discs) => discs.clone(),
        None => Board::new(check_size(size).unwrap_or(OTHELLO_DEFAULT_SIZE))
            .map(|b| {
                b.squares()
                    .filter_map(|s| b.get(s).map(|c| (s, Some(c))))
                    .collect()
            })
            .unwrap_or_default(),
    };
    let points: Vec<(String, Option<Color>)> = setup
        .iter()
        .filter_map(|&(s, color)| Some((square_text(s, size)?, color)))
        .collect();
    push_setup(&mut out, &points);
    push_main_line(&mut out, &record.moves, |out, m| {
        let point = m
            .square
            .and_then(|s| square_text(s, size))
            .unwrap_or_default();
        push_move(out, m.color, &point, m.comment.as_deref());
    });
    out.push_str(")\n");
    out
}

/// The SGF text of a square, `None` if it is off a board of `size`.
fn square_text(s: Square, size: usize) -> Option<String> {
    if !s.is_on(size) {
        log::error!("SGF writer: {s} is off a {size}x{size} board; dropped");
        return None;
    }
    point_text((s.x(), s.y()))
}

/// The `B` or `W` of a node, if any (`None` inside: a pass).
fn othello_move(node: &Node, size: usize) -> Result<Option<(Color, Option<Square>)>, SgfError> {
    let played = node_move(node, size)?;
    Ok(played.map(|(color, point)| (color, point.map(|(x, y)| Square::new(x, y)))))
}

/// The `AB`, `AW` and `AE` discs of a node in property order, compressed lists expanded.
fn setup_discs(node: &Node, size: usize) -> Result<Vec<(Square, Option<Color>)>, SgfError> {
    let discs = node_setup(node, size)?.into_iter();
    Ok(discs
        .map(|((x, y), color)| (Square::new(x, y), color))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parse_collection;

    fn record(text: &str) -> Result<OthelloRecord, SgfError> {
        OthelloRecord::from_collection(&parse_collection(text)?)
    }

    fn sq(text: &str) -> Square {
        Square::parse(text, 8).unwrap()
    }

    #[test]
    fn rows_count_from_the_top_as_in_othello() {
        let r = record("(;GM[2]SZ[8];B[dc];W[cc])").unwrap();
        assert_eq!(r.setup, None);
        assert_eq!(r.moves[0].square, Some(sq("D3")));
        assert_eq!(r.moves[1].square, Some(sq("C3")));
        let g = r.replay(OthelloStop::End).unwrap();
        assert_eq!(g.history().len(), 2);
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn games_round_trip_with_inferred_passes() {
        // 4x4 where Black has no move: White's move is recorded after Black's pass.
        let mut b = Board::empty(4).unwrap();
        b.set(Square::new(0, 0), Some(Color::White));
        b.set(Square::new(1, 0), Some(Color::Black));
        let mut g = Game::from_position(b, Color::Black);
        let w = g.board().legal_moves(Color::White)[0];
        g.play_as(Color::White, Move::Play(w)).unwrap();
        let text = write_othello(&OthelloRecord::from_game(&g));
        assert!(text.starts_with("(;FF[4]GM[2]"), "{text}");
        assert!(text.contains("PL[B]AB[ba]AW[aa]\n;B[];W["), "{text}");
        let back = record(&text).unwrap().replay(OthelloStop::End).unwrap();
        assert_eq!(back.board(), g.board());
        assert_eq!(back.history().len(), 2);
    }

    #[test]
    fn stops_before_a_move_number_or_square() {
        let r = record("(;GM[2];B[dc];W[cc];B[cd])").unwrap();
        let g = r.replay(OthelloStop::BeforeMove(2)).unwrap();
        assert_eq!((g.history().len(), g.to_move()), (1, Color::White));
        let g = r.replay(OthelloStop::BeforeSquare(sq("C4"))).unwrap();
        assert_eq!(g.history().len(), 2);
    }

    #[test]
    fn bad_records_are_refused() {
        assert_eq!(record("(;GM[1])"), Err(SgfError::NotOthello("1".into())));
        assert!(matches!(record("(;SZ[7])"), Err(SgfError::BadSize(_))));
        assert!(matches!(record("(;SZ[28])"), Err(SgfError::BadSize(_))));
        assert!(matches!(record("(;B[zz])"), Err(SgfError::BadPoint { .. })));
        assert_eq!(record("(;B[dc];AB[aa])"), Err(SgfError::SetupInPlay));
        let illegal = record("(;B[aa])").unwrap().replay(OthelloStop::End);
        assert_eq!(
            illegal,
            Err(OthelloReplayError::Illegal(1, IllegalMove::FlipsNothing))
        );
    }
}
