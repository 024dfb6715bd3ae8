//! Rules 1 and 6 of the playout policy, the ataris: save an own chain in atari (capture an
//! attacker in atari, or extend unless the playouts' ladder reader sees the extension
//! caught) and capture an opponent chain in atari; rule 1 around the last move, rule 6
//! around the last few, for an atari nobody answered.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::Point;
use crate::go::search::playout::Recent;
use crate::go::search::playout::candidates::{
    Candidates, SeenChains, for_each_opponent_chain_next_to, playable, push_capture,
};
use crate::go::search::playout::last_moves::Last;
use crate::go::search::playout::quick_ladder::Ladder;

/// Rule 1: saves of own chains the last move put in atari, and captures of opponent
/// chains in atari at or around the last move.
pub(super) fn atari_moves(
    ladder: &mut Ladder,
    board: &Board,
    c: Color,
    l: Point,
    recent: &Recent,
    cands: &mut Candidates,
) {
    let geo = board.geometry();
    // Captures: the last move's chain (a self-atari) and opponent chains around it.
    for q in std::iter::once(l).chain(geo.ring(l).iter().flatten().copied()) {
        if board.get(q) == Some(c.other())
            && board.liberty_count(q) == 1
            && let Some(lib) = board.first_liberty(q)
            && playable(board, c, lib, recent)
        {
            cands.push(lib);
        }
    }
    // Saves: own chains next to the last move, now in atari.
    for &q in geo.neighbours(l) {
        if board.get(q) == Some(c) && board.liberty_count(q) == 1 {
            save_moves(ladder, board, c, q, recent, cands);
        }
    }
}

/// Rule 6: captures and saves of chains in atari at or next to the remembered moves
/// (an atari is made next to its chain, so one the last moves made and nobody answered
/// is among them).
pub(super) fn left_atari_moves(
    ladder: &mut Ladder,
    board: &Board,
    c: Color,
    last: &Last,
    recent: &Recent,
    cands: &mut Candidates,
) {
    let geo = board.geometry();
    let mut seen = SeenChains::<16>::new();
    for m in last.points() {
        for &q in std::iter::once(&m).chain(geo.neighbours(m)) {
            let Some(owner) = board.get(q) else {
                continue;
            };
            if board.liberty_count(q) != 1 {
                continue;
            }
            if !seen.first_visit(board.chain_head(q)) {
                continue;
            }
            if owner == c {
                save_moves(ladder, board, c, q, recent, cands);
            } else {
                push_capture(board, c, q, recent, cands);
            }
        }
    }
}

/// The saves of `c`'s chain on `q`, in atari: captures of an opponent chain in atari
/// next to it, and the extension when it is not caught in a ladder.
fn save_moves(
    ladder: &mut Ladder,
    board: &Board,
    c: Color,
    q: Point,
    recent: &Recent,
    cands: &mut Candidates,
) {
    for_each_opponent_chain_next_to(board, c, q, |t| {
        if board.liberty_count(t) == 1 {
            push_capture(board, c, t, recent, cands);
        }
    });
    let Some(lib) = board.first_liberty(q) else {
        return;
    };
    if !playable(board, c, lib, recent) {
        return;
    }
    match board.liberties_after(c, lib) {
        Some(n) if n >= 3 => cands.push(lib),
        Some(2) if !ladder.captures_after(board, c, lib) => cands.push(lib),
        // The extension captures: it gains liberties.
        None => cands.push(lib),
        _ => {}
    }
}
