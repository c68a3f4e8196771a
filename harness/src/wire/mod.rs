//! The Iggy TCP wire format as our sink and producers speak it (see ../shared/iggy-wire.md and
//! sdks/README.md). Everything is little-endian; a frame is a 256-byte header and a body.

use bytes::BytesMut;

mod header;
mod messages;
mod metadata;
mod payload;

pub use header::{
    HEADER_LEN, Operation, ReplyHeader, RequestHeader, command, encode_reply, encode_request_header,
    patch_size, status,
};
pub use messages::{
    BATCH_HEADER_LEN, BatchError, MESSAGE_HEADER_LEN, SendTarget, decode_send_messages,
    encode_send_messages,
};
pub use metadata::{
    CreateTopic, Entity, Identifier, MetadataError, decode_create_stream, decode_create_topic, decode_get_partition_route,
    decode_get_stream, decode_get_topic, encode_cluster_metadata, encode_entity, encode_partition_route, encode_topic,
};
pub use payload::PayloadSpec;

/// The protocol version our login announces (0.12.2 packed as major<<20 | minor<<10 | patch).
pub const PROTOCOL_VERSION: u32 = (12 << 10) | 2; // major 0

/// Reads a little-endian u32 at `at`; callers have checked the bounds.
pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

pub(crate) fn u128_at(b: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"))
}

/// Body of a LOGIN_REGISTER request as our producers send it.
pub fn encode_login_body(out: &mut BytesMut, sdk_name: &str, sdk_version: &str, user: &str, password: &str) {
    out.extend_from_slice(&PROTOCOL_VERSION.to_le_bytes());
    put_short_str(out, sdk_name);
    put_short_str(out, sdk_version);
    out.extend_from_slice(&[0u8; 32]); // bind secret
    put_short_str(out, user);
    put_short_str(out, password);
    out.extend_from_slice(&0u32.to_le_bytes()); // context length
}

/// Body of a successful LOGIN_REGISTER reply: result section, user, session, version, name.
pub fn encode_login_reply_body(out: &mut BytesMut, user_id: u32, session: u64, server_version: &str) {
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&user_id.to_le_bytes());
    out.extend_from_slice(&session.to_le_bytes());
    out.extend_from_slice(&PROTOCOL_VERSION.to_le_bytes());
    put_short_str(out, server_version);
}

/// The session in a LOGIN_REGISTER reply body, if the body is long enough to hold one.
pub fn login_reply_session(body: &[u8]) -> Option<u64> {
    (body.len() >= 16).then(|| u64_at(body, 8))
}

fn put_short_str(out: &mut BytesMut, s: &str) {
    let len = u8::try_from(s.len()).expect("short strings are at most 255 bytes");
    out.extend_from_slice(&[len]);
    out.extend_from_slice(s.as_bytes());
}
