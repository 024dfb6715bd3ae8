//! Transposition tables: one slot per index of the key's low bits, for the midgame search
//! and for the exact solver (which keep separate tables: their scores mean different things).

/// No best move stored.
pub const NO_MOVE: u16 = u16::MAX;

/// A midgame entry: a score bound from a search of `depth` plies, and its best move.
#[derive(Clone, Copy, Default, Debug)]
pub struct MidEntry {
    pub key: u64,
    pub score: i32,
    pub best: u16,
    pub depth: u8,
    pub bound: Bound,
}

/// Which side of the true value a stored score is.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub enum Bound {
    #[default]
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// An exact-solver entry: bounds on the final disc difference, and the best move.
#[derive(Clone, Copy, Debug)]
pub struct EndEntry {
    pub key: u64,
    pub lower: i16,
    pub upper: i16,
    pub best: u16,
}

impl Default for EndEntry {
    fn default() -> EndEntry {
        EndEntry {
            key: 0,
            lower: i16::MIN,
            upper: i16::MAX,
            best: NO_MOVE,
        }
    }
}

/// A table of `2^bits` entries of `E`, indexed by the key's low bits; the full key is kept to
/// tell collisions apart.
///
/// Keys are stored salted with a number that changes at every [`Table::new_search`]: entries
/// of earlier searches then no longer match, so a search sees an empty table (equal calls
/// give equal answers) without the milliseconds a clear of 16 MB costs.
#[derive(Clone, Debug)]
pub struct Table<E> {
    entries: Vec<E>,
    mask: usize,
    salt: u64,
    searches: u64,
}

impl<E: Copy + Default> Table<E> {
    pub fn new(bits: u32) -> Table<E> {
        Table {
            entries: vec![E::default(); 1 << bits],
            mask: (1 << bits) - 1,
            salt: 0,
            searches: 0,
        }
    }

    /// Makes every stored entry stale.
    pub fn new_search(&mut self) {
        // splitmix64 of a counter: distinct, well-mixed salts.
        self.searches += 1;
        let mut z = self.searches.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.salt = z ^ (z >> 31);
    }

    /// The key as stored in this search (compare entries' keys with this).
    #[inline]
    pub fn tag(&self, key: u64) -> u64 {
        key ^ self.salt
    }

    #[inline]
    pub fn slot(&mut self, key: u64) -> &mut E {
        let i = key as usize & self.mask;
        // The mask keeps the index in range.
        &mut self.entries[i]
    }
}
