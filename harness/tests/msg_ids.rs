//! Each SDK row's MSG_ID list is what its producer accepts on its SEND_PATH: asked with an
//! unknown name, a producer lists its names before checking anything else (sdks/README.md).
//! It builds every row, so it runs on its own after the SDK suites:
//! `cargo test --release -p harness --test msg_ids -- --ignored` (scripts/test.sh).

mod common;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use harness::runner::sdk::{SDKS, Sdk, repo_root};
use harness::runner::settings::{Layer, env_names};

const PROBE: &str = "__unknown__";

/// The names `row`'s producer lists for an unknown MSG_ID, started as the launcher starts it.
fn accepted(row: &Sdk) -> Result<BTreeSet<String>, String> {
    let root = repo_root();
    row.build(&root).map_err(|e| format!("{e:#}"))?;
    let mut cmd = if row.name == "rust" {
        // The Rust row's producer is the harness binary itself, which this test is not.
        let mut c = Command::new(env!("CARGO_BIN_EXE_harness"));
        c.arg("produce").current_dir(&root);
        c
    } else {
        row.command(&root).map_err(|e| format!("{e:#}"))?
    };
    for var in env_names() {
        cmd.env_remove(var);
    }
    let (settings, _) = Layer::default().resolve(None).map_err(|e| format!("{e:#}"))?;
    cmd.envs(settings.producer_env(settings.size()))
        .envs([("SERVER", "127.0.0.1:9"), ("MSG_ID", PROBE), ("INJECT_NS", "0"), ("SEND_PATH", row.send_path)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let started = Instant::now();
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            return Err("did not exit within 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let stderr = String::from_utf8_lossy(&child.wait_with_output().map_err(|e| e.to_string())?.stderr).into_owned();
    let prefix = format!("error: MSG_ID={PROBE} is unknown; expected one of ");
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .ok_or_else(|| format!("no `{prefix}...` line in {stderr:?}"))?;
    Ok(line.split(", ").map(str::to_owned).collect())
}

#[test]
#[ignore = "builds every SDK row; scripts/test.sh runs it after the SDK suites"]
fn every_rows_msg_ids_are_what_its_producer_accepts() {
    let mismatches: Vec<String> = SDKS
        .iter()
        .filter_map(|row| {
            let listed: BTreeSet<String> = row.msg_ids.iter().map(|m| m.to_string()).collect();
            match accepted(row) {
                Ok(names) if names == listed => None,
                Ok(names) => Some(format!(
                    "{} (SEND_PATH={}): the runner lists {listed:?}, the producer accepts {names:?}",
                    row.name, row.send_path
                )),
                Err(e) => Some(format!("{} (SEND_PATH={}): {e}", row.name, row.send_path)),
            }
        })
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
