//! How much memory Go's search may hold (`--max-memory`, `kata-set-param maxMemory`), and
//! the tree arena that fits in it.
//!
//! What the engine holds, as measured on an x86-64 release build:
//! - a tree node is [`Tree::NODE_BYTES`] (64: thirteen 4-byte counters and an 8-byte win
//!   sum, aligned to 8), and an arena's memory is touched only as its nodes are used;
//! - two arenas may be alive at once: the tree kept from the last move beside the fresh one
//!   its subtree is copied into (`Tree::subtree`), or beside the fresh tree of an analysis
//!   or of `reg_genmove`; so a limit gives each arena half of what the rest leaves;
//! - the rest ([`reserve_mib`]): the binary with its built-in network and learnt patterns
//!   (8 MiB resident at start), the network's cache of evaluated positions
//!   ([`CACHE_MIB`], filled as the network is used), Othello's searcher tables (32 MiB, made
//!   when Othello is first played, then kept), and for each search thread and the thread that reports an
//!   analysis: the network's workspace (its 3x3 gather of 48 channels, 1.1 MiB on 25x25),
//!   an analysis's tally (1.6 MiB on 25x25 with ownership), the thread's board, playout
//!   buffers and stack.
//!
//! Not counted: the exact solver's table of `shicho-solve`, an Othello command (128 MiB
//! while it is kept), which no Go search touches.
//!
//! Without a limit the arena is [`DEFAULT_TREE_NODES`], the tree shicho always had: with
//! one thread the engine then holds at most [`default_mib`] (1112 MiB), a quarter of a 4 GB
//! laptop, the rest left to the system and a GUI. The worst case is rare (two full arenas:
//! a long search kept beside a long analysis); a 20,000-simulation genmove on 19x19 uses
//! about a third of one.

use std::fmt;

use crate::go::network::evaluator::CACHE_MIB;
use crate::go::search::tree::Tree;

/// Nodes of the arena without a limit (8 Mi: 512 MiB).
pub const DEFAULT_TREE_NODES: usize = 8 << 20;

/// The smallest arena a limit may leave: room for every move of the root on the largest
/// board (25x25 and pass) and a few expansions below it. A tree that cannot hold its
/// root's moves would search nothing.
pub const MIN_TREE_NODES: usize = 1024;

/// Arenas alive at once (see the module's comment).
const ARENAS: usize = 2;

const MIB: usize = 1 << 20;

/// The binary, its built-in network and learnt patterns (8 MiB resident at start), rounded
/// up for the allocator's slack.
const ENGINE_MIB: usize = 16;
/// Othello's searcher tables, kept once Othello has been played.
const OTHELLO_MIB: usize = 32;
/// A search thread's network workspace, analysis tally slot, board, buffers and stack on
/// the largest board.
const THREAD_MIB: usize = 4;

/// What the engine holds besides its trees, with `threads` search threads (and the one that
/// reports an analysis).
pub fn reserve_mib(threads: usize) -> usize {
    ENGINE_MIB + CACHE_MIB + OTHELLO_MIB + (threads + 1) * THREAD_MIB
}

/// The most memory the engine holds without a limit: two arenas of
/// [`DEFAULT_TREE_NODES`] and the reserve for `threads`.
pub fn default_mib(threads: usize) -> usize {
    reserve_mib(threads) + (ARENAS * DEFAULT_TREE_NODES * Tree::NODE_BYTES).div_ceil(MIB)
}

/// The least a limit may be with `threads` search threads.
pub fn min_mib(threads: usize) -> usize {
    reserve_mib(threads) + (ARENAS * MIN_TREE_NODES * Tree::NODE_BYTES).div_ceil(MIB)
}

/// A limit too small for the tree's smallest arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLittleMemory {
    pub mib: usize,
    pub threads: usize,
}

impl fmt::Display for TooLittleMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let threads = self.threads;
        write!(
            f,
            "{} MiB is too little: with {threads} search thread{} the engine needs {} MiB \
             besides its trees, and at least {} MiB in all",
            self.mib,
            if threads == 1 { "" } else { "s" },
            reserve_mib(threads),
            min_mib(threads)
        )
    }
}

impl std::error::Error for TooLittleMemory {}

/// The nodes of a tree arena under a limit of `mib` MiB (`None`: no limit) with `threads`
/// search threads. Node numbers are 32-bit: an arena holds at most `u32::MAX` nodes.
///
/// # Errors
/// The limit leaves less than [`MIN_TREE_NODES`] an arena.
pub fn tree_nodes(mib: Option<usize>, threads: usize) -> Result<usize, TooLittleMemory> {
    let Some(mib) = mib else {
        return Ok(DEFAULT_TREE_NODES);
    };
    let trees = mib.saturating_sub(reserve_mib(threads)).saturating_mul(MIB);
    let nodes = trees / (ARENAS * Tree::NODE_BYTES);
    if nodes < MIN_TREE_NODES {
        return Err(TooLittleMemory { mib, threads });
    }
    Ok(nodes.min(u32::MAX as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_limit_the_tree_is_the_one_shicho_always_had() {
        assert_eq!(Tree::NODE_BYTES, 64);
        assert_eq!(tree_nodes(None, 1), Ok(8 << 20));
        assert_eq!(default_mib(1), 1112);
        // The default's figure as a limit gives the same arena.
        assert_eq!(tree_nodes(Some(default_mib(1)), 1), Ok(DEFAULT_TREE_NODES));
        assert_eq!(tree_nodes(Some(default_mib(8)), 8), Ok(DEFAULT_TREE_NODES));
    }

    #[test]
    fn a_limit_sizes_the_arena_and_refuses_too_little() {
        let least = min_mib(1);
        assert_eq!(least, 89);
        assert_eq!(tree_nodes(Some(least), 1), Ok(8192));
        assert_eq!(
            tree_nodes(Some(least - 1), 1),
            Err(TooLittleMemory {
                mib: least - 1,
                threads: 1
            })
        );
        // More threads leave less for the tree.
        assert!(tree_nodes(Some(least), 4).is_err());
        assert_eq!(tree_nodes(Some(0), 1).unwrap_err().mib, 0);
        // Past 32-bit node numbers the arena stops growing.
        assert_eq!(tree_nodes(Some(usize::MAX / MIB), 1), Ok(u32::MAX as usize));
        let text = TooLittleMemory {
            mib: 40,
            threads: 1,
        }
        .to_string();
        assert_eq!(
            text,
            "40 MiB is too little: with 1 search thread the engine needs 88 MiB besides its \
             trees, and at least 89 MiB in all"
        );
    }
}
