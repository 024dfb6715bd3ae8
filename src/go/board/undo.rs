//! A play that can be taken back without a copy of the board: the readers' inner loop. A
//! copy moves every table (some 24 KB on 19x19, most of it liberty sets), while a play that
//! captures nothing changes only the new stone's point, the chains next to it and the list
//! of empty points; `Undo` keeps those, and `undo` puts them back exactly (the order of the
//! empty points too, which playouts draw from, and the stale entries of empty points), so a
//! reader that plays and undoes reads as one that copies.
//!
//! A play that captures or is a suicide is refused: those change chains away from the
//! point, and the caller copies the board for them as before.

use super::{Board, ChainInfo, Ko};
use crate::color::Color;
use crate::go::geometry::MAX_SIZE;
use crate::go::point::{Move, Point};

/// Liberty-set words of the largest board.
const MAX_WORDS: usize = (MAX_SIZE * MAX_SIZE).div_ceil(64);

/// A chain table entry as it was: the chain's stone and liberty counts, its `next` link and
/// its liberty set, indexed by `head`.
#[derive(Clone, Copy)]
struct SavedChain {
    head: u16,
    info: ChainInfo,
    next: u16,
    libs: [u64; MAX_WORDS],
}

/// What [`Board::play_undoable`] changed: enough for [`Board::undo`] to restore the board.
pub struct Undo {
    point: Point,
    hash: u64,
    ko: Option<Ko>,
    /// The played point's stale `head`.
    head: u16,
    /// The new stone's own entry first, then each distinct chain next to it.
    saved: [SavedChain; 5],
    count: usize,
    /// The chains of the mover's colour next to the point, by head: their stones may have
    /// been relabelled by a merge.
    own: [u16; 4],
    own_count: usize,
}

impl Board {
    /// Plays `c` at the empty point `p` if the play captures nothing and is not a suicide,
    /// and returns what [`Board::undo`] needs to take it back; otherwise leaves the board
    /// unchanged and returns `None`. The ko ban does not stop it: callers that read (the
    /// ladders) check what they may play.
    pub fn play_undoable(&mut self, c: Color, p: Point) -> Option<Undo> {
        let words = self.geo.bitset_words();
        if words > MAX_WORDS || self.cells[p.index()].is_some() {
            return None;
        }
        let blank = SavedChain {
            head: 0,
            info: ChainInfo::default(),
            next: 0,
            libs: [0; MAX_WORDS],
        };
        let mut u = Undo {
            point: p,
            hash: self.hash,
            ko: self.ko,
            head: self.head[p.index()],
            saved: [blank; 5],
            count: 0,
            own: [0; 4],
            own_count: 0,
        };
        let mut breathes = false;
        let save = |board: &Board, u: &mut Undo, h: usize| {
            if u.saved[..u.count].iter().any(|s| s.head as usize == h) {
                return false;
            }
            let s = &mut u.saved[u.count];
            s.head = h as u16;
            s.info = board.chains[h];
            s.next = board.next[h];
            s.libs[..words].copy_from_slice(&board.lib_bits.0[h * words..(h + 1) * words]);
            u.count += 1;
            true
        };
        save(self, &mut u, p.index());
        for &q in self.geo.neighbours(p) {
            match self.cells[q.index()] {
                None => breathes = true,
                Some(x) => {
                    let h = self.head[q.index()] as usize;
                    let libs = self.chains[h].libs;
                    if x != c && libs == 1 {
                        return None; // a capture
                    }
                    if x == c && libs > 1 {
                        breathes = true;
                    }
                    if save(self, &mut u, h) && x == c {
                        u.own[u.own_count] = h as u16;
                        u.own_count += 1;
                    }
                }
            }
        }
        if !breathes {
            return None; // a suicide
        }
        self.ko = None;
        self.put_stone(c, p);
        Some(u)
    }

    /// Takes back the play `u` describes, which must be the last one made on this board.
    pub fn undo(&mut self, u: &Undo) {
        let words = self.geo.bitset_words();
        let p = u.point;
        self.cells[p.index()] = None;
        self.head[p.index()] = u.head;
        for s in &u.saved[..u.count] {
            let h = s.head as usize;
            self.chains[h] = s.info;
            self.next[h] = s.next;
            self.lib_bits.0[h * words..(h + 1) * words].copy_from_slice(&s.libs[..words]);
        }
        // With every `next` link a merge swapped restored, the chains are their old cycles
        // again; a merge relabelled the smaller one's stones, so each takes its head back.
        for &h in &u.own[..u.own_count] {
            let mut s = h as usize;
            loop {
                self.head[s] = h;
                s = self.next[s] as usize;
                if s == h as usize {
                    break;
                }
            }
        }
        // `take_empty` moved the list's last point into the played point's slot.
        let slot = self.empty_index[p.index()] as usize;
        if slot == self.empties.len() {
            self.empties.push(p);
        } else {
            let moved = self.empties[slot];
            self.empties[slot] = p;
            self.empty_index[moved.index()] = self.empties.len() as u16;
            self.empties.push(moved);
        }
        self.hash = u.hash;
        self.ko = u.ko;
    }
}

/// Spare boards for a reader's copies: a play that captures, a pass, the root's working copy.
/// Copying into a spare reuses its tables, so after the first few copies reading allocates
/// nothing.
#[derive(Default)]
pub struct Spares {
    boards: Vec<Board>,
}

impl Spares {
    /// A spare board holding `b` (a fresh clone when none is left).
    pub fn copy_of(&mut self, b: &Board) -> Board {
        match self.boards.pop() {
            Some(mut spare) => {
                spare.clone_from(b);
                spare
            }
            None => b.clone(),
        }
    }

    pub fn give_back(&mut self, b: Board) {
        self.boards.push(b);
    }
}

/// A reader that plays moves on a board and reads on: the ladder reader of the playouts and
/// the tactical reader share its step, [`PlaysAndReads::after_play`].
pub trait PlaysAndReads: Sized {
    fn spares(&mut self) -> &mut Spares;

    /// `read` of the board after `c` plays at the empty point `p`, with `b` as it was
    /// afterwards: a play that captures nothing (most reading moves) is undone in place, and
    /// one that captures is made on a spare copy.
    fn after_play<T>(
        &mut self,
        b: &mut Board,
        c: Color,
        p: Point,
        read: impl FnOnce(&mut Self, &mut Board) -> T,
    ) -> T {
        if let Some(undo) = b.play_undoable(c, p) {
            let answer = read(self, b);
            b.undo(&undo);
            return answer;
        }
        let mut next = self.spares().copy_of(b);
        next.play_unchecked(c, Move::Play(p));
        let answer = read(self, &mut next);
        self.spares().give_back(next);
        answer
    }
}
