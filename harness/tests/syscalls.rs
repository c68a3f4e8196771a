//! The instrumented runs under strace: sized from the workload and reported as they go.

mod common;

use std::path::PathBuf;

use common::{harness, scratch};

/// `harness run ARGS` into a scratch folder of its own: its stderr and that folder, after
/// checking it succeeded. strace must be installed: scripts/setup.sh installs it.
fn counted_run(name: &str, args: &[&str]) -> (String, PathBuf) {
    assert!(
        harness::runner::syscalls::strace_available(),
        "strace is missing: run scripts/setup.sh (it installs Debian's strace)"
    );
    let dir = scratch(name);
    // STOLEN=count: no launch runs again whatever the host's steal, so the runs' numbers are exact.
    let out = harness().arg("run").args(args).env("RESULTS_DIR", &dir).env("STOLEN", "count").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (stderr, dir)
}

#[test]
fn counting_runs_are_sized_from_the_workload_and_shown_without_a_terminal() {
    let (stderr, dir) = counted_run(
        "counts",
        &["--repeat", "1", "--messages", "20000", "--msg-id", "uuid", "--name", "c", "--format", "json"],
    );
    // Three arms (the control's two and uuid), a warm-up and a timed run each, then uuid's two.
    let line = stderr
        .lines()
        .find(|l| l.starts_with("runs 7-8/8 rust uuid under strace (6000 and 11000 messages): "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains(" syscalls/msg, ") && line.ends_with(" getrandom/1000 IDs"), "{line}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_paired_run_counts_its_arms_but_not_their_twin_and_ends_complete() {
    let args = [
        "--repeat",
        "1",
        "--messages",
        "20000",
        "--msg-id",
        "uuid,fast",
        "--paired",
        "1",
        "--name",
        "p",
        "--format",
        "md",
    ];
    let (stderr, dir) = counted_run("counts-paired", &args);
    // The control's two arms and the paired process, a warm-up and a timed run each (6), then
    // two runs under strace for uuid and for fast, none for uuid's A/A twin.
    assert!(stderr.contains("runs 9-10/10 rust fast under strace"), "{stderr}");
    assert!(!stderr.contains("twin) under strace"), "{stderr}");
    let md = std::fs::read_to_string(dir.join("p.md")).unwrap();
    assert!(md.contains("Complete: 10 of 10 runs."), "{md}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn counts_per_message_come_from_strace() {
    let (_, dir) = counted_run(
        "counts-per-message",
        &[
            "--repeat",
            "1",
            "--messages",
            "20000",
            "--msg-id",
            "uuid,fast",
            "--name",
            "counts",
            "--format",
            "json",
            "--paired",
            "0",
        ],
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("counts.json")).unwrap()).unwrap();
    let arms = json["workloads"][0]["arms"].as_array().unwrap();
    let counts =
        |msg_id: &str| arms.iter().find(|a| a["msg_id"] == msg_id && a["control"].is_null()).unwrap()["counts"].clone();
    // idgen's uuid strategy asks the OS for every ID; fast reseeds from a pool (idgen's tests).
    let (uuid, fast) = (counts("uuid"), counts("fast"));
    assert!((uuid["getrandom_per_1000_ids"].as_f64().unwrap() - 1000.0).abs() < 1.0, "{uuid}");
    assert!(fast["getrandom_per_1000_ids"].as_f64().unwrap() < 1.0, "{fast}");
    // One request and its reply per batch: at least one send and one receive.
    assert!(
        fast["sends_per_batch"].as_f64().unwrap() >= 1.0 && fast["recvs_per_batch"].as_f64().unwrap() >= 1.0,
        "{fast}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
