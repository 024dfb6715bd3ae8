//! The fast board: stones, chains with exact liberty sets, a ko point, a Zobrist hash and
//! capture counts, all maintained incrementally.
//!
//! How it is laid out:
//! - every stone knows its chain's *head* (a representative stone) and the next stone of its
//!   chain (the stones of a chain form a cycle through `next`);
//! - per chain, indexed by its head: the stone count, the liberty count and the liberty set as
//!   a bitset of `Geometry::bitset_words()` words. The set is exact, never a lower bound;
//! - the empty points are kept in a list with positions, so playouts can draw from them.
//!
//! The board knows only the simple ko point and does not enforce turn order, like KataGo's:
//! superko and history belong to [`Game`](crate::Game). It is a handful of flat vectors, so a
//! copy is a few `memcpy`s (`clone_from` reuses the buffers).
//!
//! This file holds the board and its moves; more `impl Board` blocks hold the rest:
//! `queries` (what a play would do, asked without playing), `eyes` (eye shapes and the
//! playout candidates), `diagram` (text in and out), `check` (the slow self-check for tests),
//! `undo` (a play taken back without a copy, for the readers); `table` is the unchecked storage.

mod check;
mod diagram;
mod eyes;
mod queries;
mod table;
pub(crate) mod undo;

use std::fmt;

use crate::color::{ByColor, Color};
use crate::go::board::table::Table;
use crate::go::geometry::Geometry;
use crate::go::point::{Move, Point};
use crate::go::zobrist;

/// Why a move is illegal. The board or game it was tried on is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IllegalMove {
    /// The point holds a stone.
    Occupied,
    /// The play leaves its own chain without liberties and suicide is forbidden.
    Suicide,
    /// The play retakes a ko at once (the board's ko point, or the simple ko rule).
    Ko,
    /// The play repeats an earlier position (or position and player) under superko.
    Superko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "point is occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko",
            IllegalMove::Superko => "superko",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// What a legal play did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PlayOutcome {
    /// Opponent stones removed.
    pub captured: u32,
    /// Own stones removed by a (permitted) suicide.
    pub suicided: u32,
}

/// A ko point and the colour that may not play there now.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Ko {
    pub point: Point,
    pub banned: Color,
}

/// A compact copy of a position (stones, captures, ko point): what a game's history keeps
/// to undo by, at a fraction of a board's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    stones: Box<[Option<Color>]>,
    captures: ByColor<u32>,
    ko: Option<Ko>,
}

/// A Go board. See the module documentation for the representation.
pub struct Board {
    geo: &'static Geometry,
    cells: Table<Option<Color>>,
    /// For a stone: its chain's head. Stale on empty points.
    head: Table<u16>,
    /// For a stone: the next stone of its chain, in a cycle. Stale on empty points.
    next: Table<u16>,
    /// Indexed by chain head: stone count and liberty count.
    chains: Table<ChainInfo>,
    /// Indexed by `head * words`: the chain's liberties, one bit per point.
    lib_bits: Table<u64>,
    empties: Vec<Point>,
    /// For an empty point: its position in `empties`. Stale on stones.
    empty_index: Table<u16>,
    ko: Option<Ko>,
    hash: u64,
    captures: ByColor<u32>,
}

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct ChainInfo {
    stones: u16,
    libs: u16,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            geo: self.geo,
            cells: self.cells.clone(),
            head: self.head.clone(),
            next: self.next.clone(),
            chains: self.chains.clone(),
            lib_bits: self.lib_bits.clone(),
            empties: self.empties.clone(),
            empty_index: self.empty_index.clone(),
            ko: self.ko,
            hash: self.hash,
            captures: self.captures,
        }
    }

    /// Reuses this board's buffers: search restores boards this way millions of times.
    fn clone_from(&mut self, source: &Board) {
        self.geo = source.geo;
        self.cells.clone_from(&source.cells);
        self.head.clone_from(&source.head);
        self.next.clone_from(&source.next);
        self.chains.clone_from(&source.chains);
        self.lib_bits.clone_from(&source.lib_bits);
        self.empties.clone_from(&source.empties);
        self.empty_index.clone_from(&source.empty_index);
        self.ko = source.ko;
        self.hash = source.hash;
        self.captures = source.captures;
    }
}

impl PartialEq for Board {
    /// Same geometry, stones, ko point and captures (chain bookkeeping follows from stones).
    fn eq(&self, other: &Board) -> bool {
        std::ptr::eq(self.geo, other.geo)
            && self.cells == other.cells
            && self.ko == other.ko
            && self.captures == other.captures
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} {:?}",
            self.size(),
            self.size(),
            self.geo.topology()
        )?;
        f.write_str(&self.diagram())
    }
}

impl Board {
    /// An empty board.
    pub fn new(geo: &'static Geometry) -> Board {
        let n = geo.num_points();
        Board {
            geo,
            cells: Table(vec![None; n]),
            head: Table(vec![0; n]),
            next: Table(vec![0; n]),
            chains: Table(vec![ChainInfo::default(); n]),
            lib_bits: Table(vec![0; n * geo.bitset_words()]),
            empties: geo.points().collect(),
            empty_index: Table((0..n as u16).collect()),
            ko: None,
            hash: 0,
            captures: ByColor::default(),
        }
    }

    /// A board holding the given stones (indexed by point), with no ko and no captures.
    ///
    /// # Errors
    /// Returns the first stone (by index) of a chain without liberties: such a position cannot
    /// arise in play and the board's invariants forbid it.
    pub fn from_stones(geo: &'static Geometry, stones: &[Option<Color>]) -> Result<Board, Point> {
        let mut board = Board::new(geo);
        for (i, &cell) in stones.iter().enumerate().take(geo.num_points()) {
            if let Some(c) = cell {
                board.put_stone(c, Point::from_index(i));
            }
        }
        match geo
            .points()
            .find(|&p| board.cells[p.index()].is_some() && board.liberty_count(p) == 0)
        {
            Some(p) => Err(p),
            None => Ok(board),
        }
    }

    /// The position in compact form, for [`Board::restore`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            stones: self.cells.0.clone().into_boxed_slice(),
            captures: self.captures,
            ko: self.ko,
        }
    }

    /// The board a snapshot of `geo` was taken from: the same stones, captures and ko point
    /// (the chain bookkeeping is rebuilt, so the order of `empties` may differ).
    pub fn restore(geo: &'static Geometry, snapshot: &Snapshot) -> Board {
        // A snapshot comes from a valid board, whose chains all have liberties.
        let mut board =
            Board::from_stones(geo, &snapshot.stones).expect("a snapshot holds a valid position");
        board.captures = snapshot.captures;
        board.ko = snapshot.ko;
        board
    }

    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.geo.size()
    }

    /// Bytes a copy of this board occupies: the struct plus its buffers (what `clone_from`
    /// copies).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        std::mem::size_of::<Board>()
            + size_of_val(self.cells.as_slice())
            + size_of_val(self.head.as_slice())
            + size_of_val(self.next.as_slice())
            + size_of_val(self.chains.as_slice())
            + size_of_val(self.lib_bits.as_slice())
            + size_of_val(self.empties.as_slice())
            + size_of_val(self.empty_index.as_slice())
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        // Checked indexing at the entry points keeps `Table`'s invariant.
        self.cells.0[p.index()]
    }

    /// The contents of every point, indexed by point.
    pub fn cells(&self) -> &[Option<Color>] {
        &self.cells
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empties(&self) -> &[Point] {
        &self.empties
    }

    /// Number of stones of colour `c` on the board.
    pub fn stone_count(&self, c: Color) -> usize {
        self.cells.iter().filter(|&&x| x == Some(c)).count()
    }

    /// The Zobrist hash of the stones (not of the ko point or the player to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured *by* `c` so far (including opponent suicides where they are allowed).
    #[inline]
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c]
    }

    /// Sets the capture counts (setup positions keep the game's prisoners).
    pub(crate) fn set_captures(&mut self, black: u32, white: u32) {
        self.captures = ByColor::new(black, white);
    }

    /// The current ko point, if the last play took a ko.
    #[inline]
    pub fn ko(&self) -> Option<Ko> {
        self.ko
    }

    /// The head (representative stone) of the chain on `p`. `p` must hold a stone.
    #[inline]
    pub fn chain_head(&self, p: Point) -> Point {
        debug_assert!(self.get(p).is_some());
        Point::from_index(self.head.0[p.index()] as usize)
    }

    /// Number of stones in the chain on `p`. `p` must hold a stone.
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        self.chains[self.head.0[p.index()] as usize].stones as usize
    }

    /// Exact number of liberties of the chain on `p`. `p` must hold a stone.
    #[inline]
    pub fn liberty_count(&self, p: Point) -> usize {
        self.chains[self.head.0[p.index()] as usize].libs as usize
    }

    /// `liberty_count` for points known to be on this board (from its own tables).
    #[inline]
    fn libs_at(&self, q: Point) -> u16 {
        self.chains[self.head[q.index()] as usize].libs
    }

    /// The stones of the chain on `p`, starting at `p`. `p` must hold a stone.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        ChainStones {
            next: &self.next,
            start: p,
            current: Some(p),
        }
    }

    /// The liberties of the chain on `p`, in point-index order. `p` must hold a stone.
    pub fn liberties(&self, p: Point) -> Liberties<'_> {
        let words = self.geo.bitset_words();
        let start = self.head.0[p.index()] as usize * words;
        Liberties {
            words: &self.lib_bits.0[start..start + words],
            word_index: 0,
            current: 0,
        }
        .primed()
    }

    /// Whether `q` is a liberty of the chain on `p`. `p` must hold a stone.
    #[inline]
    pub fn is_liberty_of(&self, q: Point, p: Point) -> bool {
        let words = self.geo.bitset_words();
        if q.index() >= self.geo.num_points() {
            return false;
        }
        let w = self.head.0[p.index()] as usize * words + q.index() / 64;
        self.lib_bits[w] & (1u64 << (q.index() % 64)) != 0
    }

    /// The lowest-index liberty of the chain on `p`, if it has one.
    #[inline]
    pub fn first_liberty(&self, p: Point) -> Option<Point> {
        self.liberties(p).next()
    }

    /// Board-level legality of `c` playing `m`: occupied point, the ko point, suicide.
    /// Superko is the game's business.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check(&self, c: Color, m: Move, suicide_allowed: bool) -> Result<(), IllegalMove> {
        let Move::Play(p) = m else { return Ok(()) };
        if self.get(p).is_some() {
            return Err(IllegalMove::Occupied);
        }
        if self.ko
            == Some(Ko {
                point: p,
                banned: c,
            })
        {
            return Err(IllegalMove::Ko);
        }
        if !suicide_allowed && self.is_suicide(c, p) {
            return Err(IllegalMove::Suicide);
        }
        Ok(())
    }

    /// Plays `m` for `c` after checking board-level legality (see [`Board::check`]).
    ///
    /// # Errors
    /// The reason the move is illegal; the board is then unchanged.
    pub fn play(
        &mut self,
        c: Color,
        m: Move,
        suicide_allowed: bool,
    ) -> Result<PlayOutcome, IllegalMove> {
        self.check(c, m, suicide_allowed)?;
        Ok(self.play_unchecked(c, m))
    }

    /// Plays `m` for `c` without checking the ko point or the suicide rule. A suicide is
    /// carried out (the chain is removed). The point of a play must be empty.
    pub fn play_unchecked(&mut self, c: Color, m: Move) -> PlayOutcome {
        match m {
            Move::Pass => {
                self.pass(c);
                PlayOutcome::default()
            }
            Move::Play(p) => {
                // The unchecked tables rely on this: a stone only ever goes on an empty
                // point of this board.
                assert!(self.get(p).is_none(), "play on an occupied point");
                self.play_stone(c, p)
            }
        }
    }

    /// A pass by `c`. It ends the ko ban only if `c` made the ko capture: the banned side's
    /// own pass does not change what it may retake.
    pub fn pass(&mut self, c: Color) {
        if self.ko.is_some_and(|ko| ko.banned != c) {
            self.ko = None;
        }
    }

    fn play_stone(&mut self, c: Color, p: Point) -> PlayOutcome {
        debug_assert!(self.cells[p.index()].is_none(), "play on an occupied point");
        self.ko = None;
        self.put_stone(c, p);
        let mut outcome = PlayOutcome::default();
        let mut last_captured = p;
        let opponent = Some(c.other());
        for &q in self.geo.neighbours(p) {
            // A chain already removed through another neighbour reads as empty here.
            if self.cells[q.index()] == opponent && self.libs_at(q) == 0 {
                outcome.captured += self.remove_chain(q) as u32;
                last_captured = q;
            }
        }
        self.captures[c] += outcome.captured;
        let own = self.head[p.index()] as usize;
        if self.chains[own].libs == 0 {
            outcome.suicided = self.remove_chain(p) as u32;
            self.captures[c.other()] += outcome.suicided;
        } else if outcome.captured == 1
            && self.chains[own].stones == 1
            && self.chains[own].libs == 1
        {
            self.ko = Some(Ko {
                point: last_captured,
                banned: c.other(),
            });
        }
        outcome
    }

    /// Places a stone, merges it with friendly neighbours and takes the point from opponent
    /// chains' liberties, without removing any chain.
    fn put_stone(&mut self, c: Color, p: Point) {
        let words = self.geo.bitset_words();
        let pi = p.index();
        self.take_empty(p);
        self.cells[pi] = Some(c);
        self.hash ^= zobrist::stone_key(p, c);
        self.head[pi] = pi as u16;
        self.next[pi] = pi as u16;
        // No clearing needed: only chain heads hold liberty bits (see `merge`).
        debug_assert!(
            self.lib_bits.0[pi * words..(pi + 1) * words]
                .iter()
                .all(|&w| w == 0)
        );
        self.chains[pi] = ChainInfo { stones: 1, libs: 0 };
        // One pass: the new stone's chain may change head as it merges, so each empty
        // neighbour is added to whatever chain the stone belongs to by then.
        for &q in self.geo.neighbours(p) {
            match self.cells[q.index()] {
                None => self.add_liberty(self.head[pi] as usize, q),
                Some(x) => {
                    let h = self.head[q.index()] as usize;
                    self.remove_liberty(h, p);
                    let mine = self.head[pi] as usize;
                    if x == c && h != mine {
                        self.merge(mine, h);
                    }
                }
            }
        }
    }

    #[inline]
    fn remove_liberty(&mut self, head: usize, p: Point) {
        let w = head * self.geo.bitset_words() + p.index() / 64;
        let bit = 1u64 << (p.index() % 64);
        if self.lib_bits[w] & bit != 0 {
            self.lib_bits[w] &= !bit;
            self.chains[head].libs -= 1;
        }
    }

    #[inline]
    fn add_liberty(&mut self, head: usize, p: Point) {
        let w = head * self.geo.bitset_words() + p.index() / 64;
        let bit = 1u64 << (p.index() % 64);
        if self.lib_bits[w] & bit == 0 {
            self.lib_bits[w] |= bit;
            self.chains[head].libs += 1;
        }
    }

    /// Merges two distinct chains, relabelling the smaller one.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chains[a].stones >= self.chains[b].stones {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        let words = self.geo.bitset_words();
        let mut libs = 0;
        for w in 0..words {
            let merged = self.lib_bits[big * words + w] | self.lib_bits[small * words + w];
            self.lib_bits[big * words + w] = merged;
            // Keeps the invariant that only heads hold bits, so a new stone starts clean.
            // (Captured chains have no liberties, hence no bits, already.)
            self.lib_bits[small * words + w] = 0;
            libs += merged.count_ones() as u16;
        }
        self.chains[big] = ChainInfo {
            stones: self.chains[big].stones + self.chains[small].stones,
            libs,
        };
    }

    /// Removes the chain on `p`, giving its points back as liberties to adjacent chains.
    /// Returns the number of stones removed.
    fn remove_chain(&mut self, p: Point) -> usize {
        let color = self.cells[p.index()];
        let removed = self.chains[self.head[p.index()] as usize].stones as usize;
        let mut s = p.index();
        loop {
            let sp = Point::from_index(s);
            if let Some(c) = color {
                self.hash ^= zobrist::stone_key(sp, c);
            }
            self.cells[s] = None;
            self.give_empty(sp);
            s = self.next[s] as usize;
            if s == p.index() {
                break;
            }
        }
        // A second pass, once every stone is gone, so that only surviving chains gain liberties.
        let mut s = p.index();
        loop {
            let sp = Point::from_index(s);
            for &q in self.geo.neighbours(sp) {
                if self.cells[q.index()].is_some() {
                    let h = self.head[q.index()] as usize;
                    self.add_liberty(h, sp);
                }
            }
            s = self.next[s] as usize;
            if s == p.index() {
                break;
            }
        }
        removed
    }

    #[inline]
    fn take_empty(&mut self, p: Point) {
        let i = self.empty_index[p.index()] as usize;
        let last = self
            .empties
            .pop()
            .expect("an empty point is listed in empties");
        if last != p {
            self.empties[i] = last;
            self.empty_index[last.index()] = i as u16;
        }
    }

    #[inline]
    fn give_empty(&mut self, p: Point) {
        self.empty_index[p.index()] = self.empties.len() as u16;
        self.empties.push(p);
    }
}

/// The stones of one chain. See [`Board::chain_stones`].
pub struct ChainStones<'a> {
    next: &'a [u16],
    start: Point,
    current: Option<Point>,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        let p = self.current?;
        let n = Point::from_index(self.next[p.index()] as usize);
        self.current = (n != self.start).then_some(n);
        Some(p)
    }
}

/// The liberties of one chain, in index order. See [`Board::liberties`].
pub struct Liberties<'a> {
    words: &'a [u64],
    word_index: usize,
    current: u64,
}

impl Liberties<'_> {
    fn primed(mut self) -> Self {
        self.current = self.words.first().copied().unwrap_or(0);
        self
    }
}

impl Iterator for Liberties<'_> {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.current == 0 {
            self.word_index += 1;
            self.current = *self.words.get(self.word_index)?;
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(Point::from_index(self.word_index * 64 + bit))
    }
}

#[cfg(test)]
mod tests;
