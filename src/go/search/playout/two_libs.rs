//! Rule 3 of the playout policy, chains with two liberties: atari the last move's chain when
//! it cannot run, give an own chain the last move left with two liberties a third, and (with
//! `race_percent`) play the capturing race of an own chain against the chains next to it.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::search::playout::Recent;
use crate::go::search::playout::candidates::{
    Candidates, for_each_opponent_chain_next_to, playable, push_capture,
};

/// Rule 3: an atari on the last move's chain when it has two liberties and the atari
/// leaves it unable to run (its extension would have two liberties at most and it cannot
/// capture its way out); a third liberty for own chains next to the last move that have two,
/// and with `race`, the race's moves for own chains next to it with two to four liberties
/// against the opponent chains next to them.
pub(super) fn two_lib_moves(
    board: &Board,
    c: Color,
    l: Point,
    recent: &Recent,
    race: bool,
    cands: &mut Candidates,
) {
    let geo = board.geometry();
    if board.get(l) == Some(c.other()) && board.liberty_count(l) == 2 {
        let mut libs = board.liberties(l);
        if let (Some(a), Some(b)) = (libs.next(), libs.next()) {
            for (atari, escape) in [(a, b), (b, a)] {
                if playable(board, c, atari, recent)
                    && board.liberties_after(c, atari).is_none_or(|n| n >= 2)
                    && !can_escape_atari(board, c, l, atari, escape)
                {
                    cands.push(atari);
                }
            }
        }
    }
    for &q in geo.neighbours(l) {
        if board.get(q) != Some(c) {
            continue;
        }
        let libs = board.liberty_count(q);
        if libs == 2 {
            for lib in board.liberties(q) {
                if playable(board, c, lib, recent)
                    && board.liberties_after(c, lib).is_none_or(|n| n >= 3)
                {
                    cands.push(lib);
                }
            }
        }
        // A chain of three or four liberties wins its race against a neighbour of two by
        // the atari, where a random move lets the race turn.
        if race && (2..=4).contains(&libs) {
            race_moves(board, c, q, recent, cands);
        }
    }
}

/// The moves of a capturing race for `c`'s chain on `own` (two to four liberties): the
/// capture of an opponent chain next to it in atari, or an atari on one with two liberties
/// that does not leave `c`'s new stone in atari (filling a shared liberty may: then the
/// other).
fn race_moves(board: &Board, c: Color, own: Point, recent: &Recent, cands: &mut Candidates) {
    for_each_opponent_chain_next_to(board, c, own, |t| match board.liberty_count(t) {
        1 => push_capture(board, c, t, recent, cands),
        2 => {
            for lib in board.liberties(t) {
                if playable(board, c, lib, recent)
                    && board.liberties_after(c, lib).is_none_or(|n| n >= 2)
                {
                    cands.push(lib);
                }
            }
        }
        _ => {}
    });
}

/// After `c` ataris the chain on `target` at `atari`, whether its owner can escape: by
/// extending at `escape` to three liberties or more, or by capturing an attacking chain in
/// atari (the atari stone included) next to it. Read one move deep, without playing.
fn can_escape_atari(board: &Board, c: Color, target: Point, atari: Point, escape: Point) -> bool {
    let geo = board.geometry();
    let defender = c.other();
    // Liberties the extension would have: `escape`'s empty neighbours other than `atari`,
    // plus the liberties of defender chains it joins (the target's other liberty is
    // `atari`, filled).
    let mut count = 0;
    let mut seen = [Point::from_index(0); 16];
    let mut add = |p: Point, count: &mut usize| {
        if p != atari && p != escape && !seen[..*count].contains(&p) && *count < seen.len() {
            seen[*count] = p;
            *count += 1;
        }
    };
    for &q in geo.neighbours(escape) {
        match board.get(q) {
            None => add(q, &mut count),
            Some(x) if x == defender => {
                for lib in board.liberties(q) {
                    add(lib, &mut count);
                }
            }
            // An attacker chain with one liberty (`escape`) would be captured.
            Some(_) if board.liberty_count(q) == 1 => return true,
            Some(_) => {}
        }
    }
    if count >= 3 {
        return true;
    }
    // Counter-captures: an attacker chain next to the target with one liberty now, or two
    // when one of them is `atari` (the atari fills it).
    for s in board.chain_stones(target) {
        for &t in geo.neighbours(s) {
            if board.get(t) == Some(c) {
                let libs = board.liberty_count(t);
                if libs == 1 || (libs == 2 && board.is_liberty_of(atari, t)) {
                    return true;
                }
            }
        }
    }
    // The atari stone itself, if it has a single liberty once played.
    board.liberties_after(c, atari) == Some(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_left_with_two_liberties_plays_the_race_when_asked() {
        // White's B1 took a liberty of Black's A2-C2, which cannot extend to three; the
        // race is won by the atari at C1 (A1 would be a self-atari).
        let b = Board::square_from_diagram(
            "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            O O O X X X .
            X X X O O O .
            . O . . . . .",
        );
        let recent = Recent::new(&b);
        let l = b.point("B1");
        let mut cands = Candidates::new();
        two_lib_moves(&b, Color::Black, l, &recent, false, &mut cands);
        assert_eq!(&cands.points[..cands.len], &[]);
        two_lib_moves(&b, Color::Black, l, &recent, true, &mut cands);
        assert_eq!(&cands.points[..cands.len], &[b.point("C1")]);

        // White's D3 touches Black's three-liberty A3-C3, whose neighbour A4-C4 has two:
        // the race's atari is C5 (A5 would leave B5 in atari).
        let b = Board::square_from_diagram(
            "
            . X . . .
            O O O X .
            X X X O .
            . . . . .
            . . . . .",
        );
        let recent = Recent::new(&b);
        let l = b.point("D3");
        let c5 = b.point("C5");
        let mut cands = Candidates::new();
        two_lib_moves(&b, Color::Black, l, &recent, false, &mut cands);
        assert!(!cands.points[..cands.len].contains(&c5));
        two_lib_moves(&b, Color::Black, l, &recent, true, &mut cands);
        assert!(cands.points[..cands.len].contains(&c5));
        assert!(!cands.points[..cands.len].contains(&b.point("A5")));
    }
}
