//! The streams and topics a sink's clients created, in memory, shared by its connections. Only
//! the metadata requests touch it; SEND_MESSAGES does not look its target up, so the hot path
//! stays as lean for the harness's own producers, which never create one.

use std::time::{SystemTime, UNIX_EPOCH};

use bytes::BytesMut;

use crate::wire::{Entity, Identifier, Protocol, status};

/// Bounds on what a client may create, so a hostile one cannot grow the sink without limit.
pub const MAX_STREAMS: usize = 100;
pub const MAX_TOPICS: usize = 100;
pub const MAX_PARTITIONS: u32 = 1000;

#[derive(Default, Debug)]
pub struct Catalog {
    streams: Vec<Stream>,
}

#[derive(Debug)]
struct Stream {
    id: u32,
    name: Vec<u8>,
    created_at: u64,
    topics: Vec<Topic>,
}

#[derive(Debug)]
struct Topic {
    id: u32,
    name: Vec<u8>,
    created_at: u64,
    partitions: u32,
}

/// Which entity an identifier names: numbers are ids (from 0, in creation order), names are
/// names.
fn named(id: &Identifier<'_>, entity_id: u32, name: &[u8]) -> bool {
    match id {
        Identifier::Numeric(n) => *n == entity_id,
        Identifier::Name(n) => *n == name,
    }
}

impl Catalog {
    fn stream(&self, id: &Identifier<'_>) -> Option<&Stream> {
        self.streams.iter().find(|s| named(id, s.id, &s.name))
    }

    fn topic(&self, stream: &Identifier<'_>, topic: &Identifier<'_>) -> Option<&Topic> {
        self.stream(stream)?.topics.iter().find(|t| named(topic, t.id, &t.name))
    }

    /// A GetStreamResponse for the stream, or nothing (an empty body: not found).
    pub fn get_stream(&self, out: &mut BytesMut, protocol: Protocol, id: &Identifier<'_>) {
        if let Some(s) = self.stream(id) {
            protocol.encode_stream(out, &stream_entity(s));
            for t in &s.topics {
                protocol.encode_topic_header(out, &topic_entity(t));
            }
        }
    }

    /// A GetTopicResponse for the topic, or nothing (not found).
    pub fn get_topic(&self, out: &mut BytesMut, protocol: Protocol, stream: &Identifier<'_>, topic: &Identifier<'_>) {
        if let Some(t) = self.topic(stream, topic) {
            protocol.encode_topic(out, &topic_entity(t));
        }
    }

    /// The partitions count of an existing partition's topic, or the status to refuse with.
    pub fn route(&self, stream: &Identifier<'_>, topic: &Identifier<'_>, partition: u32) -> Result<u32, u32> {
        let t = self.topic(stream, topic).ok_or(status::TOPIC_ID_NOT_FOUND)?;
        if partition < t.partitions { Ok(t.partitions) } else { Err(status::PARTITION_NOT_FOUND) }
    }

    /// Creates a stream and writes its StreamResponse, or returns the status to refuse with.
    pub fn create_stream(&mut self, out: &mut BytesMut, protocol: Protocol, name: &[u8]) -> Result<(), u32> {
        if self.streams.iter().any(|s| s.name == name) {
            return Err(status::STREAM_NAME_ALREADY_EXISTS);
        }
        if self.streams.len() >= MAX_STREAMS {
            return Err(status::TOO_MANY_STREAMS);
        }
        let stream =
            Stream { id: self.streams.len() as u32, name: name.to_vec(), created_at: now_micros(), topics: Vec::new() };
        protocol.encode_stream(out, &stream_entity(&stream));
        self.streams.push(stream);
        Ok(())
    }

    /// Creates a topic and writes its GetTopicResponse, or returns the status to refuse with.
    pub fn create_topic(
        &mut self,
        out: &mut BytesMut,
        protocol: Protocol,
        stream: &Identifier<'_>,
        name: &[u8],
        partitions: u32,
    ) -> Result<(), u32> {
        if partitions == 0 || partitions > MAX_PARTITIONS {
            return Err(status::INVALID_PARTITIONS_COUNT);
        }
        let index =
            self.streams.iter().position(|s| named(stream, s.id, &s.name)).ok_or(status::STREAM_ID_NOT_FOUND)?;
        let topics = &mut self.streams[index].topics;
        if topics.iter().any(|t| t.name == name) {
            return Err(status::TOPIC_NAME_ALREADY_EXISTS);
        }
        if topics.len() >= MAX_TOPICS {
            return Err(status::TOO_MANY_TOPICS);
        }
        let topic = Topic { id: topics.len() as u32, name: name.to_vec(), created_at: now_micros(), partitions };
        protocol.encode_topic(out, &topic_entity(&topic));
        topics.push(topic);
        Ok(())
    }
}

fn stream_entity(s: &Stream) -> Entity<'_> {
    Entity { id: s.id, created_at: s.created_at, children: s.topics.len() as u32, messages: 0, name: &s.name }
}

fn topic_entity(t: &Topic) -> Entity<'_> {
    Entity { id: t.id, created_at: t.created_at, children: t.partitions, messages: 0, name: &t.name }
}

fn now_micros() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Protocol = Protocol::V0_12;

    #[test]
    fn streams_and_topics_are_found_by_id_and_by_name() {
        let mut c = Catalog::default();
        let mut out = BytesMut::new();
        c.create_stream(&mut out, P, b"s").unwrap();
        c.create_topic(&mut out, P, &Identifier::Name(b"s"), b"t", 3).unwrap();
        assert_eq!(c.route(&Identifier::Numeric(0), &Identifier::Name(b"t"), 2), Ok(3));
        assert_eq!(c.route(&Identifier::Numeric(0), &Identifier::Numeric(0), 3), Err(status::PARTITION_NOT_FOUND));
        assert_eq!(c.route(&Identifier::Numeric(1), &Identifier::Numeric(0), 0), Err(status::TOPIC_ID_NOT_FOUND));
        out.clear();
        c.get_stream(&mut out, P, &Identifier::Name(b"nope"));
        assert!(out.is_empty(), "not found is an empty body");
        c.get_stream(&mut out, P, &Identifier::Numeric(0));
        assert_eq!(out.len(), (33 + 1 + 8) + (33 + 1 + 8), "the stream and its one topic");
    }

    #[test]
    fn duplicates_and_excess_are_refused() {
        let mut c = Catalog::default();
        let mut out = BytesMut::new();
        c.create_stream(&mut out, P, b"s").unwrap();
        assert_eq!(c.create_stream(&mut out, P, b"s"), Err(status::STREAM_NAME_ALREADY_EXISTS));
        let s = Identifier::Numeric(0);
        assert_eq!(c.create_topic(&mut out, P, &s, b"t", 0), Err(status::INVALID_PARTITIONS_COUNT));
        assert_eq!(c.create_topic(&mut out, P, &s, b"t", MAX_PARTITIONS + 1), Err(status::INVALID_PARTITIONS_COUNT));
        assert_eq!(c.create_topic(&mut out, P, &Identifier::Numeric(9), b"t", 1), Err(status::STREAM_ID_NOT_FOUND));
        c.create_topic(&mut out, P, &s, b"t", 1).unwrap();
        assert_eq!(c.create_topic(&mut out, P, &s, b"t", 1), Err(status::TOPIC_NAME_ALREADY_EXISTS));
        for i in 1..MAX_STREAMS {
            c.create_stream(&mut out, P, format!("s{i}").as_bytes()).unwrap();
        }
        assert_eq!(c.create_stream(&mut out, P, b"one more"), Err(status::TOO_MANY_STREAMS));
    }
}
