//! The released Iggy client (crates.io iggy 0.11.1-edge.9), as the `iggy` SDK row's producer,
//! against an in-process sink: it connects, logs in, creates a stream and a topic with several
//! partitions, sends its batches, one arm or paired, and the sink verifies every message arrived
//! exactly once.

use std::process::{Command, Output};
use std::time::Duration;

use harness::producer::{ProducerResult, ResultLine, SendPath};
use harness::sink::{Sink, SinkSettings};
use harness::wire::PayloadSpec;

fn sink() -> Sink {
    let settings = SinkSettings { idle_timeout: Duration::from_secs(5), ..SinkSettings::default() };
    Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, Some(PayloadSpec::new(42, 3).unwrap())).unwrap()
}

/// The producer with the contract's settings for a short run, `extra` on top.
fn producer(sink: &Sink, msg_id: &str, mode: &str, extra: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iggy-producer"))
        .env_clear()
        .envs([
            ("SERVER", sink.addr.to_string().as_str()),
            ("MODE", mode),
            ("MSG_ID", msg_id),
            ("BITS", "42"),
            ("PACK", "3"),
            ("BATCH", "250"),
            ("MESSAGES", "5000"),
            ("WARMUP", "500"),
            ("PARTITIONS", "3"),
        ])
        .envs(extra.iter().copied())
        .output()
        .unwrap()
}

fn line_of(out: &Output) -> ResultLine {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1, "one result line: {stdout}");
    serde_json::from_str(stdout.trim()).unwrap()
}

fn one_arm(out: &Output) -> ProducerResult {
    match line_of(out) {
        ResultLine::One(result) => result,
        line => panic!("a one-arm line: {line:?}"),
    }
}

fn error_of(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success() && out.stdout.is_empty(), "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.trim().lines().count() == 1, "{stderr}");
    stderr.trim()["error: ".len()..].to_owned()
}

#[test]
fn every_variant_delivers_each_message_exactly_once() {
    let sink = sink();
    for (k, msg_id) in ["sdk", "fast", "preset", "uuid", "counter"].into_iter().enumerate() {
        let before = sink.delivery();
        let result = one_arm(&producer(&sink, msg_id, "producer", &[]));
        assert_eq!(
            (result.sdk.as_str(), result.msg_id.as_str(), result.send_path),
            ("iggy", msg_id, SendPath::Faithful)
        );
        assert_eq!((result.messages, result.warmup, result.timed_messages, result.injected_ns), (5000, 500, 4500, 0));
        assert!(result.rtt_p50_ns.is_some());
        let delivered = sink.delivery().since(&before);
        assert_eq!(delivered.delivery_problem(5000), None, "{msg_id} (run {k}): {delivered:?}");
        assert_eq!((delivered.batches, delivered.connections), (20, 1), "{msg_id}");
    }
}

#[test]
fn a_paired_run_times_every_arm_and_delivers_each_message_once() {
    let sink = sink();
    let extra = [("PAIRED", "1"), ("SEED", "11"), ("INJECT_NS", "400"), ("INJECT_ARM", "2"), ("SEND_PATH", "faithful")];
    let ResultLine::Paired(line) = line_of(&producer(&sink, "sdk,fast,sdk,preset", "producer", &extra)) else {
        panic!("a paired line")
    };
    assert_eq!((line.sdk.as_str(), line.paired, line.seed, line.send_path), ("iggy", true, 11, SendPath::Faithful));
    assert_eq!((line.messages, line.warmup, line.blocks), (5000, 500, 18));
    let names: Vec<&str> = line.arms.iter().map(|a| a.msg_id.as_str()).collect();
    assert_eq!(names, ["sdk", "fast", "sdk", "preset"]);
    for (i, arm) in line.arms.iter().enumerate() {
        assert_eq!((arm.timed_messages, arm.batch_ns.len()), (4500, 18), "arm {i}");
        assert_eq!(arm.elapsed_ns, arm.batch_ns.iter().sum::<u64>(), "arm {i}");
        if i == 2 {
            assert!(arm.injected_ns >= 4500 * 400, "{}", arm.injected_ns);
            assert!(
                arm.batch_ns.iter().all(|&ns| ns >= 250 * 400),
                "the spin is inside each batch's time: {:?}",
                arm.batch_ns
            );
        } else {
            assert_eq!(arm.injected_ns, 0, "arm {i}");
        }
    }
    let delivered = sink.delivery();
    assert_eq!(delivered.delivery_problem(4 * 5000), None, "{delivered:?}");
    assert_eq!((delivered.batches, delivered.connections), (80, 1));
}

#[test]
fn mint_mode_needs_no_sink_and_names_its_variant() {
    let sink = sink();
    let result = one_arm(&producer(&sink, "sdk", "mint", &[("INJECT_NS", "50")]));
    assert_eq!((result.msg_id.as_str(), result.timed_messages), ("sdk", 4500));
    assert!(result.injected_ns >= 4500 * 50, "{result:?}");
    assert_eq!(sink.delivery().connections, 0);
}

#[test]
fn bad_settings_and_a_dead_server_give_one_error_line() {
    let sink = sink();
    let err = |msg_id: &str, extra: &[(&str, &str)]| error_of(&producer(&sink, msg_id, "producer", extra));
    assert_eq!(err("md5", &[]), "MSG_ID=md5 is unknown; expected one of sdk, uuid, fast, preset, counter");
    assert_eq!(err("sdk", &[("SEND_PATH", "lean")]), "SEND_PATH=lean is not a path of SDK iggy; it has faithful only");
    assert!(err("sdk", &[("PAIRED", "1")]).starts_with("PAIRED=1 needs at least two arms"));
    assert!(err("sdk,fast", &[("PAIRED", "1"), ("INJECT_ARM", "2")]).starts_with("INJECT_ARM=2 is outside"));
    assert!(err("sdk,fast", &[]).starts_with("MSG_ID=sdk,fast lists several arms"));
    assert_eq!(sink.delivery().connections, 0, "refused before connecting");
    let out = Command::new(env!("CARGO_BIN_EXE_iggy-producer"))
        .env_clear()
        .env("SERVER", "127.0.0.1:1")
        .env("MESSAGES", "2000")
        .output()
        .unwrap();
    error_of(&out);
}
