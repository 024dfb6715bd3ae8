//! The playout policy: how the search finishes a game from a leaf of its tree. Random
//! moves alone let every chain in atari die and every fight go wrong, so, as Pachi's
//! "moggy" and MoGo showed, a playout first answers the last move the way players do and
//! only then plays at random.
//!
//! A move is chosen by the first of these rules that has a candidate (each rule fires with
//! the probability its `PolicyParams` entry gives, so playouts stay varied). Each family of
//! rules has its file in this folder, named in brackets; 4 and 5 are short and live here.
//! 0. **Ko** (`ko`; off by default, `ko_percent`): the point of a ko taken in the last few
//!    moves, once its ban has lifted: the side that took it fills it, the other retakes it
//!    (Pachi's ko rule). Random moves meet that point by chance only, so a playout's ko
//!    goes to whoever took it first, or wanders.
//! 1. **Atari** (`atari`, with the playouts' `quick_ladder` reader): save an own chain the last
//!    move put in atari (capture an attacker in atari, or extend when the extension is not
//!    caught in a ladder), or capture an opponent chain in atari next to the last move.
//! 2. **Nakade** (`nakade`): the vital point of a small eye space (3 to 6 points) that the
//!    last move closed or shrank (it has a single empty neighbour): it kills the owner if
//!    the other side takes it and lets the owner live if the owner does.
//! 3. **Two liberties** (`two_libs`): atari the last move's chain when it has two liberties
//!    and cannot run out of the atari; give an own chain the last move left with two
//!    liberties a third, or (`race_percent`) play the race of an own chain of two to four
//!    liberties next to the last move: capture or atari the opponent chains next to it.
//! 4. **Pattern**: a point around the last move whose 3x3 shape is one players answer with
//!    (MoGo's shapes, `search::pattern::mogo`).
//! 5. **Reply** (off by default, `reply_percent`): the last good reply to the last moves
//!    that the search's earlier simulations learnt (`replies`), if it is playable and no
//!    bad self-atari.
//! 6. **Left atari** (`atari`; off by default, `left_atari_percent`): capture or save a
//!    chain in atari at or next to one of the last eight moves, an atari nobody answered
//!    (after a pass too).
//! 7. **Random** (`random`): a uniformly random point, preferring an empty area of the
//!    board (`fill_board_tries` draws first), that is not an own true eye and not a bad
//!    self-atari.
//!
//! Every move is legal on the board and, when it captures, repeats no position of the
//! playout (`Recent`). A self-atari is *bad* unless it throws in a single stone next to a
//! short-of-liberties opponent chain or into the opponent's eye space, or makes a chain of
//! two or three stones inside the opponent's eye space (a nakade): `tactics::self_atari`.
//!
//! What a move knows of the moves before it is a [`Last`]; how often each rule fires, the
//! [`PolicyParams`]; what the rules share, `candidates`.

use crate::color::Color;
use crate::go::board::Board;
use crate::go::point::{Move, Point};
use crate::go::search::pattern::mogo;
use crate::go::search::playout::atari::{atari_moves, left_atari_moves};
use crate::go::search::playout::candidates::{Candidates, chance, playable};
use crate::go::search::playout::ko::ko_move;
use crate::go::search::playout::last_moves::Last;
use crate::go::search::playout::nakade::nakade_move;
use crate::go::search::playout::params::PolicyParams;
use crate::go::search::playout::quick_ladder::Ladder;
use crate::go::search::playout::random::random_move;
use crate::go::search::playout::replies::Replies;
use crate::go::search::playout::two_libs::two_lib_moves;
use crate::go::search::playout::{PlayoutEnd, Recent, play_out};
use crate::go::tactics::self_atari::is_bad_self_atari;
use crate::rng::Rng;

/// The policy with its scratch space (boards for ladder reading) and what it learns during
/// a search (the last good replies), one per search thread.
pub struct Policy {
    pub params: PolicyParams,
    ladder: Ladder,
    replies: Replies,
}

impl Policy {
    pub fn new(params: PolicyParams) -> Policy {
        Policy {
            ladder: Ladder::new(params.ladder_nodes),
            replies: Replies::default(),
            params,
        }
    }

    /// Learns the replies of one simulation on a board of `points` points: `moves` were
    /// played in turn from `first`, and `winner` won.
    pub fn learn(&mut self, points: usize, moves: &[Move], first: Color, winner: Color) {
        if self.params.reply_percent > 0 {
            self.replies.learn(points, moves, first, winner);
        }
    }

    /// `c`'s playout move on `board`; `recent` holds the playout's positions so far.
    pub fn choose(
        &mut self,
        board: &Board,
        c: Color,
        last: Last,
        rng: &mut Rng,
        recent: &Recent,
    ) -> Move {
        if let Some(p) = ko_move(&self.params, board, c, &last, rng, recent) {
            return Move::Play(p);
        }
        if let Some(p) = self.local_move(board, c, last, rng, recent) {
            return Move::Play(p);
        }
        if chance(rng, self.params.left_atari_percent) {
            let mut cands = Candidates::new();
            left_atari_moves(&mut self.ladder, board, c, &last, recent, &mut cands);
            if let Some(p) = cands.pick(rng) {
                return Move::Play(p);
            }
        }
        random_move(board, c, rng, recent, &self.params).map_or(Move::Pass, Move::Play)
    }

    /// The answer to the last move by rules 1 to 5, if one fires.
    fn local_move(
        &mut self,
        board: &Board,
        c: Color,
        last: Last,
        rng: &mut Rng,
        recent: &Recent,
    ) -> Option<Point> {
        let l = last.point.filter(|&l| board.get(l).is_some())?;
        let p = self.params;
        if chance(rng, p.atari_percent) {
            let mut cands = Candidates::new();
            atari_moves(&mut self.ladder, board, c, l, recent, &mut cands);
            if let Some(m) = cands.pick(rng) {
                return Some(m);
            }
        }
        if chance(rng, p.nakade_percent)
            && let Some(m) = nakade_move(board, c, l, recent)
        {
            return Some(m);
        }
        if chance(rng, p.two_lib_percent) {
            let mut cands = Candidates::new();
            let race = chance(rng, p.race_percent);
            two_lib_moves(board, c, l, recent, race, &mut cands);
            if let Some(m) = cands.pick(rng) {
                return Some(m);
            }
        }
        if chance(rng, p.pattern_percent) {
            let mut cands = Candidates::new();
            for &r in board.geometry().ring(l).iter().flatten() {
                if board.get(r).is_none()
                    && mogo::matches(board, r)
                    && playable(board, c, r, recent)
                    && !is_bad_self_atari(board, c, r)
                {
                    cands.push(r);
                }
            }
            if let Some(m) = cands.pick(rng) {
                return Some(m);
            }
        }
        if chance(rng, p.reply_percent)
            && let Some(r) = self.replies.reply(c, last.point, last.before)
            && board.get(r).is_none()
            && playable(board, c, r, recent)
            && !is_bad_self_atari(board, c, r)
        {
            return Some(r);
        }
        None
    }
}

/// Plays the policy's moves on `board` from `to_move` until two passes or the move cap
/// (`recent` is reset here and reused).
pub fn policy_playout(
    board: &mut Board,
    to_move: Color,
    rng: &mut Rng,
    recent: &mut Recent,
    policy: &mut Policy,
) -> PlayoutEnd {
    let mut known = Last::default();
    play_out(board, to_move, recent, |b, c, _, recent| {
        known = known.with_ko_of(b);
        let m = policy.choose(b, c, known, rng, recent);
        known = known.then(m.point());
        m
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twenty playout choices of `policy` for `c` on `b`, the playout starting there.
    fn twenty_choices(
        policy: &mut Policy,
        b: &Board,
        c: Color,
        last: Last,
        rng: &mut Rng,
    ) -> Vec<Move> {
        let recent = Recent::new(b);
        (0..20)
            .map(|_| policy.choose(b, c, last, rng, &recent))
            .collect()
    }

    #[test]
    fn a_recent_ko_is_filled_by_its_taker_and_retaken_by_the_other_side() {
        let mut b = Board::square_from_diagram(
            "
            . . . . . . .
            . . . . . . .
            . . X O . . .
            . X O . O . .
            . . X O . . .
            . . . . . . .
            . . . . . . .",
        );
        let (c4, d4) = (Move::Play(b.point("C4")), Move::Play(b.point("D4")));
        let mut rng = Rng::new(9);
        let mut last = Last::default();
        let play = |b: &mut Board, last: &mut Last, c: Color, v: &str| {
            b.play(c, Move::Play(b.point(v)), false).unwrap();
            *last = last.then(Some(b.point(v))).with_ko_of(b);
        };
        // Black takes the ko; White may not retake at once, and plays elsewhere.
        play(&mut b, &mut last, Color::Black, "D4");
        assert_eq!(
            last.ko.map(|ko| (Move::Play(ko.point), ko.moves_since)),
            Some((c4, 0))
        );
        let fill_and_retake = PolicyParams {
            ko_percent: 100,
            ko_moves: 2,
            pattern_percent: 0,
            ..PolicyParams::default()
        };
        let mut policy = Policy::new(fill_and_retake);
        let choices = twenty_choices(&mut policy, &b, Color::White, last, &mut rng);
        assert!(choices.iter().all(|&m| m != c4));
        play(&mut b, &mut last, Color::White, "G7");
        // Black, who took it, fills it.
        let choices = twenty_choices(&mut policy, &b, Color::Black, last, &mut rng);
        assert!(choices.iter().all(|&m| m == c4));
        // Black answers elsewhere instead; White retakes, unless the rule is for the
        // taker's move alone.
        play(&mut b, &mut last, Color::Black, "A1");
        let choices = twenty_choices(&mut policy, &b, Color::White, last, &mut rng);
        assert!(choices.iter().all(|&m| m == c4));
        let mut fill_only = Policy::new(PolicyParams {
            ko_moves: 1,
            ..fill_and_retake
        });
        let choices = twenty_choices(&mut fill_only, &b, Color::White, last, &mut rng);
        assert!(choices.iter().any(|&m| m != c4));
        // The retake takes the ko back: now White's, for Black to retake later.
        play(&mut b, &mut last, Color::White, "C4");
        assert_eq!(b.get(b.point("D4")), None);
        assert_eq!(
            last.ko.map(|ko| (Move::Play(ko.point), ko.moves_since)),
            Some((d4, 0))
        );
        // Without the rule the ko's point is met only by chance, and the memory fades.
        let mut off = Policy::new(PolicyParams {
            pattern_percent: 0,
            ..PolicyParams::default()
        });
        play(&mut b, &mut last, Color::Black, "G1");
        let choices = twenty_choices(&mut off, &b, Color::White, last, &mut rng);
        assert!(choices.iter().any(|&m| m != d4));
        for (c, v) in [
            (Color::White, "A7"),
            (Color::Black, "B7"),
            (Color::White, "C7"),
        ] {
            play(&mut b, &mut last, c, v);
        }
        assert_eq!(last.ko, None);
    }

    #[test]
    fn escapes_an_atari_that_is_no_ladder_and_captures_in_atari() {
        // Black has just played B2, putting White C2 in atari; White extends at D2 with
        // three liberties, or, if it were Black, captures.
        let b = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            . . X . .
            . X O . .
            . . X . .",
        );
        let mut policy = Policy::new(PolicyParams {
            atari_percent: 100,
            ..PolicyParams::default()
        });
        let recent = Recent::new(&b);
        let mut rng = Rng::new(1);
        let last = Last::default().then(Some(b.point("B2")));
        for _ in 0..20 {
            assert_eq!(
                policy.choose(&b, Color::White, last, &mut rng, &recent),
                Move::Play(b.point("D2"))
            );
        }
    }

    #[test]
    fn an_atari_left_unanswered_is_captured_or_saved_from_the_remembered_moves() {
        // Black's D2 put White C2 in atari and White played F4 elsewhere: Black captures at
        // C3. Had Black then answered at F5, White saves C2 at C3 (three liberties). The
        // board is the same for both: the rule reads the remembered moves.
        let b = Board::square_from_diagram(
            "
            . . . . . . .
            . . . . . . .
            . . . . . X .
            . . . . . O .
            . . . . . . .
            . X O X . . .
            . . X . . . .",
        );
        let mut policy = Policy::new(PolicyParams {
            left_atari_percent: 100,
            pattern_percent: 0,
            ..PolicyParams::default()
        });
        let recent = Recent::new(&b);
        let mut rng = Rng::new(5);
        let c3 = Move::Play(b.point("C3"));
        let after_f4 = Last::default()
            .then(Some(b.point("D2")))
            .then(Some(b.point("F4")));
        let after_f5 = after_f4.then(Some(b.point("F5")));
        for _ in 0..20 {
            assert_eq!(
                policy.choose(&b, Color::Black, after_f4, &mut rng, &recent),
                c3
            );
            assert_eq!(
                policy.choose(&b, Color::White, after_f5, &mut rng, &recent),
                c3
            );
            let after_pass = after_f4.then(None);
            assert_eq!(
                policy.choose(&b, Color::White, after_pass, &mut rng, &recent),
                c3
            );
        }
        // Without the rule the capture is left to chance.
        let mut off = Policy::new(PolicyParams {
            pattern_percent: 0,
            ..PolicyParams::default()
        });
        assert!((0..20).any(|_| off.choose(&b, Color::Black, after_f4, &mut rng, &recent) != c3));
    }

    #[test]
    fn plays_the_learnt_reply_while_it_is_playable() {
        let b = Board::square_from_diagram(
            "
            . . . . .
            . . . . .
            . . X . .
            . . . . .
            . . . . .",
        );
        let mut policy = Policy::new(PolicyParams {
            reply_percent: 100,
            ..PolicyParams::default()
        });
        let recent = Recent::new(&b);
        let mut rng = Rng::new(3);
        let last = Last::default().then(Some(b.point("C3")));
        // White answered C3 at D4 and won.
        let game = [Move::Play(b.point("C3")), Move::Play(b.point("D4"))];
        policy.learn(25, &game, Color::Black, Color::White);
        for _ in 0..20 {
            assert_eq!(
                policy.choose(&b, Color::White, last, &mut rng, &recent),
                Move::Play(b.point("D4"))
            );
        }
        // Off, or with the reply's point taken, the policy plays as before.
        let taken = Board::square_from_diagram(
            "
            . . . . .
            . . . O .
            . . X . .
            . . . . .
            . . . . .",
        );
        let recent = Recent::new(&taken);
        let d4 = Move::Play(b.point("D4"));
        assert!(
            (0..20).all(|_| policy.choose(&taken, Color::White, last, &mut rng, &recent) != d4)
        );
        let mut off = Policy::new(PolicyParams::default());
        off.learn(25, &game, Color::Black, Color::White);
        let recent = Recent::new(&b);
        assert!((0..50).any(|_| off.choose(&b, Color::White, last, &mut rng, &recent) != d4));
    }
}
