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
#[derive(Clone, Debug)]
pub struct Table<E> {
    entries: Vec<E>,
    mask: usize,
}

impl<E: Copy + Default> Table<E> {
    pub fn new(bits: u32) -> Table<E> {
        Table {
            entries: vec![E::default(); 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    #[inline]
    pub fn slot(&mut self, key: u64) -> &mut E {
        let i = key as usize & self.mask;
        // The mask keeps the index in range.
        &mut self.entries[i]
    }

    /// Forgets everything (a search starts from an empty table, so equal calls give equal
    /// answers).
    pub fn clear(&mut self) {
        self.entries.fill(E::default());
    }
}
