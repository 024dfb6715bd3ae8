//! What the referee's test files share: the binary, the fake engine's command line, a
//! fresh output directory.

use std::path::PathBuf;

pub const BIN: &str = env!("CARGO_BIN_EXE_shicho-match");

/// The fake engine's command line with `args` (shell-quoted).
pub fn fake(args: &str) -> Vec<String> {
    let mut argv = vec![BIN.to_string(), "fake-engine".to_string()];
    argv.extend(shell_words::split(args).unwrap());
    argv
}

/// A fresh output directory for one test (the process id keeps test binaries apart).
pub fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shicho-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
