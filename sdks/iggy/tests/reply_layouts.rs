//! The sink's replies to the metadata requests, written as the sink writes them for the released
//! client's protocol (0.12), decoded with that client's own response types
//! (`iggy_binary_protocol` 0.11.1-edge.8), field by field.

use bytes::BytesMut;
use harness::wire::{Entity, Protocol, encode_partition_route};
use iggy_binary_protocol::codec::WireDecode;
use iggy_binary_protocol::responses::messages::partition_route::PartitionRouteResponse;
use iggy_binary_protocol::responses::streams::get_stream::GetStreamResponse;
use iggy_binary_protocol::responses::system::get_cluster_metadata::ClusterMetadataResponse;
use iggy_binary_protocol::responses::topics::get_topic::GetTopicResponse;

/// Decodes a whole reply body: every byte must be consumed.
fn decoded<T: WireDecode>(body: &[u8]) -> T {
    let (value, used) = T::decode(body).unwrap();
    assert_eq!(used, body.len(), "the client's decoder reads the whole body");
    value
}

const TOPIC: Entity = Entity { id: 4, created_at: 1_700_000_000_000_000, children: 3, messages: 0, name: b"ids" };

#[test]
fn cluster_metadata_names_one_leader_at_the_sink() {
    let mut out = BytesMut::new();
    Protocol::V0_12.encode_cluster_metadata(&mut out, "mintbench-sink", "127.0.0.1", 8090);
    let m = decoded::<ClusterMetadataResponse>(&out);
    assert_eq!((m.name.as_str(), m.nodes.len()), ("mintbench-sink", 1));
    let node = &m.nodes[0];
    assert_eq!(
        (node.replica_id, node.ip.as_str(), node.tcp_port, node.role, node.status),
        (0, "127.0.0.1", 8090, 0, 0)
    );
}

#[test]
fn a_stream_with_its_topics_decodes() {
    let mut out = BytesMut::new();
    // A GetStream reply: the stream, then a header per topic.
    Protocol::V0_12
        .encode_stream(&mut out, &Entity { id: 2, created_at: 9, children: 1, messages: 0, name: b"mintbench" });
    Protocol::V0_12.encode_topic_header(&mut out, &TOPIC);
    let s = decoded::<GetStreamResponse>(&out);
    assert_eq!(
        (s.stream.id, s.stream.created_at, s.stream.topics_count, s.stream.name.as_str()),
        (2, 9, 1, "mintbench")
    );
    assert_eq!((s.topics[0].id, s.topics[0].partitions_count, s.topics[0].name.as_str()), (4, 3, "ids"));
}

#[test]
fn a_topic_with_its_partitions_decodes() {
    let mut out = BytesMut::new();
    Protocol::V0_12.encode_topic(&mut out, &TOPIC);
    let t = decoded::<GetTopicResponse>(&out);
    assert_eq!((t.topic.id, t.topic.partitions_count, t.topic.name.as_str()), (4, 3, "ids"));
    let ids: Vec<u32> = t.partitions.iter().map(|p| p.id).collect();
    assert_eq!(ids, [0, 1, 2]);
    assert!(t.partitions.iter().all(|p| p.created_at == TOPIC.created_at && p.members.is_empty()));
}

#[test]
fn a_partition_route_names_replica_zero() {
    let mut out = BytesMut::new();
    encode_partition_route(&mut out, 1, 3);
    let r = decoded::<PartitionRouteResponse>(&out);
    assert_eq!((r.incarnation, r.metadata_op, r.view, r.partitions_count, r.primary_replica), (1, 0, 0, 3, 0));
}
