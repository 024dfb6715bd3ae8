//! Attack and defence of one chain by reading, with a node budget.
//!
//! Two mutually recursive searches: `attack` (the attacker to move: can the chain be taken?)
//! and `defend` (its owner to move: can it be saved?). Candidate moves depend on the chain's
//! liberties and the depth:
//!
//! - attacker: capture a chain in atari; atari a chain with two liberties (both sides, best
//!   ladder direction first); save its own surrounding chains that are in atari (else the
//!   defender escapes by capturing them); strengthen a weak surrounding chain, back-capture
//!   a short defender chain pressing it, or fill from outside the liberties of one racing it;
//!   answer an atari the defender's last move made on
//!   any attacking chain (capture the atari-ing chain or extend); near the root also
//!   capture a defender chain in atari next to an attacking chain that touches the target
//!   or its liberties (taking it makes the surrounding chain strong), the liberties of weak defender
//!   chains next to the target's liberties (shortage of liberties: the extension becomes a
//!   self-atari), the liberties' neighbours (nets, approach moves) and, for three or four
//!   liberties, the liberties themselves;
//! - defender: capture an adjacent attacking chain in atari (the escape a naive reader
//!   forgets), extend at a liberty, atari an adjacent attacking chain with two liberties,
//!   answer an atari the attacker's last move made on any own chain (a stone that keeps a
//!   surrounding chain short of liberties) or a fill that shortened an own chain racing a
//!   surrounding chain (lengthen it), near the root save an own chain in atari next
//!   to an attacking chain that touches the target or its liberties (the mirror of the
//!   attacker's capture),
//!   near the root fill the liberties of a surrounding chain about as short as the target (a
//!   race), strengthen a weak own chain an extension would join (or attack the short
//!   attacking chains around it), the liberties' neighbours (a hane out of a net), approach
//!   moves in a race (where filling a surrounding chain's liberty would be a self-atari),
//!   take a liberty from an attacking chain that a move at the target's liberty would join
//!   (making that move a self-atari), capture the attacker's last stone if it is in atari,
//!   and finally tenuki (if the chain survives the attacker moving twice, it is safe).
//!
//! ```text
//!   . X . .     White O has two liberties (the dots next to it). Atari from the side
//!   X O . .     where extending would gain most, so that the defender must run towards
//!   . . . .     the side with less room: that is the ladder order.
//! ```
//!
//! Every line is bounded: beyond `Budget::depth` plies only ladder moves are read, a ladder
//! counts as escaped beyond `LADDER_PLIES_PER_LINE` plies per board line or when a position
//! repeats, and the node budget ends the whole query (an unfinished line favours the
//! defender: a defence cut short counts as a success). Results of finished subtrees are
//! cached by position for the query.

use std::collections::HashMap;

use crate::color::Color;
use crate::go::board::undo::{PlaysAndReads, Spares};
use crate::go::board::{Board, Ko};
use crate::go::point::{Move, Point};
use crate::go::tactics::budget::{
    Budget, FOUR_LIB_DEPTH, KO_DEPTH, LADDER_PLIES_PER_LINE, MAX_LIBERTIES, NEAR_DEPTH, NET_DEPTH,
    THREE_LIB_DEPTH,
};
use crate::go::tactics::chains::{adjacent_enemies, liberties_after, push_unique};
use crate::go::tactics::outcome::Outcome;
use crate::go::zobrist;

/// The attacker of the chain on `target`, moving first: `(outcome, first move)`. Chains
/// with more than `MAX_LIBERTIES` liberties, and empty points, give `(Fail, None)`.
///
/// ```
/// use shicho::go::tactics::{Budget, Outcome, attack};
/// use shicho::{Board, Geometry, Topology};
/// let geo = Geometry::get(5, Topology::Plane).unwrap();
/// let b = Board::from_diagram(geo, "
///     . . . . .
///     . . . . .
///     . X X . .
///     X O O X .
///     . . . . .").unwrap();
/// let o = geo.parse_point("B2").unwrap();
/// // Two liberties on the first line: the atari at B1 or C1 drives White into the corner.
/// let (outcome, m) = attack(&b, o, Budget::default());
/// assert_eq!(outcome, Outcome::Win);
/// assert!(m.is_some());
/// ```
pub fn attack(board: &Board, target: Point, budget: Budget) -> (Outcome, Option<Point>) {
    if board.get(target).is_none() {
        return (Outcome::Fail, None);
    }
    Reader::new(board, target, budget, Mode::Full).root(board, Side::Attack)
}

/// The owner of the chain on `target`, moving first: `(outcome, first move)`. A chain that
/// is safe whatever its owner does gives `Win` with the first harmless move tried, or `None`
/// when it has more than `MAX_LIBERTIES` liberties (GNU Go prints that as `1 PASS`). An empty
/// point gives `(Fail, None)`.
pub fn defend(board: &Board, target: Point, budget: Budget) -> (Outcome, Option<Point>) {
    if board.get(target).is_none() {
        return (Outcome::Fail, None);
    }
    Reader::new(board, target, budget, Mode::Full).root(board, Side::Defend)
}

/// Whether the attacker's play at `mv` captures the chain on `target` (the defender answers
/// next). Only legal plays count (a banned ko retake is `Fail`), and a play that takes the
/// chain at once is `Win` even where it takes a ko, as in GNU Go. An empty `target` is
/// `Fail`.
pub fn does_attack(board: &Board, mv: Point, target: Point, budget: Budget) -> Outcome {
    let Some(owner) = board.get(target) else {
        return Outcome::Fail;
    };
    if board.check(owner.other(), Move::Play(mv), false).is_err() {
        return Outcome::Fail;
    }
    // A legal play takes the chain exactly when it fills the chain's last liberty.
    if board.liberty_count(target) == 1 && board.first_liberty(target) == Some(mv) {
        return Outcome::Win;
    }
    Reader::new(board, target, budget, Mode::Full).first_move(board, owner.other(), mv)
}

/// Whether the owner's play at `mv` saves the chain on `target` (the attacker answers
/// next). Only legal plays count; an empty `target` is `Fail`.
pub fn does_defend(board: &Board, mv: Point, target: Point, budget: Budget) -> Outcome {
    let Some(owner) = board.get(target) else {
        return Outcome::Fail;
    };
    if board.check(owner, Move::Play(mv), false).is_err() {
        return Outcome::Fail;
    }
    Reader::new(board, target, budget, Mode::Full).first_move(board, owner, mv)
}

/// Which moves a search considers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Everything described in the module documentation.
    Full,
    /// The strict ladder: the attacker only ataris a two-liberty chain, the defender only
    /// extends or captures an adjacent chain in atari.
    Ladder,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Side {
    Attack,
    Defend,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    outcome: Outcome,
    point: Option<Point>,
    /// The ply the entry was computed at: it had at least as much room as any deeper query.
    ply: u32,
}

/// One query's search state: the budget spent, spare boards, the line being read
/// and the cache. Dropped when the query ends.
pub(crate) struct Reader {
    target: Point,
    attacker: Color,
    defender: Color,
    mode: Mode,
    budget: Budget,
    nodes: u32,
    /// Plies after which a line counts as an escape (ladders included).
    max_plies: u32,
    /// Boards for the root's copy, passes and plays that capture (the others are undone in
    /// place).
    spares: Spares,
    /// State keys of the positions on the current line, for repetition.
    line: Vec<u64>,
    /// The moves of the current line (`None` for a tenuki), for answers to the last move.
    played: Vec<Option<Point>>,
    cache: HashMap<(u64, Side), Entry>,
    /// Bumped whenever a result depends on the line rather than the position (budget
    /// exhausted, depth bound, repetition): such results are not cached.
    taint: u64,
    /// Per ply, the attacker's move that last took the chain (a killer move), tried first at
    /// the next attacker node of that ply: the defender's sibling candidates are often far
    /// off or equivalent, and the move that refuted one usually refutes the next.
    attack_killers: Killers,
    /// The same for the defender: the move that last saved the chain at a ply.
    defence_killers: Killers,
}

impl PlaysAndReads for Reader {
    fn spares(&mut self) -> &mut Spares {
        &mut self.spares
    }
}

impl Reader {
    pub(crate) fn new(board: &Board, target: Point, budget: Budget, mode: Mode) -> Reader {
        // Callers check that the target holds a stone; Black is a harmless stand-in if not.
        let defender = board.get(target).unwrap_or(Color::Black);
        Reader {
            target,
            attacker: defender.other(),
            defender,
            mode,
            budget,
            nodes: 0,
            max_plies: LADDER_PLIES_PER_LINE * board.size() as u32 + 20,
            spares: Spares::default(),
            line: Vec::new(),
            played: Vec::new(),
            cache: HashMap::new(),
            taint: 0,
            attack_killers: Killers::default(),
            defence_killers: Killers::default(),
        }
    }

    /// Reads the root position with `side` to move.
    pub(crate) fn root(&mut self, b: &Board, side: Side) -> (Outcome, Option<Point>) {
        let to_move = match side {
            Side::Attack => self.attacker,
            Side::Defend => self.defender,
        };
        self.line.push(Self::key(b, to_move, None));
        // The reading plays and undoes on one copy of the position.
        let mut b = self.spares.copy_of(b);
        let result = match side {
            Side::Attack => self.attack(&mut b, None, 0),
            Side::Defend => self.defend(&mut b, None, 0),
        };
        self.spares.give_back(b);
        result
    }

    /// The value for `c` of its play at `mv` in the root position, read on from there
    /// (`Fail` if reading may not play it).
    fn first_move(&mut self, b: &Board, c: Color, mv: Point) -> Outcome {
        self.line.push(Self::key(b, c, None));
        let mut b = self.spares.copy_of(b);
        let value = self.try_move(&mut b, c, mv, None, 0);
        self.spares.give_back(b);
        value.unwrap_or(Outcome::Fail)
    }

    /// Nodes played so far (for the budget tests).
    #[cfg(test)]
    pub(crate) fn nodes(&self) -> u32 {
        self.nodes
    }

    fn key(b: &Board, to_move: Color, komaster: Option<Color>) -> u64 {
        let ko = b.ko().map_or(0, |Ko { point, banned }| {
            (point.index() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ banned.index() as u64
        });
        let km = komaster.map_or(0, |c| 0x5851_f42d_4c95_7f2d << c.index());
        b.hash() ^ zobrist::to_move_key(to_move) ^ ko.rotate_left(17) ^ km
    }

    /// Whether reading may play `c` at `p`: `None` if not, else whether the play is a ko
    /// retake "after a threat" (then `c` is the ko master below).
    fn allowed(
        &self,
        b: &Board,
        c: Color,
        p: Point,
        komaster: Option<Color>,
        ply: u32,
    ) -> Option<bool> {
        if b.get(p).is_some() || b.is_suicide(c, p) {
            return None;
        }
        let retake = b.ko()
            == Some(Ko {
                point: p,
                banned: c,
            });
        if retake && (komaster.is_some_and(|k| k != c) || ply >= self.budget.scaled(KO_DEPTH)) {
            return None;
        }
        Some(retake)
    }

    /// The value for `c` of playing `p` and reading on: `None` if the play is not allowed.
    /// `c` is the attacker or the defender; the opponent answers at `ply + 1`. `b` is as it
    /// was afterwards: a play that captures nothing is undone in place, one that captures
    /// is made on a copy.
    fn try_move(
        &mut self,
        b: &mut Board,
        c: Color,
        p: Point,
        komaster: Option<Color>,
        ply: u32,
    ) -> Option<Outcome> {
        let retake = self.allowed(b, c, p, komaster, ply)?;
        self.nodes += 1;
        let komaster = if retake { Some(c) } else { komaster };
        self.played.push(Some(p));
        let value = self.after_play(b, c, p, |reader, child| {
            reader.read_after(child, c, komaster, ply)
        });
        self.played.pop();
        let value = if retake { value.after_threat() } else { value };
        Some(value)
    }

    /// The value for `c` of the position after its move at `ply`.
    fn read_after(
        &mut self,
        child: &mut Board,
        c: Color,
        komaster: Option<Color>,
        ply: u32,
    ) -> Outcome {
        if c == self.attacker {
            if child.get(self.target) != Some(self.defender) {
                self.capture_value(child, komaster)
            } else {
                self.answer(child, Side::Defend, komaster, ply + 1)
            }
        } else {
            self.answer(child, Side::Attack, komaster, ply + 1)
        }
    }

    /// The attacker has just taken the target: a ko the owner may still retake makes it a
    /// ko win.
    fn capture_value(&self, child: &Board, komaster: Option<Color>) -> Outcome {
        // A ko point banning the defender right after the capture means a single stone was
        // taken by a stone left with one liberty: the target itself, retakable.
        let retakable = child.ko().is_some_and(|k| k.banned == self.defender)
            && komaster.is_none_or(|k| k == self.defender);
        if retakable {
            Outcome::KoWin
        } else {
            Outcome::Win
        }
    }

    /// Reads the position after a move, from the point of view of the side that made it:
    /// the opponent (`side`) moves next. Handles repetition and the ply bound.
    fn answer(
        &mut self,
        child: &mut Board,
        side: Side,
        komaster: Option<Color>,
        ply: u32,
    ) -> Outcome {
        let to_move = match side {
            Side::Attack => self.attacker,
            Side::Defend => self.defender,
        };
        let key = Self::key(child, to_move, komaster);
        if self.line.contains(&key) || ply > self.max_plies {
            // A repeated position or an endless ladder: the chain escapes.
            self.taint += 1;
            return match side {
                Side::Attack => Outcome::Win,  // the defender made the move: it escapes
                Side::Defend => Outcome::Fail, // the attacker made the move: no capture
            };
        }
        self.line.push(key);
        let (opponent, _) = match side {
            Side::Attack => self.attack(child, komaster, ply),
            Side::Defend => self.defend(child, komaster, ply),
        };
        self.line.pop();
        opponent.for_opponent()
    }

    fn cached(&self, key: (u64, Side), ply: u32) -> Option<(Outcome, Option<Point>)> {
        let e = self.cache.get(&key)?;
        (e.ply <= ply).then_some((e.outcome, e.point))
    }

    fn store(&mut self, key: (u64, Side), ply: u32, taint: u64, result: (Outcome, Option<Point>)) {
        if self.taint == taint {
            self.cache.insert(
                key,
                Entry {
                    outcome: result.0,
                    point: result.1,
                    ply,
                },
            );
        }
    }

    fn out_of_nodes(&mut self) -> bool {
        if self.nodes >= self.budget.nodes {
            self.taint += 1;
            true
        } else {
            false
        }
    }

    /// The attacker to move: can the target be taken?
    pub(crate) fn attack(
        &mut self,
        b: &mut Board,
        komaster: Option<Color>,
        ply: u32,
    ) -> (Outcome, Option<Point>) {
        let t = self.target;
        if b.get(t) != Some(self.defender) {
            return (Outcome::Win, None);
        }
        let libs = b.liberty_count(t);
        let full = self.mode == Mode::Full && ply < self.budget.depth;
        let allowed = match libs {
            1 | 2 => true,
            3 => full && ply < self.budget.scaled(THREE_LIB_DEPTH),
            4 => full && ply < self.budget.scaled(FOUR_LIB_DEPTH),
            _ => false,
        };
        if !allowed {
            return (Outcome::Fail, None);
        }
        let key = (Self::key(b, self.attacker, komaster), Side::Attack);
        if let Some(hit) = self.cached(key, ply) {
            return hit;
        }
        if self.out_of_nodes() {
            return (Outcome::Fail, None);
        }
        let taint = self.taint;
        let mut moves = self.attack_moves(b, libs, full, ply);
        self.attack_killers.promote(&mut moves, ply);
        let mut best = (Outcome::Fail, None);
        for p in moves {
            let Some(value) = self.try_move(b, self.attacker, p, komaster, ply) else {
                continue;
            };
            if value.rank() > best.0.rank() {
                best = (value, Some(p));
                if value == Outcome::Win {
                    break;
                }
            }
            if self.nodes >= self.budget.nodes {
                self.taint += 1;
                break;
            }
        }
        if best.0 == Outcome::Win {
            self.attack_killers.set(ply, best.1);
        }
        self.store(key, ply, taint, best);
        best
    }

    /// The defender to move: can the target be saved?
    pub(crate) fn defend(
        &mut self,
        b: &mut Board,
        komaster: Option<Color>,
        ply: u32,
    ) -> (Outcome, Option<Point>) {
        let t = self.target;
        if b.get(t) != Some(self.defender) {
            return (Outcome::Fail, None);
        }
        let libs = b.liberty_count(t);
        if libs > MAX_LIBERTIES || (self.mode == Mode::Ladder && libs > 1) {
            return (Outcome::Win, None);
        }
        let key = (Self::key(b, self.defender, komaster), Side::Defend);
        if let Some(hit) = self.cached(key, ply) {
            return hit;
        }
        if self.out_of_nodes() {
            return (Outcome::Win, None);
        }
        let taint = self.taint;
        let full = self.mode == Mode::Full && ply < self.budget.depth;
        let mut moves = self.defend_moves(b, libs, full, ply);
        self.defence_killers.promote(&mut moves, ply);
        let mut best = (Outcome::Fail, None);
        for p in moves {
            let Some(value) = self.try_move(b, self.defender, p, komaster, ply) else {
                continue;
            };
            if value.rank() > best.0.rank() {
                best = (value, Some(p));
                if value == Outcome::Win {
                    break;
                }
            }
            if self.nodes >= self.budget.nodes {
                // Out of nodes with defences left untried: an unfinished defence counts as a
                // success, as an unfinished attack counts as a failure.
                self.taint += 1;
                best = (Outcome::Win, best.1.or(Some(p)));
                break;
            }
        }
        // Tenuki: if the attacker cannot take the chain even moving twice, it is safe.
        if best.0 != Outcome::Win && full && libs >= 2 && self.nodes < self.budget.nodes {
            let mut passed = self.spares.copy_of(b);
            passed.pass(self.defender);
            self.played.push(None);
            let value = self.answer(&mut passed, Side::Attack, komaster, ply + 1);
            self.played.pop();
            self.spares.give_back(passed);
            if value.rank() > best.0.rank() {
                best = (value, None);
            }
        }
        if best.0 == Outcome::Win {
            self.defence_killers.set(ply, best.1);
        }
        self.store(key, ply, taint, best);
        best
    }

    /// The attacker's candidates, best first.
    fn attack_moves(&self, b: &Board, libs: usize, full: bool, ply: u32) -> Vec<Point> {
        let t = self.target;
        let (a, d) = (self.attacker, self.defender);
        let geo = b.geometry();
        let lib_list: Vec<Point> = b.liberties(t).collect();
        let mut moves: Vec<Point> = Vec::with_capacity(16);
        if libs == 1 {
            moves.push(lib_list[0]);
            return moves;
        }
        if libs == 2 {
            // Atari first, from the side that leaves the defender the least room: after the
            // atari at `p` the defender extends at the other liberty `q`.
            let mut ataris: Vec<(i64, Point)> = lib_list
                .iter()
                .map(|&p| {
                    let q = if p == lib_list[0] {
                        lib_list[1]
                    } else {
                        lib_list[0]
                    };
                    // `p` is a liberty of the target, so it is counted: take it off.
                    let room = liberties_after(b, d, q, 8).saturating_sub(1);
                    let own = liberties_after(b, a, p, 3);
                    // Room for the defender dominates; a safe atari stone breaks ties.
                    (room as i64 * 4 - own as i64, p)
                })
                .collect();
            ataris.sort();
            moves.extend(ataris.into_iter().map(|(_, p)| p));
        }
        if self.mode == Mode::Ladder {
            return moves;
        }
        // Outside liberties of defender chains racing a weak surrounding chain: tried after
        // the liberties (see below).
        let mut race: Vec<Point> = Vec::new();
        // The attacker's own chains next to the target that the defender could capture.
        for e in adjacent_enemies(b, t) {
            match b.liberty_count(e) {
                1 => {
                    // Save it: extend, or capture a defender chain that has it in atari.
                    if let Some(l) = b.first_liberty(e) {
                        push_unique(&mut moves, l);
                    }
                    for x in adjacent_enemies(b, e) {
                        if x != b.chain_head(t)
                            && b.liberty_count(x) == 1
                            && let Some(l) = b.first_liberty(x)
                        {
                            push_unique(&mut moves, l);
                        }
                    }
                }
                2 if full && ply < self.budget.scaled(NET_DEPTH) => {
                    // Strengthen a weak surrounding chain before the attack: extend it, or
                    // back-capture (atari) a short defender chain that presses it.
                    for l in b.liberties(e) {
                        push_unique(&mut moves, l);
                    }
                    for x in adjacent_enemies(b, e) {
                        if x != b.chain_head(t) && b.liberty_count(x) <= 2 {
                            for l in b.liberties(x) {
                                push_unique(&mut moves, l);
                            }
                        }
                    }
                    // A race: a defender chain with three liberties that presses the weak
                    // chain wins it unless the attacker fills its liberties first, from
                    // outside (a shared liberty would shorten the weak chain too).
                    //
                    //   X X X X X X . O .    O's target C3 has two liberties; so has X's
                    //   . X O O O X X O O    E2-E1 holding it, and O's F2-G2 presses that
                    //   X X O . X O O * .    with three. Only X's * wins: then O's F2-G2
                    //   . . . O X . . . .    dies first and C3 with it.
                    for x in adjacent_enemies(b, e) {
                        if x != b.chain_head(t) && b.liberty_count(x) == 3 {
                            for l in b.liberties(x) {
                                if !b.liberties(e).any(|m| m == l) {
                                    race.push(l);
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if full && let Some(&Some(last)) = self.played.last() {
            rescue_moves(b, a, last, b.chain_head(t), &mut moves);
        }
        if full && ply < self.budget.scaled(NEAR_DEPTH) {
            // Captures near the target: a defender chain in atari next to an attacker chain
            // that touches the target or one of its liberties.
            let mut near = adjacent_enemies(b, t);
            for x in chains_next_to(b, &lib_list, a, b.chain_head(t)) {
                push_unique(&mut near, x);
            }
            for e in near {
                for x in adjacent_enemies(b, e) {
                    if x != b.chain_head(t)
                        && b.liberty_count(x) == 1
                        && let Some(l) = b.first_liberty(x)
                    {
                        push_unique(&mut moves, l);
                    }
                }
            }
        }
        if libs >= 3 {
            for &l in &lib_list {
                push_unique(&mut moves, l);
            }
        }
        for l in race {
            push_unique(&mut moves, l);
        }
        if full && ply < self.budget.scaled(NET_DEPTH) && libs <= 3 {
            // Shortage of liberties: a weak defender chain next to a liberty would join the
            // target when it extends there; taking that chain's liberties first makes the
            // extension a self-atari.
            //
            //   . X .      White extends at * to join O below; Black first takes the lower
            //   O O *      chain's liberty at +, and the extension leaves one liberty.
            //   X O O +
            for x in chains_next_to(b, &lib_list, d, b.chain_head(t)) {
                if b.liberty_count(x) <= 3 {
                    for l in b.liberties(x) {
                        push_unique(&mut moves, l);
                    }
                }
            }
        }
        if full && ply < self.budget.scaled(NET_DEPTH) && libs <= 3 {
            // Nets and approach moves: points next to the liberties, the ones touching most
            // liberties first (a geta touches both).
            let mut around: Vec<(usize, Point)> = Vec::new();
            for &l in &lib_list {
                for &q in geo.neighbours(l) {
                    if b.get(q).is_none()
                        && !lib_list.contains(&q)
                        && !around.iter().any(|x| x.1 == q)
                    {
                        let touching = geo
                            .neighbours(q)
                            .iter()
                            .filter(|x| lib_list.contains(x))
                            .count();
                        around.push((touching, q));
                    }
                }
            }
            around.sort_by_key(|&(touching, q)| (std::cmp::Reverse(touching), q));
            for (_, q) in around {
                push_unique(&mut moves, q);
            }
        }
        moves
    }

    /// The defender's candidates, best first.
    fn defend_moves(&self, b: &Board, libs: usize, full: bool, ply: u32) -> Vec<Point> {
        let t = self.target;
        let d = self.defender;
        let geo = b.geometry();
        let lib_list: Vec<Point> = b.liberties(t).collect();
        let mut moves: Vec<Point> = Vec::with_capacity(16);
        let enemies = adjacent_enemies(b, t);
        // Capture an adjacent attacking chain in atari, biggest first.
        let mut captures: Vec<(usize, Point)> = enemies
            .iter()
            .filter(|&&e| b.liberty_count(e) == 1)
            .filter_map(|&e| Some((b.chain_len(e), b.first_liberty(e)?)))
            .collect();
        captures.sort_by_key(|&(n, p)| (std::cmp::Reverse(n), p));
        for (_, p) in captures {
            push_unique(&mut moves, p);
        }
        // Extend: the liberty that gives most liberties first.
        let mut ext: Vec<(usize, Point)> = lib_list
            .iter()
            .map(|&p| (liberties_after(b, d, p, 8), p))
            .collect();
        ext.sort_by_key(|&(n, p)| (std::cmp::Reverse(n), p));
        for (_, p) in ext {
            push_unique(&mut moves, p);
        }
        if self.mode == Mode::Ladder {
            return moves;
        }
        // Counter-atari an adjacent attacking chain with two liberties, at any depth: that
        // chain may die in a ladder of its own, which must be read out. In atari, only an
        // atari that also captures something gains the move it needs (often a ko: the
        // attacker must retake instead of taking the target).
        for &e in &enemies {
            if b.liberty_count(e) == 2 {
                for l in b.liberties(e) {
                    if libs >= 2 || b.captures_something(d, l) {
                        push_unique(&mut moves, l);
                    }
                }
            }
        }
        if !full {
            return moves;
        }
        if let Some(&Some(last)) = self.played.last() {
            // The attacker's last stone left itself in atari (a net or an approach stone
            // played as a self-atari): taking it is the simplest refutation, wherever it is.
            if b.get(last) == Some(self.attacker)
                && b.liberty_count(last) == 1
                && let Some(l) = b.first_liberty(last)
            {
                push_unique(&mut moves, l);
            }
            rescue_moves(b, d, last, b.chain_head(t), &mut moves);
            if ply < self.budget.scaled(NET_DEPTH) {
                race_answers(b, d, last, b.chain_head(t), &mut moves);
            }
        }
        if ply < self.budget.scaled(NEAR_DEPTH) {
            // Save an own chain in atari next to an attacker chain that touches the target
            // or one of its liberties: the attacker would capture it to break out.
            let mut near = enemies.clone();
            for x in chains_next_to(b, &lib_list, self.attacker, b.chain_head(t)) {
                push_unique(&mut near, x);
            }
            for e in near {
                for x in adjacent_enemies(b, e) {
                    if x == b.chain_head(t) || b.liberty_count(x) != 1 {
                        continue;
                    }
                    if let Some(l) = b.first_liberty(x)
                        && liberties_after(b, d, l, 2) >= 2
                    {
                        push_unique(&mut moves, l);
                    }
                    for y in adjacent_enemies(b, x) {
                        if b.liberty_count(y) == 1
                            && let Some(l) = b.first_liberty(y)
                        {
                            push_unique(&mut moves, l);
                        }
                    }
                }
            }
        }
        if ply < self.budget.scaled(NET_DEPTH) {
            // Strengthen a weak own chain that an extension would join (in atari too: the
            // capture then becomes a ko, or the extension no longer a self-atari).
            for x in chains_next_to(b, &lib_list, d, b.chain_head(t)) {
                let n = b.liberty_count(x);
                if n <= 3 {
                    for l in b.liberties(x) {
                        push_unique(&mut moves, l);
                    }
                }
                // A weak own chain there shares the target's fate: the attacker's short
                // chains around it are targets too (their liberties, a race for the pair).
                // Near the root only: it widens every defence a lot.
                if n <= 2 && ply < self.budget.scaled(NEAR_DEPTH) {
                    for e in adjacent_enemies(b, x) {
                        if b.liberty_count(e) <= 3 {
                            for l in b.liberties(e) {
                                push_unique(&mut moves, l);
                            }
                        }
                    }
                }
            }
        }
        if libs >= 2 && ply < self.budget.scaled(NET_DEPTH) {
            // A race: fill the liberties of a surrounding chain that is about as short as
            // the target, up to two liberties longer (backfilling included).
            for &e in &enemies {
                let n = b.liberty_count(e);
                if n >= 3 && n <= libs + 2 {
                    for l in b.liberties(e) {
                        push_unique(&mut moves, l);
                    }
                }
            }
            // Out of a net: points next to the liberties.
            for &l in &lib_list {
                for &q in geo.neighbours(l) {
                    if b.get(q).is_none() {
                        push_unique(&mut moves, q);
                    }
                }
            }
        }
        if libs >= 2 && ply < self.budget.scaled(NET_DEPTH) {
            approach_moves(b, d, &enemies, libs, &mut moves);
            // Take a liberty from an attacking chain next to a liberty when the attacker's
            // move there would join it with only two: the move becomes a self-atari.
            //
            //   O X .      X's atari at * would join the X stone below, left with a and b:
            //   O . X      O plays b first, and * is a self-atari (O takes at a).
            //   * O O
            //   X b .
            //   a O .
            for &l in &lib_list {
                if liberties_after(b, self.attacker, l, 3) != 2 {
                    continue;
                }
                for &q in geo.neighbours(l) {
                    if b.get(q) == Some(self.attacker) {
                        for m in b.liberties(q) {
                            if m != l {
                                push_unique(&mut moves, m);
                            }
                        }
                    }
                }
            }
        }
        moves
    }
}

/// One side's killer moves: per ply, the move that last succeeded there.
#[derive(Default)]
struct Killers(Vec<Option<Point>>);

impl Killers {
    /// Moves the killer of `ply` to the front if it is a candidate, keeping the order of the
    /// rest: only the order changes, never the set of moves read.
    fn promote(&self, moves: &mut [Point], ply: u32) {
        if let Some(&Some(k)) = self.0.get(ply as usize)
            && let Some(i) = moves.iter().position(|&m| m == k)
        {
            moves[..=i].rotate_right(1);
        }
    }

    /// Records `p` as the killer of `ply`; a success without a move (a tenuki) keeps the
    /// old one.
    fn set(&mut self, ply: u32, p: Option<Point>) {
        let Some(p) = p else { return };
        let i = ply as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(p);
    }
}

/// Moves that save a chain of colour `c` (other than `except`) that the opponent's last
/// move at `last` put or left in atari: capturing an opponent chain in atari next to it, or
/// extending at its liberty when that gives it room. The chain need not touch the target: it
/// is often a stone that keeps a surrounding chain short of liberties (the attacker ataris
/// it to break the race) or a stone of the net (the defender ataris it to escape), so the
/// answer to the atari is a defence or an attack the target's liberties never show.
fn rescue_moves(b: &Board, c: Color, last: Point, except: Point, moves: &mut Vec<Point>) {
    let geo = b.geometry();
    for &q in geo.neighbours(last) {
        if b.get(q) != Some(c) || b.chain_head(q) == except || b.liberty_count(q) != 1 {
            continue;
        }
        for x in adjacent_enemies(b, q) {
            if b.liberty_count(x) == 1
                && let Some(l) = b.first_liberty(x)
            {
                push_unique(moves, l);
            }
        }
        if let Some(l) = b.first_liberty(q)
            && liberties_after(b, c, l, 2) >= 2
        {
            push_unique(moves, l);
        }
    }
}

/// Approach moves in a race, for `c` whose chain has `libs` liberties: a short surrounding
/// chain among `enemies` may have a liberty that `c` cannot fill, because the stone there
/// would be in atari (or have no liberty at all). `c` first plays next to that liberty, or
/// takes the liberties of a short opponent chain beside it, so that the fill works later.
///
/// ```text
///   | . X O       On the edge O cannot fill the X chain's liberty * at once: the stone
///   | a * X       there would have the single liberty a, and X would take it. O plays a
///   +------       first (the approach); then * joins it and is a real atari.
/// ```
fn approach_moves(b: &Board, c: Color, enemies: &[Point], libs: usize, moves: &mut Vec<Point>) {
    let geo = b.geometry();
    for &e in enemies {
        let n = b.liberty_count(e);
        if n > 3 || n > libs + 1 {
            continue;
        }
        for l in b.liberties(e) {
            if liberties_after(b, c, l, 2) >= 2 {
                continue;
            }
            for &q in geo.neighbours(l) {
                match b.get(q) {
                    None => push_unique(moves, q),
                    Some(x)
                        if x != c
                            && b.chain_head(q) != b.chain_head(e)
                            && b.liberty_count(q) <= 2 =>
                    {
                        for m in b.liberties(q) {
                            push_unique(moves, m);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Answers to a fill in a race (the mirror of the attacker's outside fills): the opponent's
/// last move at `last` left a chain of colour `c` (other than `except`) with two liberties
/// while it presses an opponent chain about as short. Extending it, or connecting it to a
/// stronger chain, keeps the race; any play there that is no self-atari is worth reading.
fn race_answers(b: &Board, c: Color, last: Point, except: Point, moves: &mut Vec<Point>) {
    let geo = b.geometry();
    for &q in geo.neighbours(last) {
        if b.get(q) != Some(c) || b.chain_head(q) == except || b.liberty_count(q) != 2 {
            continue;
        }
        let racing = adjacent_enemies(b, q)
            .into_iter()
            .any(|x| b.liberty_count(x) <= 3);
        if !racing {
            continue;
        }
        for l in b.liberties(q) {
            if liberties_after(b, c, l, 2) >= 2 {
                push_unique(moves, l);
            }
        }
    }
}

/// Heads of the chains of colour `c`, other than `except`, next to any of `points`.
fn chains_next_to(b: &Board, points: &[Point], c: Color, except: Point) -> Vec<Point> {
    let geo = b.geometry();
    let mut out = Vec::new();
    for &l in points {
        for &q in geo.neighbours(l) {
            if b.get(q) == Some(c) {
                let h = b.chain_head(q);
                if h != except {
                    push_unique(&mut out, h);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};

    #[test]
    fn the_node_budget_bounds_a_query_and_favours_the_defender() {
        let geo = Geometry::get(19, Topology::Plane).unwrap();
        let b = Board::from_diagram(
            geo,
            &(0..19)
                .map(|y| match y {
                    2 => ". . . . . . . . . . . . . . . X . . .",
                    3 => ". . . . . . . . . . . . . . X O X . .",
                    4 => ". . . . . . . . . . . . . . . O X . .",
                    _ => ". . . . . . . . . . . . . . . . . . .",
                })
                .collect::<Vec<_>>()
                .join("\n"),
        )
        .unwrap();
        let target = geo.parse_point("Q16").unwrap();
        // The long ladder needs about seventy moves: plenty works, ten does not.
        assert_eq!(attack(&b, target, Budget::default()).0, Outcome::Win);
        for nodes in [1, 10] {
            let mut s = Reader::new(&b, target, Budget::with_nodes(nodes), Mode::Full);
            assert_eq!(s.root(&b, Side::Attack).0, Outcome::Fail);
            // A node may finish the move it is trying: one over at most per ply of the line.
            assert!(s.nodes() <= nodes + 1, "{} > {nodes}", s.nodes());
        }
    }
}
