//! The typed view of one Go game: its main line, setup and game information.
//!
//! Points are `(column, row)` with column 0 on the left and row 0 at the BOTTOM, as in GTP
//! and [`Geometry::point`](crate::go::geometry::Geometry::point). SGF counts rows from the top
//! (`aa` is the upper-left corner), so the conversion needs the board size.

use crate::color::Color;
use crate::go::geometry::{MAX_SIZE, MIN_SIZE};
use crate::sgf::error::SgfError;
use crate::sgf::info::{GameInfo, info_value};
use crate::sgf::number;
use crate::sgf::point::{SgfPoint, point_text as sgf_point_text};
use crate::sgf::read::{check_game, main_line, node_move, node_setup, read_size};
use crate::sgf::tree::{Collection, Node};

/// A stone put on the board (`AB`, `AW`) or a point cleared (`AE`) outside of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetupStone {
    /// Column (0 = left), row (0 = bottom).
    pub point: (usize, usize),
    /// `None` clears the point.
    pub color: Option<Color>,
}

/// One move of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfMove {
    /// Stones set up or cleared by the main-line nodes since the previous move (including
    /// this move's own node), to apply in order before the move. Usually empty.
    pub setup: Vec<SetupStone>,
    pub color: Color,
    /// Column (0 = left), row (0 = bottom); `None` is a pass.
    pub point: Option<(usize, usize)>,
    /// The node's `C` text.
    pub comment: Option<String>,
}

/// The main line of one Go game, with the game information the engine cares about.
///
/// Within one node FF[4] forbids naming a point twice, so the order of a setup list only
/// matters across nodes. The writer puts each list into one node, grouped `AB`, `AW`, `AE`;
/// a list that names a point twice or interleaves the kinds reads back grouped.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// `SZ`, 19 when absent.
    pub size: usize,
    /// `KM`.
    pub komi: Option<f64>,
    /// `HA`: informational; the stones themselves are in `setup`.
    pub handicap: Option<u32>,
    /// `RU`, free text (`Japanese`, `Chinese`, `AGA`, ...).
    pub rules: Option<String>,
    /// `AB`/`AW`/`AE` of the root node, compressed point lists expanded.
    pub setup: Vec<SetupStone>,
    /// The main line: the first variation at every branch.
    pub moves: Vec<SgfMove>,
    /// Setup in main-line nodes after the last move.
    pub trailing_setup: Vec<SetupStone>,
    /// The players, result, date, event, time, who moves first and the root's comment.
    pub info: GameInfo,
}

/// The size an SGF file without `SZ` is played on.
pub const DEFAULT_SIZE: usize = 19;

impl SgfGame {
    /// An empty record for a board of `size`.
    pub fn new(size: usize) -> SgfGame {
        SgfGame {
            size,
            komi: None,
            handicap: None,
            rules: None,
            setup: Vec::new(),
            moves: Vec::new(),
            trailing_setup: Vec::new(),
            info: GameInfo::default(),
        }
    }

    /// The typed view of the first game tree of `collection`.
    ///
    /// Board-changing properties are checked strictly (a bad `SZ`, `B`, `W`, `AB`, `AW` or
    /// `AE` is an error, since replaying a wrong position would be worse than refusing).
    /// Malformed game information (`KM`, `HA`, `TM`, `PL`) is logged and left out, since the
    /// position can be replayed without it.
    ///
    /// Main-line setup nodes are folded into the next move's `setup`; a comment on a node
    /// without a move is not kept. A move in the root node (old files do that) becomes the
    /// first move, after the root setup; the root comment stays the game's comment.
    ///
    /// # Errors
    /// [`SgfError`] for an empty collection, a non-Go `GM`, a size outside
    /// `MIN_SIZE..=MAX_SIZE`, a non-square size, malformed or off-board points, a node with
    /// both `B` and `W` or several values for one of them.
    pub fn from_collection(collection: &Collection) -> Result<SgfGame, SgfError> {
        let (root, after_root) = main_line(collection)?;
        check_game(root, "1", SgfError::NotGo)?;
        let size = read_size(root, DEFAULT_SIZE, |n| (MIN_SIZE..=MAX_SIZE).contains(&n))?;
        let mut game = SgfGame::new(size);
        game.komi = info_value(root, "KM", number::real);
        game.handicap = info_value(root, "HA", number::number);
        game.rules = root.value("RU").map(str::to_string);
        game.info = GameInfo::read(root);
        game.setup = setup_stones(root, size)?;

        // A move in the root node is bad style but common enough in old files.
        if let Some((color, point)) = go_move(root, size)? {
            game.moves.push(SgfMove {
                setup: Vec::new(),
                color,
                point,
                comment: None,
            });
        }
        let mut pending = Vec::new();
        for node in after_root {
            pending.extend(setup_stones(node, size)?);
            if let Some((color, point)) = go_move(node, size)? {
                game.moves.push(SgfMove {
                    setup: std::mem::take(&mut pending),
                    color,
                    point,
                    comment: node.value("C").map(str::to_string),
                });
            }
        }
        game.trailing_setup = pending;
        Ok(game)
    }
}

/// Go's point for SGF's: the same column, the row counted from the bottom.
fn from_sgf((x, y): SgfPoint, size: usize) -> (usize, usize) {
    (x, size - 1 - y)
}

/// The SGF text of an on-board point, `None` if it is off a board of `size`.
pub(crate) fn point_text((x, row): (usize, usize), size: usize) -> Option<String> {
    if x >= size || row >= size {
        return None;
    }
    sgf_point_text((x, size - 1 - row))
}

/// Who played and where (`None` = pass).
type Played = (Color, Option<(usize, usize)>);

/// The `B` or `W` of a node, if any, on Go's points.
fn go_move(node: &Node, size: usize) -> Result<Option<Played>, SgfError> {
    let played = node_move(node, size)?;
    Ok(played.map(|(color, point)| (color, point.map(|p| from_sgf(p, size)))))
}

/// The `AB`, `AW` and `AE` stones of a node in property order, compressed lists expanded.
fn setup_stones(node: &Node, size: usize) -> Result<Vec<SetupStone>, SgfError> {
    let stones = node_setup(node, size)?.into_iter();
    Ok(stones
        .map(|(point, color)| SetupStone {
            point: from_sgf(point, size),
            color,
        })
        .collect())
}
