//! The instrumented runs under strace: sized from the workload and reported as they go.

mod common;

use std::path::PathBuf;

use common::{harness, scratch};

/// `harness run ARGS` into a scratch folder of its own: its stderr and that folder, after
/// checking it succeeded; none where strace is missing (nothing to count with).
fn counted_run(name: &str, args: &[&str]) -> Option<(String, PathBuf)> {
    if !harness::runner::syscalls::strace_available() {
        eprintln!("SKIPPED: strace is not installed");
        return None;
    }
    let dir = scratch(name);
    let out = harness().arg("run").args(args).env("RESULTS_DIR", &dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    Some((stderr, dir))
}

#[test]
fn counting_runs_are_sized_from_the_workload_and_shown_without_a_terminal() {
    let Some((stderr, dir)) = counted_run("counts", &["--repeat", "1", "--messages", "20000", "--msg-id", "uuid", "--name", "c", "--format", "json"]) else { return };
    // Three arms (the control's two and uuid), a warm-up and a timed run each, then uuid's two.
    let line = stderr.lines().find(|l| l.starts_with("runs 7-8/8 rust uuid under strace (6000 and 11000 messages): ")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains(" syscalls/msg, ") && line.ends_with(" getrandom/1000 IDs"), "{line}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_paired_run_counts_its_arms_but_not_their_twin_and_ends_complete() {
    let args = ["--repeat", "1", "--messages", "20000", "--msg-id", "uuid,fast", "--paired", "1", "--name", "p", "--format", "md"];
    let Some((stderr, dir)) = counted_run("counts-paired", &args) else { return };
    // The control's two arms and the paired process, a warm-up and a timed run each (6), then
    // two runs under strace for uuid and for fast, none for uuid's A/A twin.
    assert!(stderr.contains("runs 9-10/10 rust fast under strace"), "{stderr}");
    assert!(!stderr.contains("twin) under strace"), "{stderr}");
    let md = std::fs::read_to_string(dir.join("p.md")).unwrap();
    assert!(md.contains("Complete: 10 of 10 runs."), "{md}");
    std::fs::remove_dir_all(dir).unwrap();
}
