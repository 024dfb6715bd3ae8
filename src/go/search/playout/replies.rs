//! Last good replies with forgetting (Baier and Drake, 2010): the playouts learn, during
//! one search, which answer to a move won.
//!
//! After each simulation, every move of the winner is remembered as the reply to the move
//! before it (and to the two moves before it), and every move of the loser that was the
//! remembered reply is forgotten. A playout that no local rule answered then tries the
//! remembered reply to the last moves before a random move (`policy`). The tables follow
//! the search's own position: a reply that keeps winning stays, one that starts losing
//! goes, so the playouts pick up the local answers that this position needs and no fixed
//! pattern knows.

use crate::color::Color;
use crate::go::point::{Move, Point};

/// No reply remembered.
const NONE: u16 = u16::MAX;

/// The reply tables of one search thread.
#[derive(Clone, Debug, Default)]
pub struct Replies {
    /// Points on the board (0 until the first lesson sizes the tables).
    points: usize,
    /// The reply of each colour to one move: `[colour][last]`.
    to_one: Vec<u16>,
    /// The reply of each colour to two moves: `[colour][before][last]`.
    to_two: Vec<u16>,
}

impl Replies {
    /// The remembered reply of `c` to the opponent's `last` move after its own `before`:
    /// to the two moves if there is one, else to the last. It may be occupied or illegal
    /// now; the caller checks.
    pub fn reply(&self, c: Color, last: Option<Point>, before: Option<Point>) -> Option<Point> {
        let l = last?;
        if self.points == 0 {
            return None;
        }
        let n = self.points;
        let two = before.map_or(NONE, |b| {
            self.to_two[(c.index() * n + b.index()) * n + l.index()]
        });
        let reply = if two != NONE {
            two
        } else {
            self.to_one[c.index() * n + l.index()]
        };
        (reply != NONE).then(|| Point::from_index(reply as usize))
    }

    /// Learns from one simulation on a board of `points` points: `moves` were played in
    /// turn, the first by `first`; `winner` won it.
    pub fn learn(&mut self, points: usize, moves: &[Move], first: Color, winner: Color) {
        if self.points != points {
            self.points = points;
            self.to_one = vec![NONE; 2 * points];
            self.to_two = vec![NONE; 2 * points * points];
        }
        let n = points;
        let mut mover = first;
        for i in 0..moves.len() {
            let c = mover;
            mover = mover.other();
            let (Some(last), Move::Play(reply)) = (prev_point(moves, i, 1), moves[i]) else {
                continue;
            };
            let reply = reply.index() as u16;
            let one = c.index() * n + last.index();
            let two =
                prev_point(moves, i, 2).map(|b| (c.index() * n + b.index()) * n + last.index());
            if c == winner {
                self.to_one[one] = reply;
                if let Some(two) = two {
                    self.to_two[two] = reply;
                }
            } else {
                if self.to_one[one] == reply {
                    self.to_one[one] = NONE;
                }
                if let Some(two) = two
                    && self.to_two[two] == reply
                {
                    self.to_two[two] = NONE;
                }
            }
        }
    }
}

/// The point of the move `back` moves before `moves[i]`, if it was a stone.
fn prev_point(moves: &[Move], i: usize, back: usize) -> Option<Point> {
    i.checked_sub(back).and_then(|j| moves[j].point())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(i: usize) -> Point {
        Point::from_index(i)
    }

    /// The reply of `c` to `point` after `before`.
    fn reply(r: &Replies, c: Color, before: Option<usize>, point: usize) -> Option<Point> {
        r.reply(c, Some(p(point)), before.map(p))
    }

    #[test]
    fn the_winner_s_replies_are_remembered_and_the_loser_s_forgotten() {
        let mut r = Replies::default();
        assert_eq!(reply(&r, Color::White, None, 3), None, "nothing learnt yet");
        // Black 3, White 4, Black 5, White 6; White wins.
        let game = [3, 4, 5, 6].map(|i| Move::Play(p(i)));
        r.learn(25, &game, Color::Black, Color::White);
        assert_eq!(reply(&r, Color::White, None, 3), Some(p(4)));
        assert_eq!(reply(&r, Color::White, Some(4), 5), Some(p(6)));
        assert_eq!(
            reply(&r, Color::White, Some(9), 5),
            Some(p(6)),
            "the one-move reply"
        );
        assert_eq!(
            reply(&r, Color::Black, None, 4),
            None,
            "the loser learns nothing"
        );
        // The same replies lose: forgotten. Black's replies win: remembered.
        r.learn(25, &game, Color::Black, Color::Black);
        assert_eq!(reply(&r, Color::White, None, 3), None);
        assert_eq!(reply(&r, Color::White, Some(4), 5), None);
        assert_eq!(reply(&r, Color::Black, Some(3), 4), Some(p(5)));
    }

    #[test]
    fn a_losing_move_forgets_only_a_reply_it_equals() {
        let mut r = Replies::default();
        let won = [Move::Play(p(1)), Move::Play(p(2))];
        r.learn(9, &won, Color::Black, Color::White);
        let lost = [Move::Play(p(1)), Move::Play(p(7))];
        r.learn(9, &lost, Color::Black, Color::Black);
        assert_eq!(reply(&r, Color::White, None, 1), Some(p(2)));
    }

    #[test]
    fn passes_neither_ask_nor_give_a_reply() {
        let mut r = Replies::default();
        let game = [
            Move::Play(p(1)),
            Move::Pass,
            Move::Play(p(2)),
            Move::Play(p(3)),
        ];
        r.learn(9, &game, Color::Black, Color::Black);
        // Black won, but its 2 answered a pass (no key) and its 1 answered nothing.
        assert_eq!(reply(&r, Color::Black, None, 1), None);
        assert_eq!(
            reply(&r, Color::White, None, 1),
            None,
            "the pass is no reply"
        );
        assert_eq!(reply(&r, Color::White, None, 2), None, "White lost");
        assert_eq!(r.reply(Color::Black, None, None), None);
        // The same game won by White: its 3 answered Black's 2 after its own pass.
        r.learn(9, &game, Color::Black, Color::White);
        assert_eq!(reply(&r, Color::White, None, 2), Some(p(3)));
        assert_eq!(reply(&r, Color::White, Some(5), 2), Some(p(3)));
    }

    #[test]
    fn a_new_board_size_starts_afresh() {
        let mut r = Replies::default();
        r.learn(
            9,
            &[Move::Play(p(1)), Move::Play(p(2))],
            Color::Black,
            Color::White,
        );
        r.learn(
            25,
            &[Move::Play(p(3)), Move::Play(p(4))],
            Color::Black,
            Color::White,
        );
        assert_eq!(reply(&r, Color::White, None, 1), None);
        assert_eq!(reply(&r, Color::White, None, 3), Some(p(4)));
    }
}
