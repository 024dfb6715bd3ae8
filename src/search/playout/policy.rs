//! The playout policy: how the search finishes a game from a leaf of its tree. Random
//! moves alone let every chain in atari die and every fight go wrong, so, as Pachi's
//! "moggy" and MoGo showed, a playout first answers the last move the way players do and
//! only then plays at random.
//!
//! A move is chosen by the first of these rules that has a candidate (each rule fires with
//! the probability its `PolicyParams` entry gives, so playouts stay varied):
//! 0. **Ko** (off by default, `ko_percent`): the point of a ko taken in the last few moves,
//!    once its ban has lifted: the side that took it fills it, the other retakes it
//!    (Pachi's ko rule). Random moves meet that point by chance only, so a playout's ko
//!    goes to whoever took it first, or wanders.
//! 1. **Atari**: save an own chain the last move put in atari (capture an attacker in atari,
//!    or extend when the extension is not caught in a ladder), or capture an opponent chain
//!    in atari next to the last move.
//! 2. **Nakade**: the vital point of a small eye space (3 to 6 points) that the last move
//!    closed or shrank (it has a single empty neighbour): it kills the owner if the other
//!    side takes it and lets the owner live if the owner does.
//! 3. **Two liberties**: atari the last move's chain when it has two liberties and cannot
//!    run out of the atari; give an own chain the last move left with two liberties a third,
//!    or (`race_percent`) play the race of an own chain of two to four liberties next to
//!    the last move: capture or atari the opponent chains next to it.
//! 4. **Pattern**: a point around the last move whose 3x3 shape is one players answer with
//!    (`patterns`).
//! 5. **Reply** (off by default, `reply_percent`): the last good reply to the last moves
//!    that the search's earlier simulations learnt (`replies`), if it is playable and no
//!    bad self-atari.
//! 6. **Left atari** (off by default, `left_atari_percent`): capture or save a chain in
//!    atari at or next to one of the last eight moves, an atari nobody answered (after a
//!    pass too).
//! 7. **Random**: a uniformly random point, preferring an empty area of the board
//!    (`fill_board_tries` draws first), that is not an own true eye and not a bad
//!    self-atari.
//!
//! Every move is legal on the board and, when it captures, repeats no position of the
//! playout (`Recent`). A self-atari is *bad* unless it throws in a single stone next to a
//! short-of-liberties opponent chain or into the opponent's eye space, or makes a chain of
//! two or three stones inside the opponent's eye space (a nakade).

use crate::color::Color;
use crate::go::board::Board;
use crate::go::board::undo::{PlaysAndReads, Spares};
use crate::go::point::{Move, Point};
use crate::rng::Rng;
use crate::search::pattern::mogo;
use crate::search::playout::replies::Replies;
use crate::search::playout::{PlayoutEnd, Recent, play_out};

/// How often each rule of the policy fires (percent), and the cheap limits it reads with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyParams {
    pub atari_percent: u32,
    pub nakade_percent: u32,
    pub two_lib_percent: u32,
    /// How often rule 3 also plays the race of an own chain of two to four liberties next
    /// to the last move: captures an opponent chain in atari next to it, or ataris one with
    /// two liberties (extending alone loses a capturing race it could win).
    pub race_percent: u32,
    pub pattern_percent: u32,
    /// How often the last good reply to the last moves is tried (`replies`; 0: never).
    pub reply_percent: u32,
    /// How often, when rules 1 to 5 find nothing, a chain left in atari next to one of the
    /// last moves ([`EARLIER_MOVES`] and the two before) is captured or saved (Pachi's
    /// playouts look at every chain in atari on the board, 90% of the time): without it an
    /// atari the opponent tenukied is only captured by chance.
    pub left_atari_percent: u32,
    /// How often rule 0 plays at the point of a recent ko, before any other rule.
    pub ko_percent: u32,
    /// For how many moves after its ban lifts a ko's point is rule 0's (1: the next move of
    /// the side that took it, to fill it; 2: the other side's retake as well; at most
    /// [`MAX_KO_MOVES`]).
    pub ko_moves: u32,
    /// How often a bad self-atari is refused in the random step.
    pub self_atari_percent: u32,
    /// Random draws of a point with an empty 3x3 neighbourhood before the uniform scan.
    pub fill_board_tries: u32,
    /// Nodes a ladder check may read (0: extensions to two liberties are never checked).
    pub ladder_nodes: u32,
}

impl Default for PolicyParams {
    fn default() -> PolicyParams {
        PolicyParams {
            atari_percent: 95,
            nakade_percent: 90,
            two_lib_percent: 70,
            race_percent: 0,
            pattern_percent: 90,
            reply_percent: 0,
            left_atari_percent: 0,
            ko_percent: 0,
            ko_moves: 1,
            self_atari_percent: 95,
            fill_board_tries: 2,
            ladder_nodes: 120,
        }
    }
}

/// The moves before [`Last::before`] a playout move remembers: an atari the opponent left
/// unanswered is found around one of them.
pub const EARLIER_MOVES: usize = 6;

/// The most moves after a ko's ban lifts that rule 0 may play its point.
pub const MAX_KO_MOVES: u32 = 3;

/// A ko taken a few moves ago.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecentKo {
    /// The point of the stone it captured: where the other side would retake.
    pub point: Point,
    /// Moves played since the capture (0: the banned side is to move).
    pub moves_since: u32,
}

/// What a playout move may know of the moves before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Last {
    /// The opponent's last move, if it was a stone.
    pub point: Option<Point>,
    /// The move before it (the mover's own last move), if a stone.
    pub before: Option<Point>,
    /// The stones played before those, newest first, as far as the caller knows them.
    pub earlier: [Option<Point>; EARLIER_MOVES],
    /// The last ko taken, while rule 0 may still play its point.
    pub ko: Option<RecentKo>,
}

impl Last {
    /// What the next move knows once `played` (a stone's point; `None`: a pass) is played.
    #[must_use]
    pub fn then(self, played: Option<Point>) -> Last {
        let mut earlier = [None; EARLIER_MOVES];
        earlier[0] = self.before;
        earlier[1..].copy_from_slice(&self.earlier[..EARLIER_MOVES - 1]);
        let ko = self
            .ko
            .map(|ko| RecentKo {
                moves_since: ko.moves_since + 1,
                ..ko
            })
            .filter(|ko| ko.moves_since <= MAX_KO_MOVES);
        Last {
            point: played,
            before: self.point,
            earlier,
            ko,
        }
    }

    /// The same, remembering the ko the last move took if `board` (after it) has a ko ban:
    /// a ban lasts one move, so it is the last move's.
    #[must_use]
    pub fn with_ko_of(self, board: &Board) -> Last {
        match board.ko() {
            Some(ko) => Last {
                ko: Some(RecentKo {
                    point: ko.point,
                    moves_since: 0,
                }),
                ..self
            },
            None => self,
        }
    }

    /// The stones of every remembered move, newest first.
    fn points(&self) -> impl Iterator<Item = Point> + '_ {
        [self.point, self.before]
            .into_iter()
            .chain(self.earlier)
            .flatten()
    }
}

/// The most candidates one rule collects (more are dropped, which only narrows the choice).
const MAX_CANDIDATES: usize = 32;

/// A small set of candidate points, without allocation.
struct Candidates {
    points: [Point; MAX_CANDIDATES],
    len: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            points: [Point::from_index(0); MAX_CANDIDATES],
            len: 0,
        }
    }

    fn push(&mut self, p: Point) {
        if self.len < MAX_CANDIDATES && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    fn pick(&self, rng: &mut Rng) -> Option<Point> {
        (self.len > 0).then(|| self.points[rng.below(self.len)])
    }
}

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
        if let Some(p) = self.ko_move(board, c, &last, rng, recent) {
            return Move::Play(p);
        }
        if let Some(p) = self.local_move(board, c, last, rng, recent) {
            return Move::Play(p);
        }
        if chance(rng, self.params.left_atari_percent) {
            let mut cands = Candidates::new();
            self.left_atari_moves(board, c, &last, recent, &mut cands);
            if let Some(p) = cands.pick(rng) {
                return Move::Play(p);
            }
        }
        random_move(board, c, rng, recent, &self.params).map_or(Move::Pass, Move::Play)
    }

    /// Rule 0: the point of a recent ko whose ban has lifted.
    fn ko_move(
        &self,
        board: &Board,
        c: Color,
        last: &Last,
        rng: &mut Rng,
        recent: &Recent,
    ) -> Option<Point> {
        let ko = last.ko?;
        let in_window = (1..=self.params.ko_moves).contains(&ko.moves_since);
        // A newer ko's ban is the board's; this rule is for the moves after one lifts.
        if !in_window || board.ko().is_some() || !chance(rng, self.params.ko_percent) {
            return None;
        }
        let p = ko.point;
        (board.get(p).is_none() && playable(board, c, p, recent) && !is_bad_self_atari(board, c, p))
            .then_some(p)
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
            self.atari_moves(board, c, l, recent, &mut cands);
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

    /// Rule 6: captures and saves of chains in atari at or next to the remembered moves
    /// (an atari is made next to its chain, so one the last moves made and nobody answered
    /// is among them).
    fn left_atari_moves(
        &mut self,
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
                    self.save_moves(board, c, q, recent, cands);
                } else {
                    push_capture(board, c, q, recent, cands);
                }
            }
        }
    }

    /// The saves of `c`'s chain on `q`, in atari: captures of an opponent chain in atari
    /// next to it, and the extension when it is not caught in a ladder.
    fn save_moves(
        &mut self,
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
            Some(2) if !self.ladder.captures_after(board, c, lib) => cands.push(lib),
            // The extension captures: it gains liberties.
            None => cands.push(lib),
            _ => {}
        }
    }

    /// Rule 1: saves of own chains the last move put in atari, and captures of opponent
    /// chains in atari at or around the last move.
    fn atari_moves(
        &mut self,
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
                self.save_moves(board, c, q, recent, cands);
            }
        }
    }
}

#[inline]
fn chance(rng: &mut Rng, percent: u32) -> bool {
    percent >= 100 || (percent > 0 && (rng.below(100) as u32) < percent)
}

/// Whether `c` may play the empty point `p` in a playout: legal on the board, not an own
/// true eye, and a capture brings back no position of the playout.
#[inline]
fn playable(board: &Board, c: Color, p: Point, recent: &Recent) -> bool {
    match board.playout_candidate(c, p) {
        None => false,
        Some(true) => !recent.contains(board.hash_after(c, p)),
        Some(false) => true,
    }
}

/// Rule 3: an atari on the last move's chain when it has two liberties and the atari
/// leaves it unable to run (its extension would have two liberties at most and it cannot
/// capture its way out); a third liberty for own chains next to the last move that have two,
/// and with `race`, the race's moves for own chains next to it with two to four liberties
/// against the opponent chains next to them.
fn two_lib_moves(
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

/// Calls `f` with a stone of each opponent chain next to `c`'s chain on `own`, once per
/// chain while there are at most eight of them (a long chain touches the same neighbour
/// many times; past eight, some may come twice).
fn for_each_opponent_chain_next_to(board: &Board, c: Color, own: Point, mut f: impl FnMut(Point)) {
    let geo = board.geometry();
    let mut seen = SeenChains::<8>::new();
    for s in board.chain_stones(own) {
        for &t in geo.neighbours(s) {
            if board.get(t) != Some(c.other()) {
                continue;
            }
            if seen.first_visit(board.chain_head(t)) {
                f(t);
            }
        }
    }
}

/// The chains a rule has already looked at, by head, remembering the first `N`: past
/// them a chain may be looked at twice, which only repeats a candidate.
struct SeenChains<const N: usize> {
    heads: [Point; N],
    len: usize,
}

impl<const N: usize> SeenChains<N> {
    fn new() -> Self {
        SeenChains {
            heads: [Point::from_index(0); N],
            len: 0,
        }
    }

    /// Whether the chain with head `head` is met for the first time.
    fn first_visit(&mut self, head: Point) -> bool {
        if self.heads[..self.len].contains(&head) {
            return false;
        }
        if self.len < N {
            self.heads[self.len] = head;
            self.len += 1;
        }
        true
    }
}

/// The capture of the opponent chain on `t`, in atari, when `c` may play it.
fn push_capture(board: &Board, c: Color, t: Point, recent: &Recent, cands: &mut Candidates) {
    if let Some(lib) = board.first_liberty(t)
        && playable(board, c, lib, recent)
    {
        cands.push(lib);
    }
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

/// Rule 2: the vital point of a small eye space next to the last move.
///
/// An eye space is a region of 3 to 6 empty points bordered by one colour only. Its vital
/// point is the point with the most neighbours inside the region, when exactly one point
/// has that most and it is at least two: the middle of a straight or bent three, the centre
/// of a pyramid four, a bulky five or a rabbity six. Shapes without such a point (a square
/// four is dead already, a straight or bent four alive) give nothing.
fn nakade_move(board: &Board, c: Color, l: Point, recent: &Recent) -> Option<Point> {
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

/// Rule 7: a random move. First a few draws of points whose whole 3x3 neighbourhood is
/// empty (quick, and never wrong early in a playout), then a scan from a random start for
/// the first point that is playable and not a bad self-atari (refused `self_atari_percent`
/// of the time).
fn random_move(
    board: &Board,
    c: Color,
    rng: &mut Rng,
    recent: &Recent,
    params: &PolicyParams,
) -> Option<Point> {
    let empties = board.empties();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let geo = board.geometry();
    for _ in 0..params.fill_board_tries {
        let p = empties[rng.below(n)];
        if geo
            .ring(p)
            .iter()
            .all(|q| q.is_some_and(|q| board.get(q).is_none()))
        {
            return Some(p);
        }
    }
    let refuse_self_atari = chance(rng, params.self_atari_percent);
    let mut i = rng.below(n);
    for _ in 0..n {
        let p = empties[i];
        if playable(board, c, p, recent) && !(refuse_self_atari && is_bad_self_atari(board, c, p)) {
            return Some(p);
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
    None
}

/// A strict ladder reader for playouts: no allocation after the first use, a node budget,
/// one copy of the board a query (plays that capture take a copy of their own; the others
/// are undone in place).
struct Ladder {
    spares: Spares,
    nodes_per_query: u32,
    nodes: u32,
}

impl PlaysAndReads for Ladder {
    fn spares(&mut self) -> &mut Spares {
        &mut self.spares
    }
}

impl Ladder {
    fn new(nodes_per_query: u32) -> Ladder {
        Ladder {
            spares: Spares::default(),
            nodes_per_query,
            nodes: 0,
        }
    }

    /// Whether, after `c` extends at `p` to a chain with two liberties, the opponent takes
    /// that chain in a strict ladder. Out of budget counts as an escape.
    fn captures_after(&mut self, board: &Board, c: Color, p: Point) -> bool {
        if self.nodes_per_query == 0 {
            return false;
        }
        self.nodes = self.nodes_per_query;
        let mut after = self.spares.copy_of(board);
        after.play_unchecked(c, Move::Play(p));
        let captured = self.attacker_wins(&mut after, p);
        self.spares.give_back(after);
        captured
    }

    /// The chain on `target` has two liberties and the attacker moves: does an atari on
    /// one of them win?
    fn attacker_wins(&mut self, b: &mut Board, target: Point) -> bool {
        let Some(defender) = b.get(target) else {
            return true;
        };
        let attacker = defender.other();
        let mut libs = b.liberties(target);
        let (Some(x), Some(y)) = (libs.next(), libs.next()) else {
            return false;
        };
        for (atari, other) in [(x, y), (y, x)] {
            if self.nodes == 0 {
                return false;
            }
            self.nodes -= 1;
            if b.playout_candidate(attacker, atari).is_none() {
                continue;
            }
            // Read without playing where the answer is plain: if the extension at the other
            // liberty would have three liberties once `atari` is filled, this atari fails.
            // (A capture by the atari stone would only add liberties.)
            if b.liberties_after(defender, other).is_some_and(|n| n >= 4) {
                continue;
            }
            let wins = self.after_play(b, attacker, atari, |ladder, next| {
                next.get(target).is_none()
                    || (next.liberty_count(target) == 1 && ladder.defender_loses(next, target))
            });
            if wins {
                return true;
            }
        }
        false
    }

    /// The chain on `target` is in atari and its owner moves: do all its escapes fail?
    fn defender_loses(&mut self, b: &mut Board, target: Point) -> bool {
        let Some(defender) = b.get(target) else {
            return true;
        };
        let geo = b.geometry();
        // Escapes: capture an adjacent attacker chain in atari, or extend at the liberty.
        let mut escapes = Candidates::new();
        for s in b.chain_stones(target) {
            for &t in geo.neighbours(s) {
                if b.get(t) == Some(defender.other())
                    && b.liberty_count(t) == 1
                    && let Some(lib) = b.first_liberty(t)
                {
                    escapes.push(lib);
                }
            }
        }
        if let Some(lib) = b.first_liberty(target) {
            escapes.push(lib);
        }
        for &e in &escapes.points[..escapes.len] {
            if self.nodes == 0 {
                return false;
            }
            self.nodes -= 1;
            if b.playout_candidate(defender, e).is_none() {
                continue;
            }
            // A move that captures nothing is read without playing it unless it leaves
            // exactly two liberties, where the ladder goes on.
            match b.liberties_after(defender, e) {
                Some(n) if n >= 3 => return false,
                Some(0 | 1) => continue,
                _ => {}
            }
            let lost = self.after_play(b, defender, e, |ladder, next| {
                let libs = if next.get(target).is_some() {
                    next.liberty_count(target)
                } else {
                    0
                };
                match libs {
                    0 | 1 => true,
                    2 => ladder.attacker_wins(next, target),
                    _ => false,
                }
            });
            if !lost {
                return false;
            }
        }
        true
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
        let mut b = board(
            "
            . . . . . . .
            . . . . . . .
            . . X O . . .
            . X O . O . .
            . . X O . . .
            . . . . . . .
            . . . . . . .",
        );
        let (c4, d4) = (Move::Play(pt(&b, "C4")), Move::Play(pt(&b, "D4")));
        let mut rng = Rng::new(9);
        let mut last = Last::default();
        let play = |b: &mut Board, last: &mut Last, c: Color, v: &str| {
            b.play(c, Move::Play(pt(b, v)), false).unwrap();
            *last = last.then(Some(pt(b, v))).with_ko_of(b);
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
        assert_eq!(b.get(pt(&b, "D4")), None);
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

    /// The playout ladder reader against the tactical reader's strict ladder, on every
    /// extension to two liberties found in positions from random games (ko ladders left
    /// out).
    #[test]
    fn ladder_reader_agrees_with_the_tactical_ladder() {
        use crate::go::geometry::{Geometry, Topology};
        use crate::tactics::ladder_attack;
        let mut ladder = Ladder::new(100_000);
        let mut rng = Rng::new(7);
        let (mut checked, mut captured) = (0, 0);
        for size in [7, 9, 13] {
            let geo = Geometry::get(size, Topology::Plane).unwrap();
            for game in 0..40 {
                let mut b = Board::new(geo);
                let mut recent = Recent::new(&b);
                let mut c = Color::Black;
                let moves = rng.below(size * size * 3 / 4) + game % 5;
                for _ in 0..moves {
                    let m = crate::search::playout::random_move(&b, c, &mut rng, &recent);
                    b.play_unchecked(c, m);
                    recent.push(b.hash());
                    c = c.other();
                }
                for &p in b.empties() {
                    for c in Color::ALL {
                        if b.liberties_after(c, p) != Some(2)
                            || !geo
                                .neighbours(p)
                                .iter()
                                .any(|&q| b.get(q) == Some(c) && b.liberty_count(q) == 1)
                        {
                            continue;
                        }
                        let mut after = b.clone();
                        after.play_unchecked(c, Move::Play(p));
                        // Ko ladders are the tactical reader's business: the playout
                        // reader knows only the board's ko point.
                        let expected = match ladder_attack(&after, p).0 {
                            crate::tactics::Outcome::Win => true,
                            crate::tactics::Outcome::Fail => false,
                            _ => continue,
                        };
                        let got = ladder.captures_after(&b, c, p);
                        assert_eq!(
                            got,
                            expected,
                            "{c} extends at {}:\n{b:?}",
                            geo.format_point(p)
                        );
                        checked += 1;
                        captured += got as usize;
                    }
                }
            }
        }
        assert!(
            checked > 60 && captured > 20,
            "{checked} checked, {captured} captured"
        );
    }

    #[test]
    fn escapes_an_atari_that_is_no_ladder_and_captures_in_atari() {
        // Black has just played B2, putting White C2 in atari; White extends at D2 with
        // three liberties, or, if it were Black, captures.
        let b = board(
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
        let last = Last::default().then(Some(pt(&b, "B2")));
        for _ in 0..20 {
            assert_eq!(
                policy.choose(&b, Color::White, last, &mut rng, &recent),
                Move::Play(pt(&b, "D2"))
            );
        }
    }

    #[test]
    fn an_atari_left_unanswered_is_captured_or_saved_from_the_remembered_moves() {
        // Black's D2 put White C2 in atari and White played F4 elsewhere: Black captures at
        // C3. Had Black then answered at F5, White saves C2 at C3 (three liberties). The
        // board is the same for both: the rule reads the remembered moves.
        let b = board(
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
        let c3 = Move::Play(pt(&b, "C3"));
        let after_f4 = Last::default()
            .then(Some(pt(&b, "D2")))
            .then(Some(pt(&b, "F4")));
        let after_f5 = after_f4.then(Some(pt(&b, "F5")));
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
    fn a_chain_left_with_two_liberties_plays_the_race_when_asked() {
        // White's B1 took a liberty of Black's A2-C2, which cannot extend to three; the
        // race is won by the atari at C1 (A1 would be a self-atari).
        let b = board(
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
        let l = pt(&b, "B1");
        let mut cands = Candidates::new();
        two_lib_moves(&b, Color::Black, l, &recent, false, &mut cands);
        assert_eq!(&cands.points[..cands.len], &[]);
        two_lib_moves(&b, Color::Black, l, &recent, true, &mut cands);
        assert_eq!(&cands.points[..cands.len], &[pt(&b, "C1")]);

        // White's D3 touches Black's three-liberty A3-C3, whose neighbour A4-C4 has two:
        // the race's atari is C5 (A5 would leave B5 in atari).
        let b = board(
            "
            . X . . .
            O O O X .
            X X X O .
            . . . . .
            . . . . .",
        );
        let recent = Recent::new(&b);
        let l = pt(&b, "D3");
        let c5 = pt(&b, "C5");
        let mut cands = Candidates::new();
        two_lib_moves(&b, Color::Black, l, &recent, false, &mut cands);
        assert!(!cands.points[..cands.len].contains(&c5));
        two_lib_moves(&b, Color::Black, l, &recent, true, &mut cands);
        assert!(cands.points[..cands.len].contains(&c5));
        assert!(!cands.points[..cands.len].contains(&pt(&b, "A5")));
    }

    #[test]
    fn nakade_point_of_a_straight_three() {
        let b = board(
            "
            . O . O .
            O O O O O
            O O O O O
            X X X X O
            . . . X O",
        );
        // White's last move E2 next to nothing: use a move next to the eye space.
        let recent = Recent::new(&b);
        let l = pt(&b, "B2");
        assert_eq!(
            nakade_move(&b, Color::White, l, &recent),
            Some(pt(&b, "B1"))
        );
        assert_eq!(
            nakade_move(&b, Color::Black, l, &recent),
            Some(pt(&b, "B1"))
        );
    }

    #[test]
    fn bad_self_ataris_and_good_ones() {
        // Black D4 makes three stones with one liberty (E4) inside White's eye space: a
        // nakade, allowed.
        let nakade = board(
            "
            . . . . . . .
            . . . . . . .
            . O O O O O .
            O X X . . O .
            . O O O O O .
            . . . . . . .
            . . . . . . .",
        );
        assert!(!is_bad_self_atari(&nakade, Color::Black, pt(&nakade, "D4")));
        // Four stones and more: never.
        let wall = board(
            "
            . . . . .
            O O O O .
            X X X . .
            O O O O .
            . . . . .",
        );
        assert!(is_bad_self_atari(&wall, Color::Black, pt(&wall, "D3")));
        // A lone stone thrown into White's two-point eye in the corner: allowed; the same
        // stone where its liberty leads into the open: bad.
        let corner = board(
            "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            . . O . .",
        );
        assert!(!is_bad_self_atari(&corner, Color::Black, pt(&corner, "A1")));
        let open = board(
            "
            . . . . .
            . . . . .
            . . O . .
            . O . . .
            . . O . .",
        );
        // A lone stone whose liberty leads into the open, no short opponent chain beside it.
        assert_eq!(
            self_atari(&open, Color::Black, pt(&open, "C2")),
            SelfAtari::Large
        );
        let edge = board(
            "
            . . . . .
            . . . . .
            . . . . .
            . O . . .
            O . . . .",
        );
        // A2 leads into the open, but White A1 has two liberties: a throw-in, allowed.
        assert!(!is_bad_self_atari(&edge, Color::Black, pt(&edge, "A2")));
        let open_edge = board(
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
            pt(&open_edge, "A2")
        ));
        // Next to a white chain with two liberties, the same stone is a useful throw-in.
        let race = board(
            "
            . . . . .
            . . . . .
            O X . . .
            . O X . .
            . X . . .",
        );
        assert!(!is_bad_self_atari(&race, Color::Black, pt(&race, "A2")));
    }

    #[test]
    fn small_chains_in_atari_are_nakade_only_inside_the_eye_space() {
        // Black C2 extends C3 into atari: the last liberty, C1, leads to the open first line.
        let escape = board(
            "
            . . . . .
            . . O . .
            . O X O .
            . O . O .
            . . . . .",
        );
        let c2 = pt(&escape, "C2");
        assert_eq!(self_atari(&escape, Color::Black, c2), SelfAtari::SmallChain);
        assert!(is_bad_self_atari(&escape, Color::Black, c2));
        // The same two stones with White on B1 and D1: C1 touches nothing but them and
        // White, so they are inside White's eye space.
        let inside = board(
            "
            . . . . .
            . . O . .
            . O X O .
            . O . O .
            . O . O .",
        );
        let c2 = pt(&inside, "C2");
        assert_eq!(self_atari(&inside, Color::Black, c2), SelfAtari::Nakade);
        assert!(!is_bad_self_atari(&inside, Color::Black, c2));
        // C2 joins B2 and D2 into three stones whose last liberty is D1; E1 is empty, so
        // D1 leads out: a connection into atari.
        let connect = board(
            "
            . . . . .
            . . . . .
            O O O O O
            O X . X O
            . O O . .",
        );
        let c2 = pt(&connect, "C2");
        assert_eq!(
            self_atari(&connect, Color::Black, c2),
            SelfAtari::SmallChain
        );
        // With White on E1, D1 is the last point of White's eye space.
        let closed = board(
            "
            . . . . .
            . . . . .
            O O O O O
            O X . X O
            . O O . O",
        );
        let c2 = pt(&closed, "C2");
        assert_eq!(self_atari(&closed, Color::Black, c2), SelfAtari::Nakade);
        // A lone stone, and a move with two liberties.
        assert_eq!(
            self_atari(&escape, Color::Black, pt(&escape, "E5")),
            SelfAtari::No
        );
    }

    #[test]
    fn plays_the_learnt_reply_while_it_is_playable() {
        let b = board(
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
        let last = Last::default().then(Some(pt(&b, "C3")));
        // White answered C3 at D4 and won.
        let game = [Move::Play(pt(&b, "C3")), Move::Play(pt(&b, "D4"))];
        policy.learn(25, &game, Color::Black, Color::White);
        for _ in 0..20 {
            assert_eq!(
                policy.choose(&b, Color::White, last, &mut rng, &recent),
                Move::Play(pt(&b, "D4"))
            );
        }
        // Off, or with the reply's point taken, the policy plays as before.
        let taken = board(
            "
            . . . . .
            . . . O .
            . . X . .
            . . . . .
            . . . . .",
        );
        let recent = Recent::new(&taken);
        let d4 = Move::Play(pt(&b, "D4"));
        assert!(
            (0..20).all(|_| policy.choose(&taken, Color::White, last, &mut rng, &recent) != d4)
        );
        let mut off = Policy::new(PolicyParams::default());
        off.learn(25, &game, Color::Black, Color::White);
        let recent = Recent::new(&b);
        assert!((0..50).any(|_| off.choose(&b, Color::White, last, &mut rng, &recent) != d4));
    }
}
