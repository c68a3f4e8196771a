//! The metadata requests a real client sends before its first batch (GET_STREAM, CREATE_STREAM,
//! GET_TOPIC, CREATE_TOPIC, GET_PARTITION_ROUTE) and the replies the sink gives them, in each
//! [`Protocol`]'s layout: those of `iggy_binary_protocol` 0.11.0 and 0.11.1-edge.8
//! (ClusterMetadataResponse, StreamResponse, GetStreamResponse, GetTopicResponse,
//! PartitionRouteResponse). The released Rust client's tests decode the 0.12 layouts with that
//! crate; the Python client's test reads the 0.11 ones.

use bytes::{BufMut, BytesMut};

use super::{Protocol, status};

const NUMERIC_ID: u8 = 1;
const STRING_ID: u8 = 2;
/// Bytes of one partition in a GET_TOPIC reply: id, created_at, segments_count, current_offset,
/// size_bytes, messages_count; 0.12 adds the 24-byte partition context and two empty replica
/// lists (a u8 count each).
const PARTITION_COUNTERS_LEN: usize = 4 + 8 + 4 + 8 + 8 + 8;
const PARTITION_CONTEXT_LEN: usize = 24 + 1 + 1;

/// A stream or topic as a request names it: by number or by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identifier<'a> {
    Numeric(u32),
    Name(&'a [u8]),
}

/// Why a metadata request body was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MetadataError {
    #[error("body ends at byte {0}, inside {1}")]
    Truncated(usize, &'static str),
    #[error("invalid {0} identifier")]
    Identifier(&'static str),
    #[error("{0} name must be 1-255 bytes")]
    Name(&'static str),
    #[error("{0} bytes after the request")]
    TrailingBytes(usize),
}

impl MetadataError {
    /// The Iggy error code a server answers this refusal with.
    pub fn status(&self) -> u32 {
        match self {
            MetadataError::Truncated(..) | MetadataError::TrailingBytes(_) => status::COMMAND_LENGTH_ERROR,
            MetadataError::Identifier(_) => status::INVALID_IDENTIFIER,
            MetadataError::Name(_) => status::INVALID_FORMAT,
        }
    }
}

/// A bounds-checked reader over a request body.
struct Reader<'a> {
    body: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], MetadataError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.body.len())
            .ok_or(MetadataError::Truncated(self.body.len(), what))?;
        let bytes = &self.body[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, MetadataError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }

    fn identifier(&mut self, what: &'static str) -> Result<Identifier<'a>, MetadataError> {
        let kind_len = self.take(2, what)?;
        let value = self.take(kind_len[1] as usize, what)?;
        match (kind_len[0], value.len()) {
            (NUMERIC_ID, 4) => Ok(Identifier::Numeric(u32::from_le_bytes(value.try_into().expect("4 bytes")))),
            (STRING_ID, 1..) => Ok(Identifier::Name(value)),
            _ => Err(MetadataError::Identifier(what)),
        }
    }

    /// A u8-length name of 1-255 bytes.
    fn name(&mut self, what: &'static str) -> Result<&'a [u8], MetadataError> {
        let len = self.take(1, what)?[0] as usize;
        if len == 0 {
            return Err(MetadataError::Name(what));
        }
        self.take(len, what)
    }

    fn end(&self) -> Result<(), MetadataError> {
        match self.body.len() - self.at {
            0 => Ok(()),
            n => Err(MetadataError::TrailingBytes(n)),
        }
    }
}

/// GET_STREAM: the stream identifier.
pub fn decode_get_stream(body: &[u8]) -> Result<Identifier<'_>, MetadataError> {
    let mut r = Reader { body, at: 0 };
    let stream = r.identifier("stream")?;
    r.end()?;
    Ok(stream)
}

/// CREATE_STREAM: the name, then an options block the sink ignores.
pub fn decode_create_stream(body: &[u8]) -> Result<&[u8], MetadataError> {
    Reader { body, at: 0 }.name("stream")
}

/// GET_TOPIC: stream and topic identifiers.
pub fn decode_get_topic(body: &[u8]) -> Result<(Identifier<'_>, Identifier<'_>), MetadataError> {
    let mut r = Reader { body, at: 0 };
    let ids = (r.identifier("stream")?, r.identifier("topic")?);
    r.end()?;
    Ok(ids)
}

/// CREATE_TOPIC, as the sink reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreateTopic<'a> {
    pub stream: Identifier<'a>,
    pub partitions: u32,
    pub name: &'a [u8],
}

/// CREATE_TOPIC: stream identifier, partitions count, name, then an options block the sink
/// ignores.
pub fn decode_create_topic(body: &[u8]) -> Result<CreateTopic<'_>, MetadataError> {
    let mut r = Reader { body, at: 0 };
    Ok(CreateTopic { stream: r.identifier("stream")?, partitions: r.u32("partitions count")?, name: r.name("topic")? })
}

/// GET_PARTITION_ROUTE: stream and topic identifiers and the partition id.
pub fn decode_get_partition_route(body: &[u8]) -> Result<(Identifier<'_>, Identifier<'_>, u32), MetadataError> {
    let mut r = Reader { body, at: 0 };
    let route = (r.identifier("stream")?, r.identifier("topic")?, r.u32("partition id")?);
    r.end()?;
    Ok(route)
}

/// What a GET_STREAM or GET_TOPIC reply says of a stream or a topic. `children` is its topics
/// count or its partitions count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entity<'a> {
    pub id: u32,
    pub created_at: u64,
    pub children: u32,
    pub messages: u64,
    pub name: &'a [u8],
}

/// A 0.11 topic's settings, which 0.12 moved into its options: messages never expire, no
/// compression, no size limit (the sink stores nothing).
const NEVER_EXPIRE: u64 = u64::MAX;
const NO_COMPRESSION: u8 = 1;
const UNLIMITED_SIZE: u64 = u64::MAX;

impl Protocol {
    /// The one node of the sink's cluster: the leader, healthy, serving TCP on `port` (0.12
    /// numbers it replica 0).
    pub fn encode_cluster_metadata(self, out: &mut BytesMut, cluster: &str, ip: &str, port: u16) {
        put_u32_str(out, cluster);
        out.put_u32_le(1); // nodes
        if self == Protocol::V0_12 {
            out.put_u8(0); // replica id
        }
        put_u32_str(out, cluster);
        put_u32_str(out, ip);
        out.put_u16_le(port);
        out.put_slice(&[0; 6]); // QUIC, HTTP and WebSocket ports: not served
        out.put_u8(0); // role: leader
        out.put_u8(0); // status: healthy
    }

    /// A StreamResponse: counters, name, empty options blocks (one in 0.11, two in 0.12).
    pub fn encode_stream(self, out: &mut BytesMut, e: &Entity<'_>) {
        out.put_u32_le(e.id);
        out.put_u64_le(e.created_at);
        out.put_u32_le(e.children);
        put_counters_and_name(out, e);
        out.put_u32_le(0); // options
        if self == Protocol::V0_12 {
            out.put_u32_le(0); // derived options
        }
    }

    /// A TopicHeader: counters (0.11 with the topic's settings among them), name, two empty
    /// options blocks.
    pub fn encode_topic_header(self, out: &mut BytesMut, e: &Entity<'_>) {
        out.put_u32_le(e.id);
        out.put_u64_le(e.created_at);
        out.put_u32_le(e.children);
        if self == Protocol::V0_11 {
            out.put_u64_le(NEVER_EXPIRE);
            out.put_u8(NO_COMPRESSION);
            out.put_u64_le(UNLIMITED_SIZE);
        }
        put_counters_and_name(out, e);
        out.put_u32_le(0); // options
        out.put_u32_le(0); // derived options
    }

    /// A GetTopicResponse: the topic header, then each partition, numbered from 0.
    pub fn encode_topic(self, out: &mut BytesMut, topic: &Entity<'_>) {
        self.encode_topic_header(out, topic);
        let len = self.partition_len();
        out.reserve(len * topic.children as usize);
        for id in 0..topic.children {
            out.put_u32_le(id);
            out.put_u64_le(topic.created_at);
            out.put_bytes(0, len - 12);
        }
    }

    pub const fn partition_len(self) -> usize {
        match self {
            Protocol::V0_11 => PARTITION_COUNTERS_LEN,
            Protocol::V0_12 => PARTITION_COUNTERS_LEN + PARTITION_CONTEXT_LEN,
        }
    }
}

/// size_bytes (the sink stores nothing), messages_count and the u8-length name.
fn put_counters_and_name(out: &mut BytesMut, e: &Entity<'_>) {
    out.put_u64_le(0);
    out.put_u64_le(e.messages);
    out.put_u8(u8::try_from(e.name.len()).expect("names are at most 255 bytes"));
    out.put_slice(e.name);
}

/// A PartitionRouteResponse naming replica 0 (the only one) as the partition's primary.
pub fn encode_partition_route(out: &mut BytesMut, incarnation: u64, partitions: u32) {
    out.put_u64_le(incarnation);
    out.put_u64_le(0); // metadata op
    out.put_u32_le(0); // view
    out.put_u32_le(partitions);
    out.put_u8(0); // primary replica
}

fn put_u32_str(out: &mut BytesMut, s: &str) {
    out.put_u32_le(u32::try_from(s.len()).expect("short strings"));
    out.put_slice(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(kind: u8, value: &[u8]) -> Vec<u8> {
        let mut v = vec![kind, value.len() as u8];
        v.extend_from_slice(value);
        v
    }

    #[test]
    fn identifiers_by_number_and_by_name() {
        let mut body = id(1, &7u32.to_le_bytes());
        body.extend(id(2, b"ids"));
        assert_eq!(decode_get_topic(&body), Ok((Identifier::Numeric(7), Identifier::Name(b"ids"))));
    }

    #[test]
    fn malformed_identifiers_are_refused() {
        assert_eq!(decode_get_stream(&id(1, &[1, 2])), Err(MetadataError::Identifier("stream")));
        assert_eq!(decode_get_stream(&id(2, b"")), Err(MetadataError::Identifier("stream")));
        assert_eq!(decode_get_stream(&id(3, b"abcd")), Err(MetadataError::Identifier("stream")));
        assert_eq!(decode_get_stream(&[2, 9, b'a']), Err(MetadataError::Truncated(3, "stream")));
        let mut trailing = id(1, &[0; 4]);
        trailing.push(0);
        assert_eq!(decode_get_stream(&trailing), Err(MetadataError::TrailingBytes(1)));
    }

    #[test]
    fn create_topic_reads_its_fields_and_skips_options() {
        let mut body = id(2, b"mintbench");
        body.extend_from_slice(&3u32.to_le_bytes());
        body.extend_from_slice(&[3, b'i', b'd', b's']);
        body.extend_from_slice(&[9, 9, 9]);
        let t = decode_create_topic(&body).unwrap();
        assert_eq!(t, CreateTopic { stream: Identifier::Name(b"mintbench"), partitions: 3, name: b"ids" });
        assert_eq!(decode_create_topic(&body[..body.len() - 6]), Err(MetadataError::Truncated(16, "topic")));
    }

    #[test]
    fn empty_names_are_refused() {
        assert_eq!(decode_create_stream(&[0]), Err(MetadataError::Name("stream")));
        assert_eq!(decode_create_stream(&[]), Err(MetadataError::Truncated(0, "stream")));
    }

    #[test]
    fn a_topic_reply_holds_each_partition_in_each_layout() {
        let topic = Entity { id: 0, created_at: 5, children: 3, messages: 0, name: b"ids" };
        // 0.11's topic header carries expiry (u64), compression (u8) and maximum size (u64).
        for (protocol, header, partition) in [(Protocol::V0_11, 33 + 17 + 3 + 8, 40), (Protocol::V0_12, 33 + 3 + 8, 66)]
        {
            let mut out = BytesMut::new();
            protocol.encode_topic(&mut out, &topic);
            assert_eq!(out.len(), header + 3 * partition, "{protocol:?}");
            let second = header + partition;
            assert_eq!(&out[second..second + 4], &1u32.to_le_bytes(), "{protocol:?}");
            assert_eq!(&out[second + 4..second + 12], &5u64.to_le_bytes(), "{protocol:?}");
        }
    }

    #[test]
    fn a_stream_has_one_options_block_in_0_11_and_two_in_0_12() {
        let stream = Entity { id: 1, created_at: 5, children: 0, messages: 0, name: b"mintbench" };
        let len = |p: Protocol| {
            let mut out = BytesMut::new();
            p.encode_stream(&mut out, &stream);
            out.len()
        };
        assert_eq!((len(Protocol::V0_11), len(Protocol::V0_12)), (33 + 9 + 4, 33 + 9 + 8));
    }

    #[test]
    fn only_0_12_numbers_the_cluster_node() {
        let len = |p: Protocol| {
            let mut out = BytesMut::new();
            p.encode_cluster_metadata(&mut out, "c", "127.0.0.1", 1);
            out.len()
        };
        assert_eq!(len(Protocol::V0_12) - len(Protocol::V0_11), 1);
    }
}
