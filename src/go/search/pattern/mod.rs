//! The learnt move model: what a player sees of a move at a glance, and how much each thing
//! seen is worth. The tree's priors (`search::priors`) weigh a new child by it, as Pachi's
//! `pattern/` weighs its new nodes; a network would be a second such model beside it.
//!
//! | file | what it holds |
//! |---|---|
//! | `features` | a move's discrete features: its 3x3 shape, captures, escapes, ataris, self-ataris, distances, line, larger shape, owner |
//! | `spatial` | the larger shapes around a move (out to distance 8), hashed over the eight symmetries |
//! | `gammas` | the learnt weight of each feature, compiled in from `data/gammas-9x9.txt` and `data/gammas-19x19.txt` (`train/src/priors.rs` learns them) |
//! | `mogo` | MoGo's hand-made 3x3 patterns, for the playouts' pattern rule and a prior bonus |

pub mod features;
pub mod gammas;
pub(crate) mod mogo;
pub mod spatial;
