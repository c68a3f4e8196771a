//! What the binary's tests share: the harness command with no setting leaking in from the
//! environment, and a scratch directory per test.

#![allow(dead_code)] // each test binary uses its own part

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn harness() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_harness"));
    for var in harness::runner::settings::env_names() {
        cmd.env_remove(var);
    }
    cmd
}

/// A fresh empty directory under the system's temp dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mintbench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The repository root, where suites/ lives.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Runs the harness with `args` and checks it fails within seconds with one line on stderr,
/// `error: <expected>...`.
pub fn fails_with(args: &[&str], expected: &str) {
    let started = Instant::now();
    let out = harness().args(args).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        stderr.trim().lines().count() == 1 && stderr.starts_with(&format!("error: {expected}")),
        "{args:?}: {stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(15), "{args:?} took {:?}", started.elapsed());
}
