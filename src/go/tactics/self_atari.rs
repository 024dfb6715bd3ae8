//! Self-ataris and which of them a player would still make: a throw-in, a nakade inside the
//! opponent's eye space; the others (an escape that stays in atari, a connection into atari,
//! a lone stone into the open) only feed the opponent. The playouts refuse the bad ones, and
//! the learnt priors count a move's kind among its features (Pachi's `tactics/selfatari`).

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;

/// What kind of self-atari `c` playing the empty point `p` would be: whether it leaves the
/// played chain with one liberty, capturing nothing, and if so whether a player would
/// still make it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfAtari {
    /// Two liberties or more, or a capture.
    No,
    /// A single stone thrown in next to an opponent chain with two liberties or fewer (a
    /// liberty race, a false eye), or into the opponent's eye space (no own stone next to
    /// its liberty).
    ThrowIn,
    /// Two or three stones whose last liberty touches nothing but them and opponent stones:
    /// stones inside the opponent's eye space that, captured, leave a dead shape (a nakade).
    Nakade,
    /// Two or three stones whose last liberty leads elsewhere: an escape that stays in
    /// atari, a connection into atari. They only feed the opponent.
    SmallChain,
    /// A single stone into the open, or four stones and more.
    Large,
}

impl SelfAtari {
    /// Whether a playout should not make it.
    pub fn is_bad(self) -> bool {
        matches!(self, SelfAtari::SmallChain | SelfAtari::Large)
    }
}

/// Whether `c` playing the empty point `p` is a self-atari a playout should not make
/// ([`SelfAtari::is_bad`]).
pub fn is_bad_self_atari(board: &Board, c: Color, p: Point) -> bool {
    self_atari(board, c, p).is_bad()
}

/// The kind of self-atari `c` playing the empty point `p` would be.
pub fn self_atari(board: &Board, c: Color, p: Point) -> SelfAtari {
    let geo = board.geometry();
    let mut empty = 0;
    for &q in geo.neighbours(p) {
        if board.get(q).is_none() {
            empty += 1;
        }
    }
    if empty >= 2 || board.liberties_after(c, p) != Some(1) {
        return SelfAtari::No;
    }
    // The chain the stone would make: its size, and the own chains it joins.
    let mut size = 1;
    let mut joined = [u16::MAX; 4];
    let mut joins = 0;
    for &q in geo.neighbours(p) {
        if board.get(q) == Some(c) {
            let h = board.chain_head(q).index() as u16;
            if !joined[..joins].contains(&h) {
                joined[joins] = h;
                joins += 1;
                size += board.chain_len(q);
            }
        }
    }
    if size > 3 {
        return SelfAtari::Large;
    }
    // The chain's one liberty: `p`'s empty neighbour, or a liberty of a joined chain other
    // than `p`. It lies inside the opponent's area when it touches nothing but the chain
    // and opponent stones.
    let joined_chains = &joined[..joins];
    let in_chain = |q: Point| {
        q == p
            || (board.get(q) == Some(c)
                && joined_chains.contains(&(board.chain_head(q).index() as u16)))
    };
    let liberty = geo
        .neighbours(p)
        .iter()
        .copied()
        .find(|&q| board.get(q).is_none())
        .or_else(|| {
            joined_chains.iter().find_map(|&h| {
                board
                    .liberties(Point::from_index(h as usize))
                    .find(|&q| q != p)
            })
        });
    let enclosed = liberty.is_some_and(|lib| {
        geo.neighbours(lib)
            .iter()
            .all(|&q| in_chain(q) || board.get(q) == Some(c.other()))
    });
    if size == 1 {
        let short_opponent_near = geo
            .neighbours(p)
            .iter()
            .any(|&q| board.get(q) == Some(c.other()) && board.liberty_count(q) <= 2);
        return if short_opponent_near || enclosed {
            SelfAtari::ThrowIn
        } else {
            SelfAtari::Large
        };
    }
    if enclosed {
        SelfAtari::Nakade
    } else {
        SelfAtari::SmallChain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_self_ataris_and_good_ones() {
        // Black D4 makes three stones with one liberty (E4) inside White's eye space: a
        // nakade, allowed.
        let nakade = Board::square_from_diagram(
            "
            . . . . . . .
            . . . . . . .
            . O O O O O .
            O X X . . O .
            . O O O O O .
            . . . . . . .
            . . . . . . .",
        );
        assert!(!is_bad_self_atari(
            &nakade,
            Color::Black,
            nakade.point("D4")
        ));
        // Four stones and more: never.
        let wall = Board::square_from_diagram(
            "
            . . . . .
            O O O O .
            X X X . .
            O O O O .
            . . . . .",
        );
        assert!(is_bad_self_atari(&wall, Color::Black, wall.point("D3")));
        // A lone stone thrown into White's two-point eye in the corner: allowed; the same
        // stone where its liberty leads into the open: bad.
        let corner = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            . . O . .",
        );
        assert!(!is_bad_self_atari(
            &corner,
            Color::Black,
            corner.point("A1")
        ));
        let open = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            . . O . .
            . O . . .
            . . O . .",
        );
        // A lone stone whose liberty leads into the open, no short opponent chain beside it.
        assert_eq!(
            self_atari(&open, Color::Black, open.point("C2")),
            SelfAtari::Large
        );
        let edge = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            . . . . .
            . O . . .
            O . . . .",
        );
        // A2 leads into the open, but White A1 has two liberties: a throw-in, allowed.
        assert!(!is_bad_self_atari(&edge, Color::Black, edge.point("A2")));
        let open_edge = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            O . . . .
            . O . . .
            . . . . .",
        );
        // A2: neighbours A3 (White), B2 (White), A1 (empty, which leads to B1): bad.
        assert!(is_bad_self_atari(
            &open_edge,
            Color::Black,
            open_edge.point("A2")
        ));
        // Next to a white chain with two liberties, the same stone is a useful throw-in.
        let race = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            O X . . .
            . O X . .
            . X . . .",
        );
        assert!(!is_bad_self_atari(&race, Color::Black, race.point("A2")));
    }

    #[test]
    fn small_chains_in_atari_are_nakade_only_inside_the_eye_space() {
        // Black C2 extends C3 into atari: the last liberty, C1, leads to the open first line.
        let escape = Board::square_from_diagram(
            "
            . . . . .
            . . O . .
            . O X O .
            . O . O .
            . . . . .",
        );
        let c2 = escape.point("C2");
        assert_eq!(self_atari(&escape, Color::Black, c2), SelfAtari::SmallChain);
        assert!(is_bad_self_atari(&escape, Color::Black, c2));
        // The same two stones with White on B1 and D1: C1 touches nothing but them and
        // White, so they are inside White's eye space.
        let inside = Board::square_from_diagram(
            "
            . . . . .
            . . O . .
            . O X O .
            . O . O .
            . O . O .",
        );
        let c2 = inside.point("C2");
        assert_eq!(self_atari(&inside, Color::Black, c2), SelfAtari::Nakade);
        assert!(!is_bad_self_atari(&inside, Color::Black, c2));
        // C2 joins B2 and D2 into three stones whose last liberty is D1; E1 is empty, so
        // D1 leads out: a connection into atari.
        let connect = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            O O O O O
            O X . X O
            . O O . .",
        );
        let c2 = connect.point("C2");
        assert_eq!(
            self_atari(&connect, Color::Black, c2),
            SelfAtari::SmallChain
        );
        // With White on E1, D1 is the last point of White's eye space.
        let closed = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            O O O O O
            O X . X O
            . O O . O",
        );
        let c2 = closed.point("C2");
        assert_eq!(self_atari(&closed, Color::Black, c2), SelfAtari::Nakade);
        // A lone stone, and a move with two liberties.
        assert_eq!(
            self_atari(&escape, Color::Black, escape.point("E5")),
            SelfAtari::No
        );
    }
}
