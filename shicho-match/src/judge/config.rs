//! What `--judge` asks for: the engine and how long it looks at each position.

use std::time::Duration;

/// `--judge` and its limits.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeConfig {
    /// The engine's command line, split into words.
    pub argv: Vec<String>,
    /// Visits a position is searched for.
    pub visits: u64,
    /// The most a position may take; the last report by then counts.
    pub time: Duration,
}
