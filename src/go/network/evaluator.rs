//! The network as a search sees it: an [`Evaluator`] holds the weights and a cache of the
//! positions evaluated lately, and is shared by every search thread and by every search that
//! uses the same net (a move's, the next move's, an analysis's), as KataGo's `NNEvaluator`
//! is.
//!
//! The cache is keyed by the network's inputs themselves (a hash of the encoded planes and
//! globals, with the board's size and topology), so whatever the inputs depend on (the
//! stones, the side to move, the last moves, the ko point, the komi, the ladder features)
//! is in the key, and nothing outside it can change the answer. Where it pays: an analysis
//! asked again about positions it has seen (a reviewer going back and forth through a game,
//! KaTrain's queries), the positions an analysis report evaluates ahead of its search (the
//! search asks for them again), and a search that starts afresh where the last one was (a
//! tree that cannot be kept: other rules, avoided moves). Within one search few positions
//! come twice: the inputs hold the last five moves, so a transposition hits only when it
//! differs further back.
//!
//! The cache takes [`CACHE_MIB`] whatever the board: it holds more 9x9 evaluations than
//! 19x19 ones. Each slot holds the latest evaluation whose key falls in it; the slots are
//! split among a few locks so that search threads rarely wait for each other.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::go::geometry::{Geometry, Topology};
use crate::go::network::inputs::Inputs;
use crate::go::network::model::{Evaluation, Workspace};
use crate::go::network::weights::Weights;

/// The memory the cache may hold (`search::memory` counts it).
pub const CACHE_MIB: usize = 32;

/// Locks the slots are split among: more than search threads ever wait on at once.
const SHARDS: usize = 16;

/// The weights and the cache of their recent answers.
pub struct Evaluator {
    weights: Weights,
    shards: Box<[Mutex<Shard>]>,
    lookups: AtomicU64,
    hits: AtomicU64,
}

/// One lock's slots, for one board shape (a new shape empties them).
#[derive(Default)]
struct Shard {
    shape: Option<(usize, Topology)>,
    slots: Vec<Option<(u64, Evaluation)>>,
}

/// How often the cache answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub lookups: u64,
    pub hits: u64,
}

impl Evaluator {
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator {
            weights,
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The net's answer for `inputs`, a position on `geo`: the cache's when it has the
    /// same inputs, else computed (on `ws`) and kept. `None` where the net gives none.
    pub fn evaluate(
        &self,
        geo: &Geometry,
        inputs: &Inputs,
        ws: &mut Workspace,
    ) -> Option<Evaluation> {
        let shape = (geo.size(), geo.topology());
        let key = key(shape, inputs);
        let shard = &self.shards[(key % SHARDS as u64) as usize];
        let slot = ((key / SHARDS as u64) % slots_per_shard(geo.num_points()) as u64) as usize;
        self.lookups.fetch_add(1, Ordering::Relaxed);
        if let Some(found) = lock(shard).get(shape, slot, key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some(found);
        }
        let e = self.weights.evaluate(geo, &[inputs], ws).pop()?;
        lock(shard).put(shape, geo.num_points(), slot, key, &e);
        Some(e)
    }

    /// Forgets every evaluation kept (KataGo's `clear_cache`).
    pub fn clear_cache(&self) {
        for shard in &self.shards {
            *lock(shard) = Shard::default();
        }
    }

    pub fn cache_stats(&self) -> CacheStats {
        CacheStats {
            lookups: self.lookups.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
        }
    }
}

/// A shard's lock, taken even from a thread that panicked holding it: a slot is only ever
/// replaced whole, so what it guards is never half written.
fn lock(shard: &Mutex<Shard>) -> std::sync::MutexGuard<'_, Shard> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shard {
    fn get(&self, shape: (usize, Topology), slot: usize, key: u64) -> Option<Evaluation> {
        if self.shape != Some(shape) {
            return None;
        }
        match self.slots.get(slot)? {
            Some((k, e)) if *k == key => Some(e.clone()),
            _ => None,
        }
    }

    fn put(
        &mut self,
        shape: (usize, Topology),
        points: usize,
        slot: usize,
        key: u64,
        e: &Evaluation,
    ) {
        if self.shape != Some(shape) {
            self.shape = Some(shape);
            self.slots.clear();
            self.slots.resize(slots_per_shard(points), None);
        }
        self.slots[slot] = Some((key, e.clone()));
    }
}

/// The bytes one kept evaluation of a board of `points` points holds: its policy (and
/// pass) and ownership, and the slot's own.
fn entry_bytes(points: usize) -> usize {
    (2 * points + 1) * size_of::<f32>() + size_of::<Option<(u64, Evaluation)>>() + 2 * 16 // the allocator's headers of the two vectors
}

fn slots_per_shard(points: usize) -> usize {
    (CACHE_MIB << 20) / entry_bytes(points) / SHARDS
}

/// A hash of the inputs and the board's shape: 64 bits, so that two different positions
/// share a key about once in 10^19 pairs. Each 8 bytes of the planes go through SplitMix64's
/// finalizer with the hash so far (a bijection that spreads every input bit over the
/// word): cheaper than SipHash, which the cache, answering under 1% of a game's
/// evaluations, has no need of.
fn key(shape: (usize, Topology), inputs: &Inputs) -> u64 {
    let topology = match shape.1 {
        Topology::Plane => 0,
        Topology::Torus => 1,
    };
    let mut h = mix((shape.0 as u64) << 1 | topology);
    let mut words = inputs.planes.chunks_exact(8);
    for word in &mut words {
        h = mix(h ^ u64::from_le_bytes(word.try_into().expect("8 bytes")));
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = mix(h ^ u64::from_le_bytes(tail) ^ (inputs.planes.len() as u64) << 56);
    for g in inputs.globals {
        h = mix(h ^ g.to_bits() as u64);
    }
    h
}

/// SplitMix64's finalizer.
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::go::board::Board;
    use crate::go::network::inputs::{HISTORY, Position};

    fn inputs(board: &Board, to_move: Color, komi: f32) -> Inputs {
        let mut inputs = Inputs::default();
        inputs.encode(&Position {
            board,
            to_move,
            history: [None; HISTORY],
            last_was_pass: false,
            komi,
        });
        inputs
    }

    #[test]
    fn a_position_asked_again_is_answered_from_the_cache_with_the_same_numbers() {
        let evaluator = Evaluator::new(Weights::builtin().clone());
        let board = Board::square_from_diagram(
            ". . . . .
             . X O . .
             . . X . .
             . . . . .
             . . . . .",
        );
        let geo = board.geometry();
        let mut ws = Workspace::default();
        let first = evaluator.evaluate(geo, &inputs(&board, Color::White, 7.5), &mut ws);
        assert_eq!(
            evaluator.cache_stats(),
            CacheStats {
                lookups: 1,
                hits: 0
            }
        );
        let again = evaluator.evaluate(geo, &inputs(&board, Color::White, 7.5), &mut ws);
        assert_eq!(
            evaluator.cache_stats(),
            CacheStats {
                lookups: 2,
                hits: 1
            }
        );
        assert!(first.is_some());
        assert_eq!(first, again);
        // What the inputs depend on is in the key: the side to move, the komi.
        let black = evaluator.evaluate(geo, &inputs(&board, Color::Black, 7.5), &mut ws);
        let komi = evaluator.evaluate(geo, &inputs(&board, Color::White, 6.5), &mut ws);
        assert_eq!(evaluator.cache_stats().hits, 1);
        assert_ne!(black, first);
        assert_ne!(komi, first);
        // Computed afresh, the same numbers the cache gave.
        let fresh =
            Weights::builtin().evaluate(geo, &[&inputs(&board, Color::White, 7.5)], &mut ws);
        assert_eq!(fresh.into_iter().next(), again);
        evaluator.clear_cache();
        evaluator.evaluate(geo, &inputs(&board, Color::White, 7.5), &mut ws);
        assert_eq!(
            evaluator.cache_stats().hits,
            1,
            "nothing kept after clear_cache"
        );
    }

    #[test]
    fn a_torus_is_not_taken_for_the_plane() {
        // The same planes mean other neighbours on a torus: the shape is in the key.
        let board = Board::square_from_diagram(
            "X . .
             . . .
             . . O",
        );
        let same = inputs(&board, Color::Black, 7.5);
        assert_ne!(
            key((3, Topology::Plane), &same),
            key((3, Topology::Torus), &same)
        );
        assert_ne!(
            key((3, Topology::Plane), &same),
            key((4, Topology::Plane), &same)
        );
    }

    #[test]
    fn one_point_of_one_plane_changes_the_key() {
        let board = Board::square_from_diagram(
            ". . .
             . X .
             . . .",
        );
        let base = inputs(&board, Color::Black, 7.5);
        let shape = (3, Topology::Plane);
        let mut keys = std::collections::HashSet::new();
        keys.insert(key(shape, &base));
        for i in 0..base.planes.len() {
            let mut changed = base.clone();
            changed.planes[i] ^= 1;
            assert!(keys.insert(key(shape, &changed)), "byte {i}");
        }
    }

    #[test]
    fn the_cache_fits_its_memory_on_every_board() {
        for size in [2, 9, 19, 25] {
            let slots = slots_per_shard(size * size) * SHARDS;
            assert!(slots * entry_bytes(size * size) <= CACHE_MIB << 20);
            assert!(slots >= 4096, "{size}x{size}: {slots} slots");
        }
    }
}
