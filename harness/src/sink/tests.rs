//! The sink against real TCP clients: clean deliveries, faults it must count, and malformed
//! frames it must refuse without falling over.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use bytes::BytesMut;

use super::{DeliverySnapshot, Sink, SinkSettings};
use crate::producer::client::Client;
use crate::producer::{self, ProduceArgs};
use crate::wire::{
    HEADER_LEN, Operation, PayloadSpec, Protocol, ReplyHeader, SendTarget, encode_send_messages, status,
};

const TARGET: SendTarget = SendTarget { stream: 1, topic: 1, partition: 0 };

fn spec() -> PayloadSpec {
    PayloadSpec::new(42, 1).unwrap()
}

fn sink() -> Sink {
    let settings = SinkSettings { idle_timeout: Duration::from_secs(2), ..SinkSettings::default() };
    Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, Some(spec())).unwrap()
}

fn batch(client: &mut Client, first_seq: u64, count: u32) -> BytesMut {
    batch_to(client, &TARGET, first_seq, count, &spec())
}

fn batch_to(client: &mut Client, target: &SendTarget, first_seq: u64, count: u32, spec: &PayloadSpec) -> BytesMut {
    let mut frame = BytesMut::new();
    let header = client.next_header(Operation::SendMessages);
    encode_send_messages(&mut frame, &header, target, 1, first_seq, count, spec, || idgen::mint().to_le_bytes());
    frame
}

fn logged_in(sink: &Sink) -> Client {
    let mut c = Client::connect(&sink.addr.to_string()).unwrap();
    c.login("mintbench-test").unwrap();
    c
}

/// The status the sink answers `frame` with.
fn status_of(client: &mut Client, frame: &[u8]) -> u32 {
    match client.request(frame) {
        Ok(_) => status::OK,
        Err(e) => status_in(&e),
    }
}

/// The status a refused request's error names.
fn status_in(e: &anyhow::Error) -> u32 {
    e.to_string().split("status ").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse().unwrap()
}

/// Waits until the sink has counted what the client sent (connections are served concurrently).
fn settled(sink: &Sink, until: impl Fn(&DeliverySnapshot) -> bool) -> DeliverySnapshot {
    for _ in 0..200 {
        let d = sink.delivery();
        if until(&d) {
            return d;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    sink.delivery()
}

#[test]
fn fifty_thousand_messages_arrive_exactly_once() {
    let sink = sink();
    let args = ProduceArgs {
        server: sink.addr.to_string(),
        mode: producer::Mode::Producer,
        msg_id: "fast".into(),
        payload: producer::PayloadArgs { bits: 42, pack: 1, batch: 1000, messages: 50_000, warmup: None },
    };
    let result = producer::run(&args).unwrap();
    assert_eq!((result.messages, result.timed_messages), (50_000, 45_000));
    let delivery = sink.delivery();
    assert_eq!(delivery.delivery_problem(50_000), None, "{delivery:?}");
    assert_eq!(delivery.batches, 50);
}

#[test]
fn repeated_and_skipped_messages_are_counted_and_refused() {
    let sink = sink();
    let mut c = logged_in(&sink);
    let first = batch(&mut c, 0, 10);
    assert_eq!(status_of(&mut c, &first), status::OK);
    let again = batch(&mut c, 0, 10);
    assert_eq!(status_of(&mut c, &again), status::PRODUCER_SEQUENCE_OUT_OF_ORDER);
    let skipped = batch(&mut c, 15, 5);
    assert_eq!(status_of(&mut c, &skipped), status::PRODUCER_SEQUENCE_OUT_OF_ORDER);
    let delivery = sink.delivery();
    assert_eq!((delivery.messages, delivery.duplicates, delivery.gaps), (15, 10, 5));
    assert!(delivery.delivery_problem(20).is_some());
}

#[test]
fn malformed_batches_get_an_error_status_and_the_connection_goes_on() {
    let sink = sink();
    let mut c = logged_in(&sink);
    let message_at = HEADER_LEN + 26 + 256;
    let cases: [(&str, usize, u32); 6] = [
        ("payload bit", message_at + 48, status::INVALID_MESSAGE_CHECKSUM),
        ("origin timestamp", HEADER_LEN + 26 + 24, status::INVALID_BATCH_CHECKSUM),
        ("message count", HEADER_LEN + 22, status::INVALID_MESSAGES_COUNT),
        ("reserved byte", message_at + 40, status::INVALID_RESERVED_FIELD),
        ("metadata length", HEADER_LEN, status::COMMAND_LENGTH_ERROR),
        ("stream identifier kind", HEADER_LEN + 4, status::INVALID_IDENTIFIER),
    ];
    for (what, at, expected) in cases {
        let mut frame = batch(&mut c, 0, 3);
        frame[at] ^= 0x40;
        assert_eq!(status_of(&mut c, &frame), expected, "{what}");
    }
    let good = batch(&mut c, 0, 3);
    assert_eq!(status_of(&mut c, &good), status::OK, "the connection still serves");
    let delivery = sink.delivery();
    assert_eq!((delivery.rejected_frames, delivery.checksum_failures, delivery.messages), (6, 2, 3));
}

#[test]
fn unknown_commands_get_invalid_command() {
    let sink = sink();
    let mut c = logged_in(&sink);
    let mut frame = BytesMut::new();
    crate::wire::encode_request_header(&mut frame, &c.next_header(Operation::NonReplicated(999)));
    crate::wire::patch_size(&mut frame);
    assert_eq!(status_of(&mut c, &frame), status::INVALID_COMMAND);
}

fn raw(sink: &Sink) -> TcpStream {
    let s = TcpStream::connect(sink.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s
}

#[test]
fn an_oversized_length_is_refused_without_reading_it() {
    let sink = sink();
    let mut s = raw(&sink);
    let mut head = [0u8; HEADER_LEN];
    head[48..52].copy_from_slice(&u32::MAX.to_le_bytes());
    head[176] = 160;
    s.write_all(&head).unwrap();
    let mut reply = [0u8; HEADER_LEN];
    s.read_exact(&mut reply).unwrap();
    assert_eq!(ReplyHeader::decode(&reply).status, status::COMMAND_LENGTH_ERROR);
    assert_eq!(s.read(&mut reply).unwrap(), 0, "the sink closes the connection");
    assert_eq!(settled(&sink, |c| c.rejected_frames == 1).rejected_frames, 1);
}

#[test]
fn a_truncated_frame_or_silence_ends_the_connection_and_not_the_sink() {
    let sink = sink();
    let frame = batch(&mut logged_in(&sink), 0, 3);
    let mut cut = raw(&sink);
    cut.write_all(&frame[..frame.len() - 7]).unwrap();
    drop(cut);
    let mut silent = raw(&sink);
    let mut buf = [0u8; 1];
    assert_eq!(silent.read(&mut buf).unwrap(), 0, "an idle connection is closed after the idle limit");
    let mut c = logged_in(&sink);
    let good = batch(&mut c, 0, 3);
    assert_eq!(status_of(&mut c, &good), status::OK);
    assert_eq!(sink.delivery().messages, 3);
}

#[test]
fn a_port_in_use_is_an_error_at_once() {
    let first = sink();
    let second = Sink::spawn(first.addr, SinkSettings::default(), None);
    let message = format!("{:#}", second.err().expect("the port is taken"));
    assert!(message.starts_with(&format!("cannot listen on {}", first.addr)), "{message}");
}

/// Sends one metadata request and returns its reply body, or the status that refused it.
fn metadata(client: &mut Client, operation: Operation, body: &[u8]) -> Result<Vec<u8>, u32> {
    let mut frame = BytesMut::new();
    crate::wire::encode_request_header(&mut frame, &client.next_header(operation));
    frame.extend_from_slice(body);
    crate::wire::patch_size(&mut frame);
    client.request(&frame).map(<[u8]>::to_vec).map_err(|e| status_in(&e))
}

#[test]
fn a_client_creates_a_stream_and_a_topic_and_gets_a_route_per_partition() {
    use crate::wire::command::{GET_CLUSTER_METADATA, GET_PARTITION_ROUTE, GET_STREAM, GET_TOPIC};
    let sink = sink();
    let mut c = logged_in(&sink);
    let by_name = |name: &[u8]| [&[2, name.len() as u8][..], name].concat();
    let stream = by_name(b"mintbench");
    assert_eq!(metadata(&mut c, Operation::NonReplicated(GET_STREAM), &stream), Ok(vec![]), "not found: an empty body");

    let created = metadata(&mut c, Operation::CreateStream, &[&[9][..], b"mintbench"].concat()).unwrap();
    assert_eq!(&created[..8], &[0, 0, 0, 0, 0, 0, 0, 0], "no rejections, then stream id 0");
    let topic_body = [&stream[..], &3u32.to_le_bytes(), &[3], b"ids"].concat();
    let created = metadata(&mut c, Operation::CreateTopic, &topic_body).unwrap();
    assert_eq!(created.len(), 4 + 33 + 3 + 8 + 3 * 66, "result section, topic header, three partitions");
    assert_eq!(metadata(&mut c, Operation::CreateTopic, &topic_body), Err(status::TOPIC_NAME_ALREADY_EXISTS));

    assert!(!metadata(&mut c, Operation::NonReplicated(GET_STREAM), &stream).unwrap().is_empty());
    let topic = [&stream[..], &by_name(b"ids")].concat();
    assert_eq!(metadata(&mut c, Operation::NonReplicated(GET_TOPIC), &topic).unwrap().len(), 33 + 3 + 8 + 3 * 66);
    let route = |p: u32| [&topic[..], &p.to_le_bytes()].concat();
    assert_eq!(metadata(&mut c, Operation::NonReplicated(GET_PARTITION_ROUTE), &route(2)).unwrap().len(), 25);
    assert_eq!(
        metadata(&mut c, Operation::NonReplicated(GET_PARTITION_ROUTE), &route(3)),
        Err(status::PARTITION_NOT_FOUND)
    );
    assert_eq!(
        metadata(&mut c, Operation::NonReplicated(GET_TOPIC), &stream),
        Err(status::COMMAND_LENGTH_ERROR),
        "truncated"
    );

    let roster = metadata(&mut c, Operation::NonReplicated(GET_CLUSTER_METADATA), &[]).unwrap();
    let port_at = roster.len() - 10;
    assert_eq!(u16::from_le_bytes([roster[port_at], roster[port_at + 1]]), sink.addr.port(), "the node is the sink");
}

#[test]
fn connections_past_the_limit_are_closed_and_the_sink_goes_on() {
    let settings = SinkSettings { idle_timeout: Duration::from_secs(5), max_connections: 3, ..SinkSettings::default() };
    let sink = Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, Some(spec())).unwrap();
    let held: Vec<Client> = (0..3).map(|_| logged_in(&sink)).collect();
    let mut extra = raw(&sink);
    assert_eq!(extra.read(&mut [0u8; 1]).unwrap(), 0, "the fourth connection is closed on arrival");
    drop(held);
    let c = (0..100).find_map(|_| {
        std::thread::sleep(Duration::from_millis(20));
        let mut c = Client::connect(&sink.addr.to_string()).ok()?;
        c.login("mintbench-test").ok().map(|_| c)
    });
    let mut c = c.expect("served again once the others left");
    let good = batch(&mut c, 0, 3);
    assert_eq!(status_of(&mut c, &good), status::OK);
}

#[test]
fn a_payload_unlike_the_contract_gets_a_payload_status() {
    let sink = sink();
    let mut c = logged_in(&sink);
    let longer = batch_to(&mut c, &TARGET, 0, 3, &PayloadSpec::new(42, 2).unwrap());
    assert_eq!(status_of(&mut c, &longer), status::INVALID_MESSAGE_PAYLOAD_LENGTH);
    let same_length = batch_to(&mut c, &TARGET, 0, 3, &PayloadSpec::new(47, 1).unwrap());
    assert_eq!(status_of(&mut c, &same_length), status::INVALID_FORMAT);
    let d = sink.delivery();
    assert_eq!((d.unexpected_payloads, d.messages, d.rejected_frames), (6, 0, 0));
}

#[test]
fn an_unverified_connection_counts_what_it_delivered() {
    let settings = SinkSettings { idle_timeout: Duration::from_secs(2), ..SinkSettings::default() };
    let sink = Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, None).unwrap();
    let mut c = logged_in(&sink);
    let own = batch_to(&mut c, &TARGET, 7, 20, &PayloadSpec::new(8, 3).unwrap());
    assert_eq!(status_of(&mut c, &own), status::OK);
    assert_eq!(sink.delivery().messages, 20);
}

/// Batch `i` to partition `i % 2`, each partition numbered from 0; `lose` is never sent.
fn two_partitions(sink: &Sink, batches: u64, lose: Option<u64>) -> Vec<u32> {
    let mut c = logged_in(sink);
    let mut next = [0u64; 2];
    let mut statuses = Vec::new();
    for i in 0..batches {
        let p = (i % 2) as usize;
        let target = SendTarget { partition: p as u32, ..TARGET };
        let frame = batch_to(&mut c, &target, next[p], 10, &spec());
        next[p] += 10;
        if lose != Some(i) {
            statuses.push(status_of(&mut c, &frame));
        }
    }
    statuses
}

#[test]
fn each_partition_is_its_own_sequence() {
    let sink = sink();
    assert!(two_partitions(&sink, 6, None).iter().all(|&s| s == status::OK));
    let d = sink.delivery();
    assert_eq!(d.delivery_problem(60), None, "{d:?}");
    assert_eq!(d.partitions.iter().map(|p| (p.partition, p.messages)).collect::<Vec<_>>(), [(0, 30), (1, 30)]);
}

#[test]
fn a_batch_lost_on_one_partition_fails_the_run_naming_that_partition() {
    let sink = sink();
    let statuses = two_partitions(&sink, 6, Some(1));
    assert_eq!(statuses, [0, 0, status::PRODUCER_SEQUENCE_OUT_OF_ORDER, 0, 0], "partition 0 goes on unharmed");
    let problem = sink.delivery().delivery_problem(60).expect("a lost batch is a failed run");
    assert_eq!(problem, "sink received 50 of 60 messages (partition 0: 30, partition 1: 20), 10 lost on partition 1");
}

#[test]
fn a_partition_past_the_limit_is_not_found() {
    let sink = sink();
    let mut c = logged_in(&sink);
    let far = batch_to(&mut c, &SendTarget { partition: super::catalog::MAX_PARTITIONS, ..TARGET }, 0, 1, &spec());
    assert_eq!(status_of(&mut c, &far), status::PARTITION_NOT_FOUND);
}

fn login_frame(version: u32) -> Vec<u8> {
    let mut frame = BytesMut::new();
    let header = crate::wire::RequestHeader {
        size: 0,
        client: 1,
        request_checksum: 2,
        request: 0,
        operation: Operation::Login,
        session: 0,
    };
    crate::wire::encode_request_header(&mut frame, &header);
    frame.extend_from_slice(&version.to_le_bytes());
    frame.extend_from_slice(&[
        8, b'r', b'u', b's', b't', b'-', b's', b'd', b'k', 0, 4, b'i', b'g', b'g', b'y', 4, b'i', b'g', b'g', b'y', 0,
        0, 0, 0,
    ]);
    crate::wire::patch_size(&mut frame);
    frame.to_vec()
}

/// Sends a login announcing `version` and returns the reply's status and body.
fn login_as(sink: &Sink, version: u32) -> (u32, Vec<u8>) {
    let mut s = raw(sink);
    s.write_all(&login_frame(version)).unwrap();
    let mut head = [0u8; HEADER_LEN];
    s.read_exact(&mut head).unwrap();
    let reply = ReplyHeader::decode(&head);
    let mut body = vec![0u8; reply.body_len().unwrap()];
    s.read_exact(&mut body).unwrap();
    (reply.status, body)
}

#[test]
fn a_login_is_answered_in_its_own_protocol_version() {
    let sink = sink();
    for protocol in [Protocol::V0_11, Protocol::V0_12] {
        let (status, body) = login_as(&sink, protocol.version());
        assert_eq!(status, status::OK);
        assert_eq!(&body[16..20], &protocol.version().to_le_bytes(), "{protocol:?}: the client's version echoed");
    }
    assert_eq!(login_as(&sink, 0x3001).0, status::INCOMPATIBLE_PROTOCOL_VERSION);
}

/// `harness sink` refuses, before it listens, settings with which it could serve nothing.
#[test]
fn settings_that_serve_nothing_are_refused_naming_the_flag() {
    let refused = |settings: SinkSettings, expected: Option<PayloadSpec>| {
        format!("{:#}", Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, expected).err().expect("refused"))
    };
    let d = SinkSettings::default();
    assert_eq!(
        refused(SinkSettings { max_connections: 0, ..d }, Some(spec())),
        "--max-connections 0 is out of range: it must be at least 1"
    );
    assert_eq!(
        refused(SinkSettings { idle_timeout: Duration::ZERO, ..d }, None),
        "--idle-timeout 0 is out of range: it must be at least 1 (seconds)"
    );
    assert_eq!(
        refused(SinkSettings { max_frame: 0, ..d }, Some(spec())),
        "--max-frame 0 is out of range: it must be at least 592 (bytes), the SEND_MESSAGES frame of one message of BITS=42 PACK=1"
    );
    let one_message = crate::wire::send_messages_len(1, &spec()) as u32;
    assert_eq!(one_message, 592);
    assert!(
        refused(SinkSettings { max_frame: one_message - 1, ..d }, Some(spec()))
            .starts_with("--max-frame 591 is out of range")
    );
    assert_eq!(
        refused(SinkSettings { max_frame: HEADER_LEN as u32, ..d }, None),
        "--max-frame 256 is out of range: it must be at least 586 (bytes), the SEND_MESSAGES frame of one message of an empty payload"
    );
}

/// The smallest frame cap `harness sink` allows is enough to log in and deliver a message.
#[test]
fn the_smallest_max_frame_takes_a_login_and_a_batch_of_one() {
    let max_frame = crate::wire::send_messages_len(1, &spec()) as u32;
    let settings = SinkSettings { max_frame, idle_timeout: Duration::from_secs(2), ..SinkSettings::default() };
    let sink = Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, Some(spec())).unwrap();
    let mut c = logged_in(&sink);
    let one = batch(&mut c, 0, 1);
    assert_eq!(one.len(), max_frame as usize);
    assert_eq!(status_of(&mut c, &one), status::OK);
    let two = batch(&mut c, 1, 2);
    assert!(c.request(&two).is_err(), "one message more is above the cap");
    assert_eq!(sink.delivery().messages, 1);
}
