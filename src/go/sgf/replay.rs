//! SGF records and games: the one place that turns a [`Game`] into an [`SgfGame`]
//! (`printsgf`, the match referee's records) and an [`SgfGame`] back into a [`Game`]
//! (`loadsgf`).

use std::fmt;

use crate::color::Color;
use crate::go::board::{Board, IllegalMove};
use crate::go::game::{Action, Game};
use crate::go::geometry::{Geometry, SizeError, Topology};
use crate::go::point::{Move, Point};
use crate::go::rules::Rules;
use crate::go::sgf::record::{SetupStone, SgfGame, SgfMove};

/// The root comment of a record played on a torus: SGF has no property for the topology,
/// and `RU` alone names the rules only to programs that know them.
pub const TORUS_COMMENT: &str = "Played on a torus (Dao-qi): coordinates wrap on both axes.";

/// Where replaying a record stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// After the last move (and the setup after it).
    End,
    /// Before the move with this number (1 = the first move).
    BeforeMove(usize),
    /// Before the first move at this point (column, row from the bottom).
    BeforePoint(usize, usize),
}

/// Why a record could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The record's size on its rules' topology.
    Size(SizeError),
    /// A point off the board.
    OffBoard(usize, usize),
    /// Setup stones that leave a chain without liberties.
    NoLiberties,
    /// The move with this number is on an occupied point.
    Occupied(usize),
    /// A move the board cannot take even when forced.
    Unplayable(IllegalMove),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Size(e) => e.fmt(f),
            ReplayError::OffBoard(x, y) => write!(f, "point {x},{y} off the board"),
            ReplayError::NoLiberties => f.write_str("setup leaves a chain without liberties"),
            ReplayError::Occupied(n) => write!(f, "move {n} is on an occupied point"),
            ReplayError::Unplayable(why) => why.fmt(f),
        }
    }
}

impl std::error::Error for ReplayError {}

impl SgfGame {
    /// The record of `game`: size, komi, rules, the start position as setup (a handicap
    /// when it is Black stones only), every move, and setup changes made between moves.
    pub fn from_game(game: &Game) -> SgfGame {
        let geo = game.geometry();
        let xy = |p: Point| geo.xy(p);
        let stones_of = |b: &Board| -> Vec<SetupStone> {
            geo.points()
                .filter_map(|p| {
                    b.get(p).map(|c| SetupStone {
                        point: xy(p),
                        color: Some(c),
                    })
                })
                .collect()
        };
        let mut record = SgfGame::new(geo.size());
        record.komi = Some(game.komi());
        record.rules = Some(game.rules().to_string());
        record.setup = stones_of(game.start_board());
        if !record.setup.is_empty() && record.setup.iter().all(|s| s.color == Some(Color::Black)) {
            record.handicap = Some(record.setup.len() as u32);
        }
        let actions: Vec<Action> = game.actions().collect();
        let mut pending_setup = Vec::new();
        for (i, &action) in actions.iter().enumerate() {
            match action {
                Action::Play(c, m) => record.moves.push(SgfMove {
                    setup: std::mem::take(&mut pending_setup),
                    color: c,
                    point: m.point().map(xy),
                    comment: None,
                }),
                Action::Setup => {
                    let (before, after) = (game.position_before(i), game.position_before(i + 1));
                    for p in geo.points() {
                        if before.get(p) != after.get(p) {
                            pending_setup.push(SetupStone {
                                point: xy(p),
                                color: after.get(p),
                            });
                        }
                    }
                }
            }
        }
        record.trailing_setup = pending_setup;
        // Before the first move a reader has to guess who starts (Black, or White after what
        // looks like a handicap: Black stones only, HA[2] or more), and Black stones set up
        // by gogui-setup with Black to move look just like a handicap; PL says it outright.
        if game.moves().next().is_none()
            && (game.to_move() == Color::White || !record.setup.is_empty())
        {
            record.info.player_to_move = Some(game.to_move());
        }
        if geo.topology() == Topology::Torus {
            record.info.comment = Some(TORUS_COMMENT.into());
        }
        record
    }

    /// The game the record describes, replayed up to `stop`. The record's rules, where they
    /// name rules we know (a torus game above all), and its komi are used; `rules` and
    /// `komi` stand in for what it leaves out.
    ///
    /// Records made under other rules may break ours (a superko, a suicide): such a move
    /// is replayed as it stands, since the record is what happened.
    ///
    /// # Errors
    /// [`ReplayError`] for a size the rules' topology does not take, points off the board,
    /// setup without liberties, a move on an occupied point.
    pub fn replay(&self, rules: Rules, komi: f64, stop: Stop) -> Result<Game, ReplayError> {
        let rules = self
            .rules
            .as_deref()
            .and_then(|r| r.parse::<Rules>().ok())
            .unwrap_or(rules);
        let geo = Geometry::get(self.size, rules.topology).map_err(ReplayError::Size)?;
        let point = |(x, y): (usize, usize)| geo.point(x, y).ok_or(ReplayError::OffBoard(x, y));
        let mut cells = vec![None; geo.num_points()];
        for s in &self.setup {
            cells[point(s.point)?.index()] = s.color;
        }
        let start = Board::from_stones(geo, &cells).map_err(|_| ReplayError::NoLiberties)?;
        let handicap_like = self.setup.iter().all(|s| s.color == Some(Color::Black))
            && self.setup.len() >= 2
            && self.handicap.unwrap_or(0) >= 2;
        let first = self.info.player_to_move.unwrap_or(if handicap_like {
            Color::White
        } else {
            Color::Black
        });
        let komi = self.komi.unwrap_or(komi);
        let mut game = Game::with_position(start, first, rules, komi);
        let mut stopped = false;
        for (i, mv) in self.moves.iter().enumerate() {
            // The setup nodes before a move are part of the position that move is played
            // in, so they are in place even when loading stops before it (GNU Go does the
            // same).
            apply_setup(&mut game, &mv.setup, &point)?;
            stopped = match stop {
                Stop::End => false,
                Stop::BeforeMove(n) => i + 1 >= n,
                Stop::BeforePoint(x, y) => mv.point == Some((x, y)),
            };
            if stopped {
                // GNU Go gives the move to the colour of the move it stopped before, even
                // where a record lets one colour move twice.
                game.set_to_move(mv.color);
                break;
            }
            let m = match mv.point {
                Some(xy) => Move::Play(point(xy)?),
                None => Move::Pass,
            };
            if let Err(why) = game.play(mv.color, m) {
                if why == IllegalMove::Occupied {
                    return Err(ReplayError::Occupied(i + 1));
                }
                log::warn!(
                    "move {} is illegal under {} ({why}); replayed anyway",
                    i + 1,
                    game.rules()
                );
                game.play_forced(mv.color, m)
                    .map_err(ReplayError::Unplayable)?;
            }
        }
        // A stop that was never reached (a move number past the end, a vertex never played)
        // loads the whole record, setup after the last move included.
        if !stopped {
            apply_setup(&mut game, &self.trailing_setup, &point)?;
        }
        Ok(game)
    }
}

fn apply_setup(
    game: &mut Game,
    setup: &[SetupStone],
    point: &impl Fn((usize, usize)) -> Result<Point, ReplayError>,
) -> Result<(), ReplayError> {
    if setup.is_empty() {
        return Ok(());
    }
    let changes = setup
        .iter()
        .map(|s| Ok((point(s.point)?, s.color)))
        .collect::<Result<Vec<_>, ReplayError>>()?;
    game.setup(&changes).map_err(|_| ReplayError::NoLiberties)
}
