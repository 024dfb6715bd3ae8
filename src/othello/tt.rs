//! Transposition tables: one slot per index of the key's low bits for the midgame search,
//! and a lock-free table in buckets shared by the exact solver's threads (separate tables:
//! their scores mean different things).

use std::sync::atomic::{AtomicU64, Ordering};

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

/// What the exact solver knows of a position: bounds on its final disc difference (for the
/// side to move), the move that gave them, and how many squares were empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndEntry {
    pub lower: i32,
    pub upper: i32,
    pub best: u16,
    /// The empties of the position: bounds from a search to the end, which only the same
    /// position has, so this orders replacement rather than checks validity.
    pub empties: u32,
}

impl EndEntry {
    /// The stored bounds' answer for the window (alpha, beta) when they settle it, else the
    /// move to try first. A null window is (alpha, alpha + 1).
    pub fn settles(self, alpha: i32, beta: i32) -> Result<i32, u16> {
        if self.lower >= beta || self.lower == self.upper {
            Ok(self.lower)
        } else if self.upper <= alpha {
            Ok(self.upper)
        } else {
            Err(self.best)
        }
    }

    /// Packs into one word with the search's date: lower and upper as offsets from -1024,
    /// the move, the empties, the date.
    fn pack(self, date: u8) -> u64 {
        let lo = (self.lower + 1024).clamp(0, 2047) as u64;
        let hi = (self.upper + 1024).clamp(0, 2047) as u64;
        lo | hi << 11
            | (self.best as u64) << 22
            | (self.empties.min(1023) as u64) << 38
            | (date as u64) << 48
    }

    fn unpack(w: u64) -> EndEntry {
        EndEntry {
            lower: (w & 2047) as i32 - 1024,
            upper: (w >> 11 & 2047) as i32 - 1024,
            best: (w >> 22 & 0xffff) as u16,
            empties: (w >> 38 & 1023) as u32,
        }
    }
}

/// Entries per bucket: four of 16 bytes fill a 64-byte cache line.
const BUCKET: usize = 4;

/// The exact solver's table, shared by its threads without locks.
///
/// A slot is two words: the packed entry, and the position's check key xored with it. A
/// reader takes the entry only if the xor gives back the key it looks for, so an entry torn
/// by two writers racing reads as absent, never as another position's (the "lockless
/// hashing" of chess programs). The check key is salted per search, as in [`Table`], so
/// that earlier searches' entries read as absent.
pub struct EndTable {
    slots: Box<[[AtomicU64; 2]]>,
    /// Bucket index mask (the slot index is the bucket times [`BUCKET`]).
    mask: usize,
    salt: u64,
    searches: u64,
}

impl EndTable {
    /// A table of `2^bits` entries (16 bytes each), at least one bucket.
    pub fn new(bits: u32) -> EndTable {
        let n = (1usize << bits).max(BUCKET);
        // Zeroed memory, which the allocator maps lazily: a large table costs nothing until
        // used. A zero slot reads as absent (its check key would be the salt, never 0).
        // SAFETY: an all-zero AtomicU64 is a valid AtomicU64 (0).
        let slots = unsafe { Box::new_zeroed_slice(n).assume_init() };
        let mut table = EndTable {
            slots,
            mask: n / BUCKET - 1,
            salt: 0,
            searches: 0,
        };
        table.new_search();
        table
    }

    /// Makes every stored entry stale.
    pub(crate) fn new_search(&mut self) {
        self.searches += 1;
        self.salt = splitmix(self.searches);
    }

    /// The search's date as stored: 1..=255 (an empty slot has 0).
    #[inline]
    fn date(&self) -> u8 {
        (self.searches % 255) as u8 + 1
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET
    }

    /// The entry of the position with hash `key` and check key `check`, if stored.
    #[inline]
    pub(crate) fn probe(&self, key: u64, check: u64) -> Option<EndEntry> {
        let check = check ^ self.salt;
        let b = self.bucket(key);
        for slot in &self.slots[b..b + BUCKET] {
            let data = slot[0].load(Ordering::Relaxed);
            if slot[1].load(Ordering::Relaxed) ^ data == check {
                return Some(EndEntry::unpack(data));
            }
        }
        None
    }

    /// Stores `entry` for the position: over its own slot if there is one, else over the
    /// bucket's entry with the fewest empties (the cheapest to find again).
    #[inline]
    pub(crate) fn store(&self, key: u64, check: u64, entry: EndEntry) {
        let check = check ^ self.salt;
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + BUCKET];
        let mut victim = 0;
        let mut victim_empties = u32::MAX;
        for (k, slot) in bucket.iter().enumerate() {
            let data = slot[0].load(Ordering::Relaxed);
            let stored = slot[1].load(Ordering::Relaxed) ^ data;
            if stored == check {
                victim = k;
                break;
            }
            // Entries of earlier searches (and empty slots) go first.
            let empties = if (data >> 48) as u8 == self.date() {
                EndEntry::unpack(data).empties + 1
            } else {
                0
            };
            if empties < victim_empties {
                victim = k;
                victim_empties = empties;
            }
        }
        let data = entry.pack(self.date());
        bucket[victim][0].store(data, Ordering::Relaxed);
        bucket[victim][1].store(check ^ data, Ordering::Relaxed);
    }
}

fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
