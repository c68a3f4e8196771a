//! Rows a user defines at run time (`--producer NAME=COMMAND`, a suite's `[producers]`): started
//! as given, compared with the first such row, FAILED with their own error line.

mod common;

use common::{fails_with, harness, root, scratch};

const SMALL: [&str; 10] =
    ["--msg-id", "fast", "--repeat", "1", "--messages", "5000", "--batch", "100", "--syscalls", "false"];

fn rust_producer(name: &str) -> String {
    format!("{name}={} produce", env!("CARGO_BIN_EXE_harness"))
}

#[test]
fn two_builds_of_one_producer_are_compared_with_the_first_in_lock_step() {
    let dir = scratch("producers-pair");
    let out = harness()
        .args(["run", "--producer", &rust_producer("master"), "--producer", &rust_producer("branch"), "--name", "pair"])
        .args(SMALL)
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pair.json")).unwrap()).unwrap();
    let workload = &json["workloads"][0];
    let labels: Vec<&str> =
        workload["analysis"]["arms"].as_array().unwrap().iter().map(|a| a["label"].as_str().unwrap()).collect();
    // Separate builds: lock-step by default, with a second process of the first build as its twin.
    assert_eq!(workload["settings"]["design"], "lockstep");
    assert_eq!(
        labels,
        [
            "rust threadrng (control A)",
            "rust threadrng (control B)",
            "master fast",
            "master fast (A/A twin)",
            "branch fast"
        ]
    );
    for arm in workload["arms"].as_array().unwrap() {
        for run in arm["runs"].as_array().unwrap() {
            // A set's sink counts every process of the set: three builds, or the control's two.
            let processes = if arm["control"].is_null() { 3 } else { 2 };
            assert_eq!(run["sink"]["messages"], 5000 * processes, "{run}");
            // One timed turn per batch of the timed window: 50 batches, the first 5 the warm-up.
            let (client, service) = (run["batch_ns"].as_array().unwrap(), run["service_ns"].as_array().unwrap());
            assert_eq!((client.len(), service.len()), (45, 45), "{run}");
            assert!(client.iter().chain(service).all(|t| t.as_u64().unwrap() > 0), "{run}");
        }
    }
    let comparisons = workload["analysis"]["comparisons"].as_array().unwrap();
    let pairs: Vec<(&str, &str, &str)> = comparisons
        .iter()
        .map(|c| (c["sdk"].as_str().unwrap(), c["before"].as_str().unwrap(), c["after"].as_str().unwrap()))
        .collect();
    assert_eq!(pairs, [("branch", "master fast", "fast")]);
    assert!(
        comparisons[0]["paired"]["processes"] == 1 && comparisons[0]["at_one_in_flight"].is_object(),
        "{}",
        comparisons[0]
    );
    assert!(
        json["workloads"][0]["settings"]["producers"][1]["name"] == "branch",
        "{}",
        json["workloads"][0]["settings"]
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn two_builds_share_their_set_s_split() {
    let dir = scratch("producers-split");
    let run = |name: &str, split: &[&str]| {
        harness()
            .args(["run", "--producer", &rust_producer("master"), "--producer", &rust_producer("branch")])
            .args(["--msg-id", "fast", "--repeat", "3", "--messages", "20000", "--batch", "100", "--syscalls", "false"])
            .args(["--name", name])
            .args(split)
            .env("RESULTS_DIR", &dir)
            .output()
            .unwrap()
    };
    let out = run("first", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // One set, one Budget line (it names one of the builds): both builds take it.
    let first = dir.join("first.json");
    let out = run("second", &["--split", first.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("second.json")).unwrap()).unwrap();
    let rows: Vec<&str> = json["workloads"][0]["settings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["row"].as_str().unwrap())
        .collect();
    assert_eq!(rows, ["master", "branch"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_command_that_fails_or_prints_no_result_is_failed_with_its_error_line() {
    let dir = scratch("producers-fail");
    let out = harness()
        .args([
            "run",
            "--producer",
            "bad=sh -c 'echo starting >&2; echo oops >&2; exit 3'",
            "--producer",
            "mute=sh -c 'echo hello >&2'",
            "--name",
            "fail",
        ])
        .args(SMALL)
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(dir.join("fail.md")).unwrap();
    assert!(md.contains("| bad fast |") && md.contains("FAILED: exited with exit status: 3: oops |"), "{md}");
    // Lock-step runs both in one set: each arm says its own failure.
    assert!(md.contains("| mute fast |") && md.contains("FAILED: result line \"\" is not the contract's JSON"), "{md}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_result_line_for_messages_the_sink_never_got_is_failed() {
    let dir = scratch("producers-liar");
    // A well-formed result line for the run asked for, and not one message sent.
    let liar = r#"liar=sh -c 'printf "{\"sdk\":\"liar\",\"msg_id\":\"%s\",\"send_path\":\"lean\",\"messages\":%s,\"warmup\":%s,\"timed_messages\":4500,\"elapsed_ns\":5000,\"msgs_per_sec\":9e8,\"injected_ns\":0}\n" "$MSG_ID" "$MESSAGES" "$WARMUP"'"#;
    let out = harness()
        .args(["run", "--producer", liar, "--name", "liar"])
        .args(SMALL)
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("liar.json")).unwrap()).unwrap();
    let arm = json["workloads"][0]["arms"].as_array().unwrap().iter().find(|a| a["sdk"] == "liar").unwrap();
    for run in arm["runs"].as_array().unwrap() {
        assert_eq!(run["sink"]["messages"], 0, "{run}");
        assert!(
            run["result"].is_null()
                && run["failed"].as_str().is_some_and(|why| why.contains("sink received 0 of 5000 messages")),
            "the sink's count decides, not the line: {run}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_specs_are_refused_before_any_run() {
    fails_with(&["run", "--producer", "nameonly"], "--producer \"nameonly\" has no `=`");
    fails_with(&["run", "--producer", "x= "], "--producer x: the command is empty");
    fails_with(&["run", "--producer", "rust=sh"], "--producer rust: the name is a built-in SDK row");
    fails_with(
        &["run", "--producer", "x=no-such-program-anywhere"],
        "--producer x: the command `no-such-program-anywhere` is not found",
    );
    fails_with(&["run", "--producer", "x=sh", "--producer", "x=sh"], "--producer x: the name is given twice");
    fails_with(&["run", "--producer", "x=sh", "--mode", "mint"], "MODE=mint runs the Rust strategies only");
    // A row SDK leaves out would be dropped without a word.
    fails_with(
        &["run", "--sdk", "rust", "--producer", "x=sh", "--dry-run"],
        "the row x (--producer or [producers]) is in no workload's SDK (SDK=rust): add x to SDK",
    );
}

#[test]
fn a_suite_defines_rows_in_its_producers_table() {
    let dir = scratch("producers-suite");
    let suite = dir.join("mine.toml");
    std::fs::write(&suite, "repeat = 3\n\n[producers]\nold = \"sh old.sh\"\nnew = \"sh new.sh\"\n").unwrap();
    let out = harness().args(["run", "-f", suite.to_str().unwrap(), "--dry-run"]).current_dir(root()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.lines().any(|l| l.starts_with("sdk") && l.ends_with("new,old")),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A row one workload runs may be left out of another; a row no workload runs is refused.
    let two = "[producers]\nold = \"sh old.sh\"\nnew = \"sh new.sh\"\n\n[[workload]]\nname = \"mine\"\nsdk = [\"old\", \"new\"]\n\n[[workload]]\nname = \"rust\"\nsdk = \"rust\"\n";
    std::fs::write(&suite, two).unwrap();
    let out = harness().args(["run", "-f", suite.to_str().unwrap(), "--dry-run"]).current_dir(root()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(&suite, two.replace("[\"old\", \"new\"]", "\"old\"")).unwrap();
    fails_with(
        &["run", "-f", suite.to_str().unwrap(), "--dry-run"],
        &format!("{}: the row new (--producer or [producers]) is in no workload's SDK (SDK=old,rust)", suite.display()),
    );
    std::fs::write(&suite, "[producers]\nold = 3\n").unwrap();
    fails_with(
        &["run", "-f", suite.to_str().unwrap(), "--dry-run"],
        &format!("{}: [producers] old must be a command string", suite.display()),
    );
    std::fs::remove_dir_all(dir).unwrap();
}
