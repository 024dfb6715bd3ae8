//! What the referee's test files share: the binary, the fake engine's command line, a
//! fresh output directory.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

pub const BIN: &str = env!("CARGO_BIN_EXE_shicho-match");

/// The fake engine's command line with `args` (shell-quoted).
pub fn fake(args: &str) -> Vec<String> {
    let mut argv = vec![fake_engine()];
    argv.extend(shell_words::split(args).unwrap());
    argv
}

/// The same as one line, for the referee's `--black`, `--white` and `--judge`.
pub fn fake_line(args: &str) -> String {
    shell_words::join(fake(args))
}

/// The fake engine, `examples/fake-engine.rs`. It is an example rather than a binary so
/// that release builds leave it out; `cargo test` builds the crate's examples with its
/// tests, into `examples/` beside the referee's binary (cargo tells a test where binaries
/// are, `CARGO_BIN_EXE_*`, but not examples).
fn fake_engine() -> String {
    let path = Path::new(BIN)
        .with_file_name("examples")
        .join(format!("fake-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "no fake engine at {} (`cargo test` builds it; a test run alone needs \
         `cargo build -p shicho-match --example fake-engine` first)",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

/// A fresh output directory for one test (the process id keeps test binaries apart). It is
/// removed when the test's thread ends, pass or fail (the harness runs each test on a thread
/// of its own), so that runs of the suite leave nothing behind; `SHICHO_KEEP_TEST_DIRS=1`
/// keeps them for a look.
pub fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shicho-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if std::env::var_os("SHICHO_KEEP_TEST_DIRS").is_none() {
        MADE.with(|made| made.borrow_mut().push(Scratch(dir.clone())));
    }
    dir
}

thread_local! {
    static MADE: RefCell<Vec<Scratch>> = const { RefCell::new(Vec::new()) };
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
