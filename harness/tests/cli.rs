//! The harness binary as a user runs it: bad settings, dead servers and failed runs give one
//! clear line and a non-zero exit, within seconds.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{fails_with, harness, scratch};

#[test]
fn bad_settings_give_one_line_and_a_non_zero_exit() {
    fails_with(&["run", "--repeat", "0"], "REPEAT=0 is out of range");
    fails_with(&["run", "--sdk", "rust,cobol"], "SDK=cobol is unknown");
    fails_with(&["run", "--msg-id", "uuid,md5"], "MSG_ID=md5 is unknown to SDK rust");
    fails_with(&["run", "--bits", "65"], "BITS=65 is out of range");
    fails_with(&["run", "--pack", "0"], "PACK=0 is out of range");
    fails_with(&["run", "--batch", "0"], "BATCH=0 is out of range");
    fails_with(&["run", "--messages", "10"], "MESSAGES=10 is below BATCH=1000");
    fails_with(&["produce", "--server", "127.0.0.1:1"], "cannot connect to 127.0.0.1:1");
    fails_with(&["produce", "--msg-id", "nope"], "MSG_ID=nope is unknown");
    fails_with(&["sink", "--listen", "0.0.0.0:0"], "--listen 0.0.0.0:0 is not a loopback address");
    fails_with(&["run", "--mode", "nope"], "--mode nope is unknown; expected producer or mint");
    fails_with(&["run", "--bits", "abc"], "--bits abc is not a whole number");
    fails_with(&["run", "--format", "pdf"], "FORMAT=pdf names \"pdf\"");
    fails_with(&["calibrate", "--rounds", "0"], "--rounds 0 is out of range");
    // A negative number is a value to refuse by name, and a flag without one is said so.
    fails_with(&["run", "--repeat", "-1"], "--repeat -1 is not a whole number");
    fails_with(&["produce", "--bits", "-1"], "--bits -1 is not valid");
    fails_with(&["run", "--repeat"], "--repeat needs a value");
    fails_with(&["run", "--bogus"], "--bogus is not an option of harness run; harness run --help lists them");
    fails_with(&["run", "--sdk", "rust,rust"], "SDK=rust is listed twice");
    fails_with(&["run", "--pack", "12000", "--dry-run"], "BATCH=1000 x PACK=12000 makes a request of 72048538 bytes");
    fails_with(&["run", "--force", "maybe", "--dry-run"], "FORCE=maybe is not true or false");
}

/// A bad value in the environment is named as the variable the user set, in one line, exit 1.
fn fails_from_env(var: &str, value: &str, expected: &str) {
    let out = harness().args(["run", "--dry-run"]).env(var, value).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{var}={value}: {stderr}");
    assert_eq!(stderr.trim_end(), format!("error: {expected}"), "{var}={value}");
}

#[test]
fn bad_variables_are_named_as_set() {
    fails_from_env("MODE", "nope", "MODE=nope is unknown; expected producer or mint");
    fails_from_env("BITS", "abc", "BITS=abc is not a whole number");
    fails_from_env("SYSCALLS", "yes", "SYSCALLS=yes is not true or false");
    fails_from_env("COUNTS", "yes", "COUNTS=yes is not true or false");
    fails_from_env("REPEAT", "0", "REPEAT=0 is out of range: it must be at least 1");
    fails_from_env("RESULTS_DIR", "", "RESULTS_DIR is empty: give a directory, or unset it for results/");
    fails_from_env("NAME", "..", "NAME=\"..\" must be a plain file name (no '/', not starting with '.')");
}

#[test]
fn the_settings_table_lists_every_variable() {
    let out = harness().args(["settings", "--env-names"]).output().unwrap();
    let names = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = names.lines().collect();
    for var in [
        "MODE",
        "SDK",
        "MSG_ID",
        "REPEAT",
        "BITS",
        "PACK",
        "BATCH",
        "MESSAGES",
        "WARMUP",
        "TIMEOUT",
        "SYSCALLS",
        "COUNTS",
        "NAME",
        "RESULTS_DIR",
        "FORMAT",
        "SERVER",
        "INJECT_NS",
        "SEND_PATH",
        "PARTITIONS",
    ] {
        assert!(names.contains(&var), "{var} missing from {names:?}");
    }
    let table = String::from_utf8(harness().arg("settings").output().unwrap().stdout).unwrap();
    assert!(
        table.starts_with("| setting | flag | suite key | default | meaning |")
            && table.contains("| `TIMEOUT` | `--timeout` | `timeout` | 300 |"),
        "{table}"
    );
}

/// Starts `harness sink` on a free port and returns it with its address.
fn sink_process(extra: &[&str]) -> (std::process::Child, String) {
    let mut child =
        harness().args(["sink", "--listen", "127.0.0.1:0"]).args(extra).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.as_mut().unwrap()).read_line(&mut first).unwrap();
    let addr = first.split_whitespace().find(|w| w.starts_with("127.0.0.1:")).expect("listening line").to_owned();
    (child, addr)
}

#[test]
fn a_port_in_use_is_refused() {
    let (mut sink, addr) = sink_process(&[]);
    fails_with(&["sink", "--listen", &addr], &format!("cannot listen on {addr}"));
    sink.kill().unwrap();
    sink.wait().unwrap();
}

#[test]
fn a_sink_killed_mid_run_fails_the_producer() {
    let (mut sink, addr) = sink_process(&[]);
    let producer = harness()
        .args(["produce", "--server", &addr, "--msg-id", "uuid", "--messages", "1000000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    sink.kill().unwrap();
    sink.wait().unwrap();
    let started = Instant::now();
    let out = producer.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no result line for a failed run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: ") && stderr.trim().lines().count() == 1, "{stderr}");
}

#[test]
fn a_run_that_times_out_is_failed_in_the_report_and_the_exit_code() {
    let dir = std::env::temp_dir().join(format!("mintbench-cli-{}", std::process::id()));
    let out = harness()
        .args([
            "run",
            "--repeat",
            "1",
            "--timeout",
            "1",
            "--msg-id",
            "uuid",
            "--messages",
            "100000000",
            "--name",
            "timeout",
        ])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let md = std::fs::read_to_string(dir.join("timeout.md")).unwrap();
    assert!(md.contains("| rust uuid | - | - | - | - | - | - | FAILED: timed out after 1s and was killed |"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("timeout.json")).unwrap()).unwrap();
    assert_eq!(json["complete"], true, "all runs were attempted");
    assert!(
        json["workloads"][0]["analysis"]["comparisons"].as_array().unwrap().is_empty(),
        "no throughput compared for a failed arm"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_short_run_reports_every_arm_with_verified_delivery() {
    let dir = std::env::temp_dir().join(format!("mintbench-cli-ok-{}", std::process::id()));
    let out = harness()
        .args([
            "run",
            "--repeat",
            "2",
            "--msg-id",
            "uuid,fast,preset",
            "--messages",
            "20000",
            "--name",
            "short",
            "--syscalls",
            "false",
            "--paired",
            "0",
        ])
        .env("RESULTS_DIR", &dir)
        // No launch runs again whatever the host's steal, so runs_done is exact.
        .env("STOLEN", "count")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("short.json")).unwrap()).unwrap();
    assert_eq!((json["complete"].as_bool(), json["runs_done"].as_u64()), (Some(true), Some(15)));
    let workload = &json["workloads"][0];
    for arm in workload["arms"].as_array().unwrap() {
        for run in arm["runs"].as_array().unwrap() {
            assert_eq!(run["sink"]["messages"], 20_000, "{run}");
            assert_eq!(run["sink"]["duplicates"], 0);
        }
    }
    let pairs: Vec<(String, String)> = workload["analysis"]["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["before"].as_str().unwrap().to_owned(), c["after"].as_str().unwrap().to_owned()))
        .collect();
    let expected =
        [("uuid", "fast"), ("uuid", "preset"), ("preset", "fast")].map(|(b, a)| (b.to_owned(), a.to_owned()));
    assert_eq!(pairs, expected, "each arm against uuid, then fast against preset");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("| rust | ") && table.contains("control: rust threadrng A/A"), "{table}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_mint_run_reports_ids_per_second_under_a_name_without_payload_settings() {
    let dir = scratch("cli-mint");
    let out = harness()
        .args([
            "run",
            "--mode",
            "mint",
            "--msg-id",
            "uuid,fast",
            "--repeat",
            "2",
            "--messages",
            "20000",
            "--syscalls",
            "false",
        ])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for ext in ["md", "json", "html"] {
        assert!(names.contains(&format!("mint-rust.{ext}")), "{names:?}");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let md = std::fs::read_to_string(dir.join("mint-rust.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("mint-rust.html")).unwrap();
    for (what, text) in [("stdout", &*stdout), ("md", &md), ("html", &html)] {
        assert!(text.contains("IDs/s") && !text.contains("msgs/s"), "{what}: {text}");
        for network in ["RTT", "sends/batch", "recvs/batch", "/msg", "BITS=", "PACK="] {
            assert!(!text.contains(network), "{what} shows {network}: {text}");
        }
    }
    assert!(md.contains("| arm | CPU ns/ID |") || md.contains("| arm | syscalls/ID |"), "{md}");
    // Two runs a side of uuid against fast: no verdict word, whatever the difference.
    let row = md.lines().find(|l| l.starts_with("| rust | uuid: ")).expect("the comparison row");
    assert!(row.ends_with("| too few runs (n=2) |"), "{row}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_a_a_control_of_one_run_reads_unknown() {
    let dir = scratch("cli-aa");
    let out = harness()
        .args([
            "run",
            "--msg-id",
            "uuid",
            "--repeat",
            "1",
            "--messages",
            "20000",
            "--syscalls",
            "false",
            "--name",
            "aa",
        ])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(dir.join("aa.md")).unwrap();
    let row = md.lines().find(|l| l.starts_with("| control: rust threadrng A/A |")).expect("the control row");
    assert!(row.ends_with("| unknown: too few runs (n=1) |") && !row.contains("stable"), "{row}");
    let html = std::fs::read_to_string(dir.join("aa.html")).unwrap();
    assert!(html.contains("<td>unknown: too few runs (n=1)</td>") && !html.contains("stable"), "{html}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_sink_forwards_to_its_upstream_and_still_verifies() {
    let (mut upstream, up_addr) = sink_process(&[]);
    let (mut front, front_addr) = sink_process(&["--upstream", &up_addr]);
    let out = harness().args(["produce", "--server", &front_addr, "--messages", "20000"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Both count every message: the front verified it, the upstream answered it.
    for sink in [&mut front, &mut upstream] {
        // SAFETY: kill(2) on a child that has not been waited for.
        unsafe { libc::kill(sink.id() as i32, libc::SIGINT) };
        let mut totals = String::new();
        sink.stderr.as_mut().unwrap().read_to_string(&mut totals).unwrap();
        sink.wait().unwrap();
        assert!(totals.contains("\"messages\":20000") && totals.contains("\"duplicates\":0"), "{totals}");
    }
    // The runner's sinks forward too: a lock-step set in front of a server.
    let (mut upstream, up_addr) = sink_process(&[]);
    let dir = std::env::temp_dir().join(format!("mintbench-cli-upstream-{}", std::process::id()));
    let out = harness()
        .args([
            "run",
            "--design",
            "lockstep",
            "--upstream",
            &up_addr,
            "--repeat",
            "1",
            "--msg-id",
            "uuid,fast",
            "--messages",
            "20000",
            "--syscalls",
            "false",
            "--name",
            "up",
        ])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(dir.join("up.md")).unwrap();
    assert!(md.contains(&format!("UPSTREAM={up_addr}")) && md.contains("lock-step"), "{md}");
    upstream.kill().unwrap();
    upstream.wait().unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_upstream_that_is_down_or_not_iggy_is_refused_before_anything_runs() {
    let dir = std::env::temp_dir().join(format!("mintbench-cli-noup-{}", std::process::id()));
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_addr = dead.local_addr().unwrap().to_string();
    drop(dead);
    fails_with(
        &["run", "--upstream", &dead_addr, "--results-dir", dir.to_str().unwrap()],
        &format!("UPSTREAM={dead_addr} is not an Iggy server that answers a PING: cannot connect"),
    );
    fails_with(&["sink", "--upstream", "nowhere"], "--upstream nowhere is not a host:port");
    // A server that answers with something else than Iggy frames.
    let http = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let http_addr = http.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        let (mut conn, _) = http.accept().unwrap();
        let _ = std::io::Write::write_all(&mut conn, &[b'x'; 300]);
    });
    fails_with(
        &["sink", "--upstream", &http_addr],
        &format!("--upstream {http_addr} is not an Iggy server that answers a PING: "),
    );
    server.join().unwrap();
    assert!(!dir.exists(), "nothing written");
}

#[test]
fn precision_and_budget_decide_when_the_rounds_stop() {
    let dir = std::env::temp_dir().join(format!("mintbench-cli-precision-{}", std::process::id()));
    let out = harness()
        .args([
            "run",
            "--design",
            "lockstep",
            "--repeat",
            "3",
            "--precision",
            "0.0001%",
            "--budget",
            "3s",
            "--msg-id",
            "uuid,fast",
            "--messages",
            "20000",
            "--syscalls",
            "false",
            "--name",
            "adaptive",
        ])
        .env("RESULTS_DIR", &dir)
        // No launch runs again whatever the host's steal, so the runs counted below are rounds.
        .env("STOLEN", "count")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("adaptive.json")).unwrap()).unwrap();
    let stopped = json["workloads"][0]["stopped"].as_str().unwrap();
    assert!(
        stopped.starts_with("BUDGET=3s ran out after ") && stopped.contains("before PRECISION=0.0001% was met"),
        "{stopped}"
    );
    let rounds = json["workloads"][0]["arms"][0]["runs"].as_array().unwrap().len();
    assert!(rounds > 4, "rounds went on past REPEAT=3: {rounds} runs");
    // Each set places its arms in an order of its own; every arm still gets its own process's line.
    for arm in json["workloads"][0]["arms"].as_array().unwrap() {
        for run in arm["runs"].as_array().unwrap() {
            assert_eq!(run["result"]["msg_id"], arm["msg_id"], "{run}");
        }
    }
    assert_eq!(json["complete"], true);
    // SPLIT runs the row as its Budget line there advised; the control as the flags say.
    let advice = &json["workloads"][0]["allocations"][0];
    let (messages, rounds) = (advice["best_messages"].as_u64().unwrap(), advice["best_rounds"].as_u64().unwrap());
    let split_from = dir.join("adaptive.json");
    let split = |name: &str| {
        harness()
            .args(["run", "--design", "lockstep", "--repeat", "3", "--msg-id", "uuid,fast", "--messages", "20000"])
            .args(["--syscalls", "false", "--format", "json", "--name", name, "--split"])
            .arg(&split_from)
            .env("RESULTS_DIR", &dir)
            .env("STOLEN", "count")
            .output()
            .unwrap()
    };
    let out = split("split");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("split.json")).unwrap()).unwrap();
    for arm in json["workloads"][0]["arms"].as_array().unwrap() {
        let runs = arm["runs"].as_array().unwrap();
        let (want_messages, want_runs) = if arm["control"].is_null() { (messages, rounds + 1) } else { (20_000, 4) };
        assert_eq!(runs.len() as u64, want_runs, "{arm}");
        assert!(runs.iter().all(|r| r["result"]["messages"] == want_messages), "{arm}");
    }
    // The report it follows is not the one it writes.
    let out = split("adaptive");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is the report this run writes: give this run its own NAME"), "{err}");
    // A loose precision is met soon after REPEAT rounds.
    let out = harness()
        .args([
            "run",
            "--design",
            "lockstep",
            "--repeat",
            "3",
            "--precision",
            "50",
            "--msg-id",
            "uuid,fast",
            "--messages",
            "20000",
            "--syscalls",
            "false",
            "--name",
            "loose",
            "--format",
            "md",
        ])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(dir.join("loose.md")).unwrap();
    assert!(md.contains("- Rounds: PRECISION met after ") && md.contains("95% CI half-width is at most 50%"), "{md}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_design_settings_are_one_error_line() {
    fails_with(&["run", "--design", "duet"], "--design duet is unknown; expected lockstep, paired or processes");
    fails_with(&["run", "--precision", "0"], "PRECISION=0 is out of range: it must be above 0 and at most 50 (%)");
    fails_with(&["run", "--precision", "60%"], "PRECISION=60% is out of range");
    fails_with(&["run", "--budget", "soon"], "--budget soon is not a duration such as 90s or 10m");
    fails_with(&["run", "--split", "/nonexistent/r.json"], "SPLIT=/nonexistent/r.json cannot be read: ");
    fails_with(
        &["run", "--design", "lockstep", "--msg-id", "fast"],
        "DESIGN=lockstep compares the arms of a set, but SDK=rust MSG_ID=fast gives each row one arm",
    );
}
