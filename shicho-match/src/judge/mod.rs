//! The judge: a strong engine's verdict on every move of every game (`--judge CMD`, or
//! `shicho-match judge DIR` afterwards).
//!
//! - `config`: `--judge` and its limits.
//! - `info`: one report of `kata-analyze`/`lz-analyze` read.
//! - `evaluate`: the judge engine told a game and asked about each of its positions, its
//!   win rates turned into Black's.
//! - `annotate`: the win rates written into the SGF record where Sabaki (`SBKV`) and Lizzie
//!   (`LZ`) read them.
//! - `report`: `judge.csv` (one row per move: the win rates before and after, the loss)
//!   and the summary: mean loss and blunders per engine by phase, and how well the loss
//!   predicts the results.
//! - `pass`: one game judged from its record, or a whole directory.

pub(crate) mod annotate;
pub(crate) mod config;
pub(crate) mod evaluate;
pub(crate) mod info;
pub(crate) mod pass;
pub(crate) mod report;
