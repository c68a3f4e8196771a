//! The uniqueness tool at a small scale: forked and spawned minters find no duplicate, and a
//! planted one is found.

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::process::Command;

fn uniqueness(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_uniqueness")).args(args).output().unwrap()
}

#[test]
fn forked_and_spawned_minters_share_no_id_and_a_planted_duplicate_is_found() {
    let dir = std::env::temp_dir().join(format!("mintbench-uniqueness-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = uniqueness(&["run", "--dir", d, "--processes", "4", "--forked", "2", "--per-process", "50000"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.trim(), format!("{} IDs from 5 writers, 0 duplicates (largest shard {} IDs)", 300_000, largest(&stdout)));

    // Copy one ID of a forked child into a spawned worker's same shard.
    let mut id = [0u8; 16];
    std::fs::File::open(dir.join("forked-0/shard-00")).unwrap().read_exact(&mut id).unwrap();
    OpenOptions::new().append(true).open(dir.join("spawned-3/shard-00")).unwrap().write_all(&id).unwrap();
    let out = uniqueness(&["check", "--dir", d]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("300001 IDs from 5 writers, 1 duplicates"));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn largest(line: &str) -> &str {
    line.rsplit("largest shard ").next().unwrap().split(' ').next().unwrap()
}
