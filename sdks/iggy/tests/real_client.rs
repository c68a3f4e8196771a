//! The released Iggy client (crates.io iggy 0.11.1-edge.9), as the `iggy` SDK row's producer,
//! against an in-process sink: it connects, logs in, creates a stream and a topic with several
//! partitions, sends its batches, and the sink verifies every message arrived exactly once.

use std::process::{Command, Output};
use std::time::Duration;

use harness::producer::ProducerResult;
use harness::sink::{Sink, SinkSettings};
use harness::wire::PayloadSpec;

fn sink() -> Sink {
    let settings = SinkSettings { idle_timeout: Duration::from_secs(5), ..SinkSettings::default() };
    Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, Some(PayloadSpec::new(42, 3).unwrap())).unwrap()
}

fn producer(sink: &Sink, msg_id: &str, mode: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iggy-producer"))
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
        .output()
        .unwrap()
}

fn result_of(out: &Output) -> ProducerResult {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1, "one result line: {stdout}");
    serde_json::from_str(stdout.trim()).unwrap()
}

#[test]
fn every_variant_delivers_each_message_exactly_once() {
    let sink = sink();
    for (k, msg_id) in ["sdk", "fast", "preset", "uuid"].into_iter().enumerate() {
        let before = sink.counts();
        let result = result_of(&producer(&sink, msg_id, "producer"));
        assert_eq!((result.sdk.as_str(), result.msg_id.as_str()), ("iggy", msg_id));
        assert_eq!((result.messages, result.warmup, result.timed_messages), (5000, 500, 4500));
        assert!(result.rtt_p50_ns.is_some());
        let delivered = sink.counts().since(&before);
        assert_eq!(delivered.delivery_problem(5000), None, "{msg_id} (run {k}): {delivered:?}");
        assert_eq!((delivered.batches, delivered.connections), (20, 1), "{msg_id}");
    }
}

#[test]
fn mint_mode_needs_no_sink_and_names_its_variant() {
    let sink = sink();
    let result = result_of(&producer(&sink, "sdk", "mint"));
    assert_eq!((result.msg_id.as_str(), result.timed_messages), ("sdk", 4500));
    assert_eq!(sink.counts().connections, 0);
}

#[test]
fn bad_settings_and_a_dead_server_give_one_error_line() {
    let sink = sink();
    let out = producer(&sink, "md5", "producer");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.starts_with("error: MSG_ID=md5 is unknown"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_iggy-producer")).env("SERVER", "127.0.0.1:1").env("MESSAGES", "2000").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.starts_with("error: ") && stderr.trim().lines().count() == 1, "{stderr}");
    assert!(out.stdout.is_empty());
}
