//! Small board helpers shared by the readers and the heuristic player: liberties a play would
//! leave, self-atari, snapback, chains around a chain.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::{Move, Point};

/// Liberties `c`'s chain through the empty point `p` would have after `c` plays there,
/// captures included, counted exactly up to `limit` (the count stops there: callers mostly
/// ask "one?", "two?"). Suicide counts as zero.
///
/// ```text
///   . X O .      White playing * captures X and has B5 (the captured point) and C6:
///   X * O .      liberties_after(W, *) = 2.
///   . X . .
/// ```
pub fn liberties_after(b: &Board, c: Color, p: Point, limit: usize) -> usize {
    let geo = b.geometry();
    let mut libs: Vec<Point> = Vec::with_capacity(8);
    // Heads of the friendly chains the stone joins, and of the enemy chains it captures.
    let mut friends: Vec<Point> = Vec::with_capacity(4);
    let mut captured: Vec<Point> = Vec::with_capacity(4);
    for &q in geo.neighbours(p) {
        match b.get(q) {
            None => push_unique(&mut libs, q),
            Some(x) if x == c => push_unique(&mut friends, b.chain_head(q)),
            Some(_) if b.liberty_count(q) == 1 => push_unique(&mut captured, b.chain_head(q)),
            Some(_) => {}
        }
    }
    for &f in &friends {
        for l in b.liberties(f) {
            if l != p {
                push_unique(&mut libs, l);
                if libs.len() >= limit {
                    return limit;
                }
            }
        }
    }
    // A captured stone becomes a liberty where it touches the new chain.
    let touches_new_chain =
        |q: Point| q == p || b.get(q) == Some(c) && friends.contains(&b.chain_head(q));
    for &e in &captured {
        for s in b.chain_stones(e) {
            if geo.neighbours(s).iter().any(|&q| touches_new_chain(q)) {
                push_unique(&mut libs, s);
            }
        }
    }
    libs.len().min(limit)
}

/// Whether `c` playing the empty point `p` leaves its own chain in atari (one liberty) or
/// with none. A play that captures can still be a self-atari (a ko capture is one).
pub fn is_self_atari(b: &Board, c: Color, p: Point) -> bool {
    liberties_after(b, c, p, 2) <= 1
}

/// Whether `c` playing at `p` is a self-atari that sets up a snapback: the opponent's capture
/// leaves the capturing chain in atari and `c` takes back more stones than it gave.
///
/// ```text
///   . O O X .     Black * throws in; White captures at * and is left with one
///   O X * O X     liberty; Black takes three stones back at *.
///   . X X X .
/// ```
pub fn is_snapback(b: &Board, c: Color, p: Point) -> bool {
    if b.get(p).is_some() || b.is_suicide(c, p) || !is_self_atari(b, c, p) {
        return false;
    }
    let mut after = b.clone();
    after.play_unchecked(c, Move::Play(p));
    let Some(lib) = after.first_liberty(p) else {
        return false;
    };
    let given = after.chain_len(p);
    let mut taken = after.clone();
    if taken.play(c.other(), Move::Play(lib), false).is_err() {
        return false;
    }
    if taken.get(lib) != Some(c.other()) || taken.liberty_count(lib) != 1 {
        return false;
    }
    let back = taken.chain_len(lib);
    let Some(retake) = taken.first_liberty(lib) else {
        return false;
    };
    back > given && taken.check(c, Move::Play(retake), false).is_ok()
}

/// Heads of the chains of the other colour that touch the chain on `s`, in first-seen order.
pub fn adjacent_enemies(b: &Board, s: Point) -> Vec<Point> {
    let geo = b.geometry();
    let Some(c) = b.get(s) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for stone in b.chain_stones(s) {
        for &q in geo.neighbours(stone) {
            if b.get(q) == Some(c.other()) {
                push_unique(&mut out, b.chain_head(q));
            }
        }
    }
    out
}

/// One stone (the head) of every chain on the board, in point order of the heads.
pub fn chain_heads(b: &Board) -> Vec<Point> {
    let mut heads: Vec<Point> = b
        .geometry()
        .points()
        .filter(|&p| b.get(p).is_some() && b.chain_head(p) == p)
        .collect();
    heads.sort();
    heads
}

/// Appends `p` unless it is already there (the lists here hold a handful of points).
pub(crate) fn push_unique(v: &mut Vec<Point>, p: Point) {
    if !v.contains(&p) {
        v.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::square_from_diagram(text)
    }

    fn pt(b: &Board, v: &str) -> Point {
        b.geometry().parse_point(v).unwrap()
    }

    #[test]
    fn liberties_after_merges_chains_and_stops_at_the_limit() {
        let b = board(
            "
            . X O . .
            X . O . .
            . X . . .
            . . . . .
            . . . . .",
        );
        // White B4 joins C5-C4: D5 D4 C3.
        assert_eq!(liberties_after(&b, Color::White, pt(&b, "B4"), 10), 3);
        // Black B4 joins A4, B5 and B3: A5 A3 C3 B2.
        assert_eq!(liberties_after(&b, Color::Black, pt(&b, "B4"), 10), 4);
        assert_eq!(liberties_after(&b, Color::Black, pt(&b, "B4"), 2), 2);
    }

    #[test]
    fn a_capture_frees_the_captured_points() {
        let b = board(
            "
            . X O . .
            X O . . .
            . X . . .
            . . . . .
            . . . . .",
        );
        // Black C4 takes O B4: D4, C3 and the freed B4 (C5 keeps D5 and is not taken).
        assert_eq!(liberties_after(&b, Color::Black, pt(&b, "C4"), 10), 3);
        assert!(!is_self_atari(&b, Color::Black, pt(&b, "C4")));
        assert!(is_self_atari(&b, Color::White, pt(&b, "A5")));
    }

    #[test]
    fn snapback_is_recognised() {
        let b = board(
            "
            . . . . .
            . . . . .
            . X X X .
            X O O O X
            X O . . X",
        );
        // Black C1 is a throw-in: White D1 takes it and is left with C1 only.
        assert!(is_snapback(&b, Color::Black, pt(&b, "C1")));
        // Black D1 is no self-atari at all (it joins E1-E2).
        assert!(!is_snapback(&b, Color::Black, pt(&b, "D1")));
        assert!(!is_snapback(&b, Color::White, pt(&b, "C1")));
    }
}
