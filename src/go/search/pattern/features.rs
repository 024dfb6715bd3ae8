//! What a player sees of a move at a glance, as a few discrete features: the 3x3 shape
//! around it (with which neighbouring chains are in atari), captures, escapes from atari,
//! ataris, self-ataris, the distance to the last two moves and to the edge, and the larger
//! shapes around it (`spatial`). The tree's
//! priors weigh moves by these features with weights learnt from game records
//! (`gammas`, Coulom's minorization-maximization: "Computing Elo Ratings of Move Patterns
//! in the Game of Go", 2007), and `train/src/priors.rs` learns them.
//!
//! The shape is seen from the mover's side (own and opponent stones, not black and white)
//! and reduced over the eight symmetries of the square, so that one weight serves every
//! orientation.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::geometry::{RING_OFFSETS, Topology};
use crate::go::point::{Move, Point};
use crate::go::search::pattern::spatial;
use crate::go::tactics::self_atari::{SelfAtari, self_atari};
use crate::go::tactics::{ladder_attack, ladder_escape};

/// The feature groups other than the shape, each with its number of levels (level 0 is
/// "none").
pub const GROUPS: [(&str, usize); 8] = [
    ("capture", 5),
    ("escape", 4),
    ("atari", 3),
    ("self_atari", 3),
    ("distance_last", 18),
    ("distance_before", 18),
    ("line", 7),
    ("owner", 10),
];

pub const CAPTURE: usize = 0;
pub const ESCAPE: usize = 1;
pub const ATARI: usize = 2;
pub const SELF_ATARI: usize = 3;
pub const DISTANCE_LAST: usize = 4;
pub const DISTANCE_BEFORE: usize = 5;
pub const LINE: usize = 6;
/// How often the point ends up the mover's in playouts from the position (`with_owner`):
/// level 0 unknown, 1 never ... 9 always. Play in the opponent's settled area is wasted,
/// in one's own settled area too; the contested middle is where moves matter.
pub const OWNER: usize = 7;

/// A move's features: its canonical 3x3 shape code, the hashes of its larger shapes (all 0
/// until [`with_spatial`] computes them: they cost time and count only when the gammas
/// have some) and one level per group of [`GROUPS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    pub shape: u32,
    pub spatial: [u64; spatial::SIZES],
    pub levels: [u8; GROUPS.len()],
}

/// Positions of the four orthogonal neighbours in `RING_OFFSETS` order (N, W, E, S).
const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];

/// The eight symmetries of the square as permutations of the ring: `SYMMETRIES[s][i]` is
/// where ring position `i` goes.
fn symmetries() -> &'static [[usize; 8]; 8] {
    static TABLE: std::sync::OnceLock<[[usize; 8]; 8]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|s| {
            let perm = spatial::symmetry_permutation(&RING_OFFSETS, s);
            std::array::from_fn(|i| perm[i])
        })
    })
}

/// The shape code of the move `c` at `p`: two bits per ring point (0 empty, 1 own, 2
/// opponent, 3 off the board) and, above them, one bit per orthogonal neighbour whose
/// chain is in atari; the smallest code over the symmetries.
pub fn shape(board: &Board, c: Color, p: Point) -> u32 {
    let geo = board.geometry();
    let mut states = [0u32; 8];
    let mut atari = [false; 8];
    for (i, q) in geo.ring(p).iter().enumerate() {
        states[i] = match q {
            None => 3,
            Some(q) => match board.get(*q) {
                None => 0,
                Some(x) => {
                    if ORTHOGONAL.contains(&i) {
                        atari[i] = board.liberty_count(*q) == 1;
                    }
                    if x == c { 1 } else { 2 }
                }
            },
        };
    }
    symmetries()
        .iter()
        .map(|perm| {
            let mut code = 0u32;
            for i in 0..8 {
                code |= states[i] << (2 * perm[i]);
            }
            for &o in &ORTHOGONAL {
                // The orthogonal position `o` goes to `perm[o]`, also orthogonal.
                if atari[o] {
                    let to = ORTHOGONAL
                        .iter()
                        .position(|&x| x == perm[o])
                        .expect("orthogonal stays orthogonal");
                    code |= 1 << (16 + to);
                }
            }
            code
        })
        .min()
        .unwrap_or(0)
}

/// `f` with the hashes of the larger shapes around `c` playing at `p`.
pub fn with_spatial(mut f: Features, board: &Board, c: Color, p: Point) -> Features {
    f.spatial = spatial::hashes(board, c, p);
    f
}

/// `f` with the owner level of its point, `black_ownership` being the point's mean owner
/// at the end of playouts (+1 Black, -1 White) and `c` the mover.
pub fn with_owner(mut f: Features, c: Color, black_ownership: f32) -> Features {
    let own = match c {
        Color::Black => black_ownership,
        Color::White => -black_ownership,
    };
    let share = ((1.0 + own) / 2.0).clamp(0.0, 1.0);
    f.levels[OWNER] = 1 + (share * 8.0).round() as u8;
    f
}

/// Coulom's distance between two points, `dx + dy + max(dx, dy)`, wrapping on a torus.
pub fn distance(board: &Board, p: Point, q: Point) -> usize {
    let geo = board.geometry();
    let n = geo.size();
    let (px, py) = geo.xy(p);
    let (qx, qy) = geo.xy(q);
    let mut dx = px.abs_diff(qx);
    let mut dy = py.abs_diff(qy);
    if geo.topology() == Topology::Torus {
        dx = dx.min(n - dx);
        dy = dy.min(n - dy);
    }
    spatial::coulom_distance(dx, dy)
}

fn distance_level(board: &Board, p: Point, q: Option<Point>) -> u8 {
    match q {
        None => 0,
        Some(q) => distance(board, p, q).clamp(2, 18) as u8 - 1,
    }
}

/// The features of `c` playing the empty point `p`, `last` and `before` being the points
/// of the last move and the one before it.
pub fn features(
    board: &Board,
    c: Color,
    p: Point,
    last: Option<Point>,
    before: Option<Point>,
) -> Features {
    let geo = board.geometry();
    let mut levels = [0u8; GROUPS.len()];
    // Captures, escapes and ataris, from the chains next to `p`.
    let mut captures_saving = false;
    let mut captures_last = false;
    let mut captured = 0;
    let mut own_in_atari = false;
    let mut opponent_two_libs = None;
    for &q in geo.neighbours(p) {
        match board.get(q) {
            Some(x) if x != c && board.liberty_count(q) == 1 => {
                captured += board.chain_len(q);
                if last.is_some_and(|l| {
                    board.get(l).is_some() && board.chain_head(l) == board.chain_head(q)
                }) {
                    captures_last = true;
                }
                // A capture that frees an own chain in atari next to the captured one.
                for s in board.chain_stones(q) {
                    for &t in geo.neighbours(s) {
                        if board.get(t) == Some(c) && board.liberty_count(t) == 1 {
                            captures_saving = true;
                        }
                    }
                }
            }
            Some(x) if x == c && board.liberty_count(q) == 1 => own_in_atari = true,
            Some(x) if x != c && board.liberty_count(q) == 2 => opponent_two_libs = Some(q),
            _ => {}
        }
    }
    levels[CAPTURE] = if captured == 0 {
        0
    } else if captures_saving {
        1
    } else if captures_last {
        2
    } else if captured == 1 {
        3
    } else {
        4
    };
    let libs_after = board.liberties_after(c, p);
    if own_in_atari && captured == 0 {
        levels[ESCAPE] = match libs_after {
            Some(n) if n >= 3 => 1,
            Some(2) => {
                let mut after = board.clone();
                after.play_unchecked(c, Move::Play(p));
                if ladder_attack(&after, p).0.succeeds() {
                    3
                } else {
                    2
                }
            }
            _ => 0,
        };
    }
    if let (Some(target), Some(libs)) = (opponent_two_libs, libs_after)
        && libs >= 2
    {
        let mut after = board.clone();
        after.play_unchecked(c, Move::Play(p));
        if after.get(target).is_some() && after.liberty_count(target) == 1 {
            levels[ATARI] = if ladder_escape(&after, target).0.succeeds() {
                2
            } else {
                1
            };
        }
    }
    // Two or three stones count as level 2 whatever their liberty: the built-in weights
    // were learnt when the playouts' filter let every such self-atari through, and a level
    // means what it meant in the records they were learnt from.
    levels[SELF_ATARI] = match self_atari(board, c, p) {
        SelfAtari::No => 0,
        SelfAtari::Large => 1,
        SelfAtari::ThrowIn | SelfAtari::Nakade | SelfAtari::SmallChain => 2,
    };
    levels[DISTANCE_LAST] = distance_level(board, p, last);
    levels[DISTANCE_BEFORE] = distance_level(board, p, before);
    if geo.topology() == Topology::Plane {
        let (x, y) = geo.xy(p);
        let n = geo.size();
        let line = x.min(y).min(n - 1 - x).min(n - 1 - y) + 1;
        levels[LINE] = line.min(6) as u8;
    }
    Features {
        shape: shape(board, c, p),
        spatial: [0; spatial::SIZES],
        levels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::square_from_diagram(text)
    }

    #[test]
    fn shapes_are_the_same_in_every_orientation_and_for_both_colours() {
        // A hane at the head of two stones, in four orientations, Black and White.
        let a = board(
            "
            . . . . .
            . . O . .
            . . X . .
            . . . . .
            . . . . .",
        );
        let b = board(
            "
            . . . . .
            . . . . .
            . . X O .
            . . . . .
            . . . . .",
        );
        let swapped = board(
            "
            . . . . .
            . . . . .
            . . O . .
            . . X . .
            . . . . .",
        );
        let g = a.geometry();
        let p = |s: &str| g.parse_point(s).unwrap();
        // Black to play next to its stone, touching White's diagonally.
        let s1 = shape(&a, Color::Black, p("B3"));
        let s2 = shape(&b, Color::Black, p("C2"));
        assert_eq!(s1, s2);
        // The same shape with colours swapped, seen from White.
        let s3 = shape(&swapped, Color::White, p("B3"));
        assert_eq!(s1, s3);
        // Not the same for the other colour.
        assert_ne!(s1, shape(&a, Color::White, p("B3")));
    }

    #[test]
    fn captures_escapes_and_distances() {
        let b = board(
            "
            . . . . .
            . . . . .
            . . X . .
            . X O X .
            . . . . .",
        );
        let g = b.geometry();
        let p = |s: &str| g.parse_point(s).unwrap();
        // White C2 is in atari. Black C1 captures one stone; White C1 extends to two
        // liberties (B1, D1), where the ladder decides.
        let f = features(&b, Color::Black, p("C1"), Some(p("D2")), None);
        assert_eq!(f.levels[CAPTURE], 3);
        let w = features(&b, Color::White, p("C1"), Some(p("D2")), None);
        assert!(w.levels[ESCAPE] >= 2);
        assert_eq!(w.levels[CAPTURE], 0);
        assert_eq!(f.levels[LINE], 1);
        assert_eq!(
            f.levels[DISTANCE_LAST],
            distance(&b, p("C1"), p("D2")) as u8 - 1
        );
        assert_eq!(distance(&b, p("C1"), p("D2")), 3);
    }

    #[test]
    fn the_owner_level_is_seen_from_the_mover() {
        let b = board(
            "
            . . .
            . . .
            . . .",
        );
        let p = b.geometry().parse_point("B2").unwrap();
        let f = features(&b, Color::Black, p, None, None);
        assert_eq!(f.levels[OWNER], 0, "unknown until an estimate is given");
        assert_eq!(with_owner(f, Color::Black, 1.0).levels[OWNER], 9);
        assert_eq!(with_owner(f, Color::White, 1.0).levels[OWNER], 1);
        assert_eq!(with_owner(f, Color::White, 0.0).levels[OWNER], 5);
        assert_eq!(with_owner(f, Color::Black, -0.5).levels[OWNER], 3);
        assert_eq!(GROUPS[OWNER], ("owner", 10));
    }
}
