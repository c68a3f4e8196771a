//! The Iggy TCP wire format as our sink and producers speak it (sdks/WIRE.md, sdks/README.md).
//! Everything is little-endian; a frame is a 256-byte header and a body.

use bytes::BytesMut;

mod header;
mod messages;
mod metadata;
mod payload;
#[cfg(test)]
mod wire_md;

pub use header::{
    HEADER_LEN, Operation, ReplyHeader, RequestHeader, command, encode_reply, encode_request_header, patch_size, status,
};
pub use messages::{
    BATCH_HEADER_LEN, BatchError, MESSAGE_HEADER_LEN, SendTarget, decode_send_messages, encode_send_messages,
    send_messages_len,
};
pub use metadata::{
    CreateTopic, Entity, Identifier, MetadataError, decode_create_stream, decode_create_topic,
    decode_get_partition_route, decode_get_stream, decode_get_topic, encode_partition_route,
};
pub use payload::PayloadSpec;

/// The largest request frame the sink accepts by default (`harness sink --max-frame`), and so
/// the largest batch a run may send.
pub const MAX_FRAME: u32 = 64 << 20;

/// The protocol version our login announces (0.12.2 packed as major<<20 | minor<<10 | patch).
pub const PROTOCOL_VERSION: u32 = Protocol::V0_12.version();

/// The two releases of Iggy's binary protocol the sink speaks. They share the frames, the login
/// and SEND_MESSAGES, and differ in the layout of the metadata replies; a connection speaks the
/// one its login announces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// 0.11.0: crates.io `iggy` 0.11.0, the core of the Python client `apache-iggy` 0.9.0.
    V0_11,
    /// 0.12.2: crates.io `iggy` 0.11.1-edge.9 and every mintbench producer.
    #[default]
    V0_12,
}

impl Protocol {
    /// Packed as major<<20 | minor<<10 | patch, as a login carries it.
    pub const fn version(self) -> u32 {
        match self {
            Protocol::V0_11 => 11 << 10,
            Protocol::V0_12 => (12 << 10) | 2,
        }
    }

    pub fn from_version(version: u32) -> Option<Protocol> {
        [Protocol::V0_11, Protocol::V0_12].into_iter().find(|p| p.version() == version)
    }
}

/// The protocol version a LOGIN_REGISTER body opens with.
pub fn login_version(body: &[u8]) -> Option<u32> {
    (body.len() >= 4).then(|| u32_at(body, 0))
}

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

/// Body of a successful LOGIN_REGISTER reply: result section, user, session, protocol version
/// (the client's own: released clients accept no other), server name.
pub fn encode_login_reply_body(
    out: &mut BytesMut,
    protocol: Protocol,
    user_id: u32,
    session: u64,
    server_version: &str,
) {
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&user_id.to_le_bytes());
    out.extend_from_slice(&session.to_le_bytes());
    out.extend_from_slice(&protocol.version().to_le_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_login_names_its_protocol() {
        let mut body = BytesMut::new();
        encode_login_body(&mut body, "mintbench-test", "0.1.0", "iggy", "iggy");
        assert_eq!(login_version(&body).and_then(Protocol::from_version), Some(Protocol::V0_12));
        assert_eq!(PROTOCOL_VERSION, 0x3002);
        assert_eq!(Protocol::from_version(0x2c00), Some(Protocol::V0_11));
        assert_eq!(Protocol::from_version(0x3001), None);
        assert_eq!(login_version(&[1, 2]), None);
    }

    #[test]
    fn wire_md_lists_both_protocol_versions() {
        let stated: Vec<(String, String)> =
            wire_md::table("## Releases").into_iter().map(|row| (row[0].clone(), row[1].clone())).collect();
        let code = [("0.12.2", Protocol::V0_12), ("0.11.0", Protocol::V0_11)]
            .map(|(name, p)| (name.to_owned(), format!("`{:#06x}`", p.version())));
        assert_eq!(stated, code);
    }
}
