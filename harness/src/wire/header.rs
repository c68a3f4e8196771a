//! The 256-byte request and reply headers.

use bytes::BytesMut;

use super::{u32_at, u64_at, u128_at};

pub const HEADER_LEN: usize = 256;

const SIZE_AT: usize = 48;
const COMMAND_AT: usize = 60;
const CLIENT_AT: usize = 128;
const REQUEST_CHECKSUM_AT: usize = 144;
const REQUEST_AT: usize = 168;
const OPERATION_AT: usize = 176;
const SESSION_AT: usize = 184;
const CODE_AT: usize = 196;
const PARTITION_INCARNATION_AT: usize = 200;
const REPLY_REQUEST_AT: usize = 200;
const REPLY_OPERATION_AT: usize = 208;
const REPLY_STATUS_AT: usize = 216;

const COMMAND_REQUEST: u8 = 5;
const COMMAND_REPLY: u8 = 8;

/// Command codes carried at byte 196 when the operation is [`Operation::NonReplicated`].
pub mod command {
    pub const PING: u32 = 1;
    pub const GET_CLUSTER_METADATA: u32 = 12;
    pub const GET_PARTITION_ROUTE: u32 = 105;
    pub const GET_STREAM: u32 = 200;
    pub const GET_TOPIC: u32 = 300;
}

/// Reply status codes: Iggy's own error codes (`IggyError` in the released `iggy_common`), so a
/// real client names what the sink refused; 0 is success. sdks/WIRE.md lists when each is sent.
pub mod status {
    pub const OK: u32 = 0;
    pub const INVALID_COMMAND: u32 = 3;
    pub const INVALID_FORMAT: u32 = 4;
    pub const INVALID_IDENTIFIER: u32 = 6;
    pub const PRODUCER_SEQUENCE_OUT_OF_ORDER: u32 = 92;
    pub const STREAM_ID_NOT_FOUND: u32 = 1009;
    pub const STREAM_NAME_ALREADY_EXISTS: u32 = 1012;
    pub const TOO_MANY_STREAMS: u32 = 1020;
    pub const TOPIC_ID_NOT_FOUND: u32 = 2010;
    pub const TOPIC_NAME_ALREADY_EXISTS: u32 = 2013;
    pub const INVALID_PARTITIONS_COUNT: u32 = 2019;
    pub const TOO_MANY_TOPICS: u32 = 2021;
    pub const PARTITION_NOT_FOUND: u32 = 3007;
    pub const INVALID_MESSAGES_COUNT: u32 = 4009;
    pub const INVALID_MESSAGE_PAYLOAD_LENGTH: u32 = 4025;
    pub const INVALID_MESSAGE_CHECKSUM: u32 = 4027;
    pub const COMMAND_LENGTH_ERROR: u32 = 4029;
    pub const INVALID_MESSAGES_SIZE: u32 = 4036;
    pub const INVALID_BATCH_CHECKSUM: u32 = 4039;
    pub const INVALID_RESERVED_FIELD: u32 = 4101;
    pub const INCOMPATIBLE_PROTOCOL_VERSION: u32 = 14003;

    /// Every status the sink sends: code, Iggy's variant name, and what it means from the sink.
    pub const ALL: &[(u32, &str, &str)] = &[
        (OK, "-", "ok"),
        (INVALID_COMMAND, "InvalidCommand", "invalid command"),
        (INVALID_FORMAT, "InvalidFormat", "invalid format"),
        (INVALID_IDENTIFIER, "InvalidIdentifier", "invalid identifier"),
        (
            PRODUCER_SEQUENCE_OUT_OF_ORDER,
            "ProducerSequenceOutOfOrder",
            "messages lost, repeated or reordered on a partition",
        ),
        (STREAM_ID_NOT_FOUND, "StreamIdNotFound", "stream not found"),
        (STREAM_NAME_ALREADY_EXISTS, "StreamNameAlreadyExists", "stream name already exists"),
        (TOO_MANY_STREAMS, "TooManyStreams", "too many streams"),
        (TOPIC_ID_NOT_FOUND, "TopicIdNotFound", "topic not found"),
        (TOPIC_NAME_ALREADY_EXISTS, "TopicNameAlreadyExists", "topic name already exists"),
        (INVALID_PARTITIONS_COUNT, "InvalidPartitionsCount", "invalid partitions count"),
        (TOO_MANY_TOPICS, "TooManyTopics", "too many topics"),
        (PARTITION_NOT_FOUND, "PartitionNotFound", "partition not found"),
        (INVALID_MESSAGES_COUNT, "InvalidMessagesCount", "invalid messages count"),
        (INVALID_MESSAGE_PAYLOAD_LENGTH, "InvalidMessagePayloadLength", "invalid message payload length"),
        (INVALID_MESSAGE_CHECKSUM, "InvalidMessageChecksum", "invalid message checksum"),
        (COMMAND_LENGTH_ERROR, "CommandLengthError", "frame or body length out of bounds"),
        (INVALID_MESSAGES_SIZE, "InvalidMessagesSize", "message bytes do not add up"),
        (INVALID_BATCH_CHECKSUM, "InvalidBatchChecksum", "invalid batch checksum"),
        (INVALID_RESERVED_FIELD, "InvalidReservedField", "a reserved field is not zero"),
        (INCOMPATIBLE_PROTOCOL_VERSION, "IncompatibleProtocolVersion", "protocol version not spoken by the sink"),
    ];

    /// A status in words, for error lines.
    pub fn describe(status: u32) -> &'static str {
        ALL.iter().find(|(code, _, _)| *code == status).map_or("unknown status", |(_, _, words)| words)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Login,
    NonReplicated(u32),
    Logout,
    CreateStream,
    CreateTopic,
    SendMessages,
    Other(u8),
}

impl Operation {
    pub fn code(self) -> u8 {
        match self {
            Operation::Login => 1,
            Operation::NonReplicated(_) => 2,
            Operation::Logout => 3,
            Operation::CreateStream => 128,
            Operation::CreateTopic => 132,
            Operation::SendMessages => 160,
            Operation::Other(op) => op,
        }
    }
}

/// The request header fields a client sets; everything else is zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestHeader {
    pub size: u32,
    pub client: u128,
    pub request_checksum: u128,
    pub request: u64,
    pub operation: Operation,
    pub session: u64,
}

impl RequestHeader {
    /// Reads a request header; `head` must hold at least [`HEADER_LEN`] bytes.
    pub fn decode(head: &[u8]) -> Self {
        let operation = match head[OPERATION_AT] {
            1 => Operation::Login,
            2 => Operation::NonReplicated(u32_at(head, CODE_AT)),
            3 => Operation::Logout,
            128 => Operation::CreateStream,
            132 => Operation::CreateTopic,
            160 => Operation::SendMessages,
            op => Operation::Other(op),
        };
        RequestHeader {
            size: u32_at(head, SIZE_AT),
            client: u128_at(head, CLIENT_AT),
            request_checksum: u128_at(head, REQUEST_CHECKSUM_AT),
            request: u64_at(head, REQUEST_AT),
            operation,
            session: u64_at(head, SESSION_AT),
        }
    }
}

/// Appends a request header with `size` 0; [`patch_size`] sets it once the body is written.
pub fn encode_request_header(out: &mut BytesMut, h: &RequestHeader) {
    let start = out.len();
    out.resize(start + HEADER_LEN, 0);
    let head = &mut out[start..];
    head[SIZE_AT..SIZE_AT + 4].copy_from_slice(&h.size.to_le_bytes());
    head[COMMAND_AT] = COMMAND_REQUEST;
    head[CLIENT_AT..CLIENT_AT + 16].copy_from_slice(&h.client.to_le_bytes());
    head[REQUEST_CHECKSUM_AT..REQUEST_CHECKSUM_AT + 16].copy_from_slice(&h.request_checksum.to_le_bytes());
    head[REQUEST_AT..REQUEST_AT + 8].copy_from_slice(&h.request.to_le_bytes());
    head[OPERATION_AT] = h.operation.code();
    head[SESSION_AT..SESSION_AT + 8].copy_from_slice(&h.session.to_le_bytes());
    if let Operation::NonReplicated(code) = h.operation {
        head[CODE_AT..CODE_AT + 4].copy_from_slice(&code.to_le_bytes());
    }
    head[PARTITION_INCARNATION_AT..PARTITION_INCARNATION_AT + 8].copy_from_slice(&0u64.to_le_bytes());
}

/// Sets the size field of the frame that starts at `frame[0]` to the frame's whole length.
pub fn patch_size(frame: &mut [u8]) {
    let size = u32::try_from(frame.len()).expect("frames are below 4 GiB");
    frame[SIZE_AT..SIZE_AT + 4].copy_from_slice(&size.to_le_bytes());
}

/// What a client reads from a reply header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplyHeader {
    pub size: u32,
    pub command: u8,
    pub request: u64,
    pub operation: u8,
    pub status: u32,
}

impl ReplyHeader {
    pub fn decode(head: &[u8]) -> Self {
        ReplyHeader {
            size: u32_at(head, SIZE_AT),
            command: head[COMMAND_AT],
            request: u64_at(head, REPLY_REQUEST_AT),
            operation: head[REPLY_OPERATION_AT],
            status: u32_at(head, REPLY_STATUS_AT),
        }
    }

    pub fn body_len(&self) -> Option<usize> {
        (self.size as usize).checked_sub(HEADER_LEN)
    }

    pub fn is_reply(&self) -> bool {
        self.command == COMMAND_REPLY
    }
}

/// Appends a whole reply frame: header echoing `request`'s number and operation, then `body`.
pub fn encode_reply(out: &mut BytesMut, request: &RequestHeader, status: u32, body: &[u8]) {
    let start = out.len();
    out.resize(start + HEADER_LEN, 0);
    out.extend_from_slice(body);
    let frame = &mut out[start..];
    patch_size(frame);
    frame[COMMAND_AT] = COMMAND_REPLY;
    frame[REPLY_REQUEST_AT..REPLY_REQUEST_AT + 8].copy_from_slice(&request.request.to_le_bytes());
    frame[REPLY_OPERATION_AT] = request.operation.code();
    frame[REPLY_STATUS_AT..REPLY_STATUS_AT + 4].copy_from_slice(&status.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_header_round_trips_every_field() {
        let h = RequestHeader {
            size: 0,
            client: 0x0123_4567_89ab_cdef_0011_2233_4455_6677,
            request_checksum: 99,
            request: 7,
            operation: Operation::NonReplicated(command::PING),
            session: 42,
        };
        let mut buf = BytesMut::new();
        encode_request_header(&mut buf, &h);
        buf.extend_from_slice(b"body");
        patch_size(&mut buf);
        assert_eq!(buf.len(), HEADER_LEN + 4);
        let back = RequestHeader::decode(&buf);
        assert_eq!(back, RequestHeader { size: 260, ..h });
        assert_eq!(buf[60], 5, "command byte marks a request");
        assert_eq!(&buf[196..200], &1u32.to_le_bytes(), "PING's code sits at byte 196");
    }

    #[test]
    fn command_code_is_written_only_for_non_replicated_operations() {
        let mut buf = BytesMut::new();
        let h = RequestHeader {
            size: 0,
            client: 1,
            request_checksum: 0,
            request: 1,
            operation: Operation::SendMessages,
            session: 1,
        };
        encode_request_header(&mut buf, &h);
        assert_eq!(buf[176], 160);
        assert_eq!(&buf[196..200], &[0, 0, 0, 0]);
    }

    #[test]
    fn reply_echoes_request_and_operation() {
        let req = RequestHeader {
            size: 256,
            client: 1,
            request_checksum: 0,
            request: 9,
            operation: Operation::SendMessages,
            session: 3,
        };
        let mut buf = BytesMut::new();
        encode_reply(&mut buf, &req, status::INVALID_MESSAGE_CHECKSUM, &[1, 2, 3]);
        let r = ReplyHeader::decode(&buf);
        assert_eq!(
            r,
            ReplyHeader { size: 259, command: 8, request: 9, operation: 160, status: status::INVALID_MESSAGE_CHECKSUM }
        );
        assert_eq!(r.body_len(), Some(3));
        assert!(r.is_reply());
    }

    #[test]
    fn wire_md_states_the_header_offsets() {
        let request = [
            ("size", SIZE_AT),
            ("command", COMMAND_AT),
            ("client", CLIENT_AT),
            ("request_checksum", REQUEST_CHECKSUM_AT),
            ("request", REQUEST_AT),
            ("operation", OPERATION_AT),
            ("session", SESSION_AT),
            ("code", CODE_AT),
            ("partition_incarnation", PARTITION_INCARNATION_AT),
        ];
        let reply = [
            ("size", SIZE_AT),
            ("command", COMMAND_AT),
            ("request", REPLY_REQUEST_AT),
            ("operation", REPLY_OPERATION_AT),
            ("status", REPLY_STATUS_AT),
        ];
        for (heading, code) in [("### Request header", &request[..]), ("### Reply header", &reply[..])] {
            let stated = crate::wire::wire_md::fields(heading);
            let expected: Vec<(usize, String)> = code.iter().map(|(name, at)| (*at, name.to_string())).collect();
            assert_eq!(stated, expected, "{heading}");
        }
    }

    #[test]
    fn wire_md_states_the_operations_commands_and_statuses() {
        let operations: Vec<u32> = crate::wire::wire_md::numbered("### Operations").iter().map(|(op, _)| *op).collect();
        let code = [
            Operation::Login,
            Operation::NonReplicated(0),
            Operation::Logout,
            Operation::CreateStream,
            Operation::CreateTopic,
            Operation::SendMessages,
        ];
        assert_eq!(operations, code.map(|op| u32::from(op.code())));
        let commands = crate::wire::wire_md::numbered("### Non-replicated commands");
        let code = [
            (command::PING, "PING"),
            (command::GET_CLUSTER_METADATA, "GET_CLUSTER_METADATA"),
            (command::GET_PARTITION_ROUTE, "GET_PARTITION_ROUTE"),
            (command::GET_STREAM, "GET_STREAM"),
            (command::GET_TOPIC, "GET_TOPIC"),
        ];
        assert_eq!(commands, code.map(|(c, name)| (c, name.to_owned())));
        let statuses = crate::wire::wire_md::numbered("### Status codes");
        let code: Vec<(u32, String)> = status::ALL
            .iter()
            .map(|(c, name, _)| (*c, if *name == "-" { "-".to_owned() } else { format!("`{name}`") }))
            .collect();
        assert_eq!(statuses, code);
    }
}
