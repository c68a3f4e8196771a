//! The uniqueness example at a small scale: forked, raw-cloned and spawned minters find no
//! duplicate, and a planted one is found.

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::Command;

/// `cargo test` builds the package's examples beside the test binaries' `deps` folder.
fn example() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(|deps| deps.parent()).unwrap().join("examples").join("uniqueness");
    assert!(
        path.exists(),
        "{} is missing: run the package's tests (cargo test -p idgen), which build its examples",
        path.display()
    );
    path
}

fn uniqueness(args: &[&str]) -> std::process::Output {
    Command::new(example()).args(args).output().unwrap()
}

#[test]
fn forked_cloned_and_spawned_minters_share_no_id_and_a_planted_duplicate_is_found() {
    let dir = std::env::temp_dir().join(format!("mintbench-uniqueness-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let args = ["run", "--dir", d, "--processes", "5", "--forked", "2", "--cloned", "2", "--per-process", "50000"];
    let out = uniqueness(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        stdout.trim(),
        format!("{} IDs from 6 writers, 0 duplicates (largest shard {} IDs)", 350_000, largest(&stdout))
    );

    // Copy one ID of a raw-cloned child into the spawned worker's same shard.
    let mut id = [0u8; 16];
    std::fs::File::open(dir.join("cloned-0/shard-00")).unwrap().read_exact(&mut id).unwrap();
    OpenOptions::new().append(true).open(dir.join("spawned-4/shard-00")).unwrap().write_all(&id).unwrap();
    let out = uniqueness(&["check", "--dir", d]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("350001 IDs from 6 writers, 1 duplicates"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn more_children_than_processes_is_one_error_line() {
    let out = uniqueness(&["run", "--dir", "unused", "--processes", "2", "--forked", "2", "--cloned", "1"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("forked + cloned <= processes") && stderr.lines().count() == 1,
        "{stderr}"
    );
}

fn largest(line: &str) -> &str {
    line.rsplit("largest shard ").next().unwrap().split(' ').next().unwrap()
}
