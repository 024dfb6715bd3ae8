//! Rule 2 of the playout policy, the nakade: when the last move closed or shrank a small eye
//! space, play its vital point, which kills the owner if the other side takes it and lets the
//! owner live if the owner does. Random moves find it rarely, and a playout that misses it
//! counts a dead group as alive or a live one as dead.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::search::playout::Recent;
use crate::go::search::playout::candidates::playable;

/// Rule 2: the vital point of a small eye space next to the last move.
///
/// An eye space is a region of 3 to 6 empty points bordered by one colour only. Its vital
/// point is the point with the most neighbours inside the region, when exactly one point
/// has that most and it is at least two: the middle of a straight or bent three, the centre
/// of a pyramid four, a bulky five or a rabbity six. Shapes without such a point (a square
/// four is dead already, a straight or bent four alive) give nothing.
pub(super) fn nakade_move(board: &Board, c: Color, l: Point, recent: &Recent) -> Option<Point> {
    let geo = board.geometry();
    // Only a move with a single empty neighbour closes or shrinks a small eye space; the
    // test also keeps the flood fill below off the open board.
    let mut empty = None;
    for &q in geo.neighbours(l) {
        if board.get(q).is_none() {
            if empty.is_some() {
                return None;
            }
            empty = Some(q);
        }
    }
    if let Some(start) = empty {
        // The region: at most 6 points, bordered by one colour only.
        let mut region = [Point::from_index(0); 7];
        let mut len = 1;
        let mut owner = None;
        region[0] = start;
        let mut i = 0;
        while i < len {
            for &q in geo.neighbours(region[i]) {
                match board.get(q) {
                    None if !region[..len].contains(&q) => {
                        if len == 6 {
                            return None;
                        }
                        region[len] = q;
                        len += 1;
                    }
                    None => {}
                    Some(x) => match owner {
                        None => owner = Some(x),
                        Some(o) if o != x => return None,
                        _ => {}
                    },
                }
            }
            i += 1;
        }
        if len < 3 {
            return None;
        }
        let degree = |p: Point| {
            geo.neighbours(p)
                .iter()
                .filter(|q| region[..len].contains(q))
                .count()
        };
        let mut best = None;
        let mut best_degree = 0;
        let mut ties = 0;
        for &p in &region[..len] {
            let d = degree(p);
            if d > best_degree {
                best = Some(p);
                best_degree = d;
                ties = 1;
            } else if d == best_degree {
                ties += 1;
            }
        }
        if let Some(v) = best
            && ties == 1
            && best_degree >= 2
            && playable(board, c, v, recent)
        {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nakade_point_of_a_straight_three() {
        let b = Board::square_from_diagram(
            "
            . O . O .
            O O O O O
            O O O O O
            X X X X O
            . . . X O",
        );
        // White's last move E2 next to nothing: use a move next to the eye space.
        let recent = Recent::new(&b);
        let l = b.point("B2");
        assert_eq!(
            nakade_move(&b, Color::White, l, &recent),
            Some(b.point("B1"))
        );
        assert_eq!(
            nakade_move(&b, Color::Black, l, &recent),
            Some(b.point("B1"))
        );
    }
}
