//! A complete report is not replaced by a run that holds less, unless FORCE says so.

mod common;

use common::{harness, scratch};

#[test]
fn a_smaller_run_is_refused_before_it_starts() {
    let dir = scratch("overwrite");
    let report = dir.join("keep.json");
    let full = r#"{"complete":true,"workloads":[{"name":"keep","settings":{"repeat":10,"messages":1000000}}]}"#;
    std::fs::write(&report, full).unwrap();
    let out = harness()
        .args(["run", "--name", "keep", "--repeat", "1", "--messages", "100000", "--syscalls", "false"])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr
            .starts_with(&format!("error: {} is a complete report with REPEAT=10 in workload keep", report.display())),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&report).unwrap(), full, "left as it was");
    std::fs::remove_dir_all(dir).unwrap();
}
