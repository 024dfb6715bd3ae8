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
/// side to move), the move that gave them, how many squares were empty, and how sure the
/// bounds are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndEntry {
    pub lower: i32,
    pub upper: i32,
    pub best: u16,
    /// The empties of the position: bounds from a search to the end, which only the same
    /// position has, so this orders replacement rather than checks validity.
    pub empties: u32,
    /// How sure the bounds are: [`EXACT`] from a search to the end, else the probcut
    /// confidence of the selective search that found them (see `endgame`).
    pub confidence: u8,
}

/// The confidence of bounds that are facts.
pub(crate) const EXACT: u8 = u8::MAX;

impl EndEntry {
    /// The stored bounds' answer for the window (alpha, beta) when they settle it, else the
    /// move to try first. A null window is (alpha, alpha + 1).
    /// Bounds less sure than `confidence` asks settle nothing.
    pub fn settles(self, confidence: u8, alpha: i32, beta: i32) -> Result<i32, u16> {
        if self.confidence < confidence {
            Err(self.best)
        } else if self.lower >= beta || self.lower == self.upper {
            Ok(self.lower)
        } else if self.upper <= alpha {
            Ok(self.upper)
        } else {
            Err(self.best)
        }
    }

    /// Packs into one word with the search's date: lower and upper as offsets from -1024,
    /// the move, the empties, the date, the confidence.
    fn pack(self, date: u8) -> u64 {
        let lo = (self.lower + 1024).clamp(0, 2047) as u64;
        let hi = (self.upper + 1024).clamp(0, 2047) as u64;
        lo | hi << 11
            | (self.best as u64) << 22
            | (self.empties.min(1023) as u64) << 38
            | (date as u64) << 48
            | (self.confidence as u64) << 56
    }

    fn unpack(w: u64) -> EndEntry {
        EndEntry {
            lower: (w & 2047) as i32 - 1024,
            upper: (w >> 11 & 2047) as i32 - 1024,
            best: (w >> 22 & 0xffff) as u16,
            empties: (w >> 38 & 1023) as u32,
            confidence: (w >> 56) as u8,
        }
    }
}

/// Entries per bucket: four of 16 bytes fill a 64-byte cache line.
const BUCKET: usize = 4;

/// One bucket, aligned to its cache line: a probe reads one line, not two (the allocator's
/// 16-byte alignment made every bucket straddle two).
#[repr(C, align(64))]
struct Bucket([[AtomicU64; 2]; BUCKET]);

/// The exact solver's table, shared by its threads without locks.
///
/// A slot is two words: the packed entry, and the position's check key xored with it. A
/// reader takes the entry only if the xor gives back the key it looks for, so an entry torn
/// by two writers racing reads as absent, never as another position's (the "lockless
/// hashing" of chess programs). The check key is salted per search, as in [`Table`], so
/// that earlier searches' entries read as absent.
pub struct EndTable {
    buckets: Buckets,
    /// Bucket index mask.
    mask: usize,
    salt: u64,
    searches: u64,
}

impl EndTable {
    /// A table of `2^bits` entries (16 bytes each), at least one bucket.
    pub fn new(bits: u32) -> EndTable {
        let n = EndTable::new_entries(bits) / BUCKET;
        let mut table = EndTable {
            buckets: Buckets::zeroed(n),
            mask: n - 1,
            salt: 0,
            searches: 0,
        };
        table.new_search();
        table
    }

    /// How many entries `EndTable::new(bits)` holds.
    pub(crate) fn new_entries(bits: u32) -> usize {
        (1usize << bits).max(BUCKET)
    }

    /// How many entries it holds.
    pub(crate) fn entries(&self) -> usize {
        (self.mask + 1) * BUCKET
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
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]; BUCKET] {
        &self.buckets.as_slice()[key as usize & self.mask].0
    }

    /// The entry of the position with hash `key` and check key `check`, if stored.
    /// Asks the processor to bring `key`'s bucket into the cache: the table is far larger
    /// than the caches, so a probe nearly always waits on memory, and a parent that knows
    /// its children's keys lets those waits overlap (a hint: never faults, never needed).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const [[AtomicU64; 2]; BUCKET] = self.bucket(key);
            // SAFETY: a prefetch only hints the cache; it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64, check: u64) -> Option<EndEntry> {
        let check = check ^ self.salt;
        for slot in self.bucket(key) {
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
        let bucket = self.bucket(key);
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

/// The table's memory: zeroed buckets, mapped lazily (a large table costs nothing until
/// used) and, on Linux, in huge pages where the kernel has them: the solver's probes land
/// anywhere in a table of 128 MiB, which is 32,768 pages of 4 KiB, far more than the TLB
/// holds, and 64 huge ones (what they save: doc/othello.md#measurements).
/// A zero slot reads as absent (its check key would be the salt, never 0).
struct Buckets {
    start: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: the buckets are atomics, shared between threads by design.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    #[cfg(unix)]
    fn zeroed(len: usize) -> Buckets {
        let bytes = len * std::mem::size_of::<Bucket>();
        // SAFETY: an anonymous private mapping of `bytes` (page aligned, so cache-line
        // aligned), zero-filled by the kernel; an all-zero AtomicU64 is a valid 0.
        let start = unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                std::alloc::handle_alloc_error(Self::layout(len));
            }
            // Advice only: without huge pages the table works as well, a little slower.
            #[cfg(target_os = "linux")]
            libc::madvise(p, bytes, libc::MADV_HUGEPAGE);
            p.cast::<Bucket>()
        };
        Buckets {
            start: std::ptr::NonNull::new(start).expect("mmap gave a null mapping"),
            len,
        }
    }

    #[cfg(not(unix))]
    fn zeroed(len: usize) -> Buckets {
        let layout = Self::layout(len);
        // SAFETY: the layout is not zero-sized (len >= 1); all-zero atomics are valid.
        let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
        Buckets {
            start: std::ptr::NonNull::new(p)
                .unwrap_or_else(|| std::alloc::handle_alloc_error(layout)),
            len,
        }
    }

    fn layout(len: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Bucket>(len).expect("table size overflows")
    }

    #[inline]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `len` initialised buckets from `start`, alive as long as `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: the mapping or allocation made in `zeroed`, with its size, freed once.
        unsafe {
            #[cfg(unix)]
            libc::munmap(
                self.start.as_ptr().cast(),
                self.len * std::mem::size_of::<Bucket>(),
            );
            #[cfg(not(unix))]
            std::alloc::dealloc(self.start.as_ptr().cast(), Self::layout(self.len));
        }
    }
}

fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selective_bounds_settle_only_searches_as_selective() {
        let entry = EndEntry {
            lower: 10,
            upper: 10,
            best: 3,
            empties: 20,
            confidence: 15,
        };
        assert_eq!(EndEntry::unpack(entry.pack(7)), entry);
        assert_eq!(entry.settles(11, -2, 2), Ok(10));
        assert_eq!(entry.settles(15, -2, 2), Ok(10));
        assert_eq!(entry.settles(20, -2, 2), Err(3));
        assert_eq!(entry.settles(EXACT, -2, 2), Err(3));
        let exact = EndEntry {
            confidence: EXACT,
            ..entry
        };
        assert_eq!(EndEntry::unpack(exact.pack(255)), exact);
        assert_eq!(exact.settles(EXACT, -2, 2), Ok(10));
        assert_eq!(exact.settles(11, -2, 2), Ok(10));
    }
}
