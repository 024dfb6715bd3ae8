//! How much one reading query may do: the depth and node limits (the tactics' tunables) and
//! the [`Budget`] that GTP's `increase_depths`/`decrease_depths` scale.

// Tunables. Depths are in plies from the position asked about.

/// Plies of full-width reading. Beyond it only ladder moves are read (ataris on two-liberty
/// chains, escapes from atari), like GNU Go's `depth`: deep lines are nearly always ladders.
pub const READ_DEPTH: u32 = 16;
/// Moves one query may play before it gives up. An unfinished line counts as a failed attack
/// and so a successful defence: limits favour the defender, as in GNU Go. It keeps a query on
/// GNU Go's reading suites a fraction of a second (`doc/testing.md`); the heuristic player
/// has its own, smaller budget.
pub const NODE_BUDGET: u32 = 100_000;
/// Plies up to which a chain with three liberties is attacked (a fraction of the depth:
/// three-liberty attacks branch widely and rarely matter deep in a line).
pub const THREE_LIB_DEPTH: u32 = 9;
/// Plies up to which a chain with four liberties is attacked (GNU Go's `fourlib_depth`,
/// 7 at its default level). With killer moves ordering both sides, 9 and 7 fit in the node
/// budget and agree best with GNU Go on its reading suites, for some of the reader's speed
/// (`doc/testing.md`).
pub const FOUR_LIB_DEPTH: u32 = 7;
/// Plies up to which moves off the liberties are tried: nets (geta), approach moves,
/// reinforcing a weak surrounding chain, escaping a net by a hane, races and backfilling
/// (GNU Go's `backfill_depth` is 12 too).
pub const NET_DEPTH: u32 = 12;
/// Plies up to which captures (and rescues) of chains in atari near the target are tried:
/// a chain next to an attacking chain that touches the target or one of its liberties.
pub const NEAR_DEPTH: u32 = 5;
/// Plies up to which a side may retake a banned ko "after a threat" (GNU Go's `ko_depth`):
/// deeper, a ko counts as lost for the side that would need the threat.
pub const KO_DEPTH: u32 = 8;
/// More liberties than this and a chain is safe for tactical reading.
pub const MAX_LIBERTIES: usize = 4;
/// A ladder may run this many plies per point of board size before it counts as an escape:
/// a ladder moves one point a ply on average and may cross the board twice on a torus.
pub const LADDER_PLIES_PER_LINE: u32 = 6;

/// How much reading one query may do. `Default` is GNU Go-like: see the constants above.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    /// Moves (nodes) one query may play.
    pub nodes: u32,
    /// Plies of full-width reading (the other depths follow it, see [`Budget::scaled`]).
    pub depth: u32,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            nodes: NODE_BUDGET,
            depth: READ_DEPTH,
        }
    }
}

impl Budget {
    /// A budget of `nodes` moves at the default depth.
    pub fn with_nodes(nodes: u32) -> Budget {
        Budget {
            nodes,
            ..Budget::default()
        }
    }

    /// GTP `increase_depths`: one ply deeper and twice the nodes.
    pub fn increase_depths(&mut self) {
        self.depth = (self.depth + 1).min(4 * READ_DEPTH);
        self.nodes = self.nodes.saturating_mul(2).min(64 * NODE_BUDGET);
    }

    /// GTP `decrease_depths`: one ply shallower and half the nodes (never below one ply and
    /// a hundred nodes, so that a ladder can still be read).
    pub fn decrease_depths(&mut self) {
        self.depth = self.depth.saturating_sub(1).max(1);
        self.nodes = (self.nodes / 2).max(100);
    }

    /// A secondary depth scaled like `depth` against its default (`READ_DEPTH`).
    pub(crate) fn scaled(&self, default: u32) -> u32 {
        default * self.depth / READ_DEPTH
    }
}
