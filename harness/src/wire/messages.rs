//! SEND_MESSAGES bodies: the identifiers, the 256-byte batch header and the message frames, with
//! the XXH3-64 checksums that a server checks.

use bytes::BytesMut;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use super::{HEADER_LEN, PayloadSpec, RequestHeader, encode_request_header, patch_size, status, u32_at, u64_at};

pub const BATCH_HEADER_LEN: usize = 256;
pub const MESSAGE_HEADER_LEN: usize = 48;
/// The stream, topic and partition identifiers (kind, length, u32 each) and the message count.
const METADATA_LEN: usize = 3 * 6 + 4;

const NUMERIC_ID: u8 = 1;
const STRING_ID: u8 = 2;
const PARTITION_ID: u8 = 2;
const BALANCED: u8 = 1;
const MESSAGES_KEY: u8 = 3;

// Batch header offsets.
const ORIGIN_TIMESTAMP_AT: usize = 24;
const BATCH_LENGTH_AT: usize = 32;
const BATCH_CHECKSUM_AT: usize = 40;
const MESSAGE_COUNT_AT: usize = 48;
const PRODUCER_SECTION: std::ops::Range<usize> = 52..72;
const BATCH_RESERVED: std::ops::Range<usize> = 72..256;
/// partition_id, base_offset, base_timestamp, origin_timestamp, batch_length: the u64s the
/// batch checksum starts with.
const CHECKSUMMED_U64S: usize = 40;

// Message header offsets.
const ID_AT: usize = 8;
const OFFSET_DELTA_AT: usize = 24;
const USER_HEADERS_LEN_AT: usize = 32;
const PAYLOAD_LEN_AT: usize = 36;
const RESERVED_AT: usize = 40;

/// Where a batch goes: numeric stream and topic ids and an explicit partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendTarget {
    pub stream: u32,
    pub topic: u32,
    pub partition: u32,
}

/// Bytes of the SEND_MESSAGES request frame `encode_send_messages` writes for `count` messages:
/// the header, the stream, topic and partition, the batch header and every message.
pub fn send_messages_len(count: u32, spec: &PayloadSpec) -> u64 {
    (HEADER_LEN + 4 + METADATA_LEN + BATCH_HEADER_LEN) as u64
        + u64::from(count) * (MESSAGE_HEADER_LEN + spec.len()) as u64
}

/// Appends a complete SEND_MESSAGES request frame for `count` messages numbered from
/// `first_seq`, taking each message's ID from `next_id` in order.
#[allow(clippy::too_many_arguments)]
pub fn encode_send_messages(
    out: &mut BytesMut,
    header: &RequestHeader,
    target: &SendTarget,
    origin_timestamp: u64,
    first_seq: u64,
    count: u32,
    spec: &PayloadSpec,
    mut next_id: impl FnMut() -> [u8; 16],
) {
    let frame_start = out.len();
    encode_request_header(out, header);
    out.extend_from_slice(&(METADATA_LEN as u32).to_le_bytes());
    for (kind, value) in [(NUMERIC_ID, target.stream), (NUMERIC_ID, target.topic), (PARTITION_ID, target.partition)] {
        out.extend_from_slice(&[kind, 4]);
        out.extend_from_slice(&value.to_le_bytes());
    }
    out.extend_from_slice(&count.to_le_bytes());

    let batch_start = out.len();
    out.resize(batch_start + BATCH_HEADER_LEN, 0);
    let payload_len = spec.len();
    let frame_len = MESSAGE_HEADER_LEN + payload_len;
    let mut checksums = Xxh3::new();
    let frames_start = out.len();
    out.resize(frames_start + frame_len * count as usize, 0);
    for (i, frame) in out[frames_start..].chunks_exact_mut(frame_len).enumerate() {
        frame[ID_AT..ID_AT + 16].copy_from_slice(&next_id());
        frame[OFFSET_DELTA_AT..OFFSET_DELTA_AT + 4].copy_from_slice(&(i as u32).to_le_bytes());
        frame[PAYLOAD_LEN_AT..PAYLOAD_LEN_AT + 4].copy_from_slice(&(payload_len as u32).to_le_bytes());
        spec.write(first_seq + i as u64, &mut frame[MESSAGE_HEADER_LEN..]);
        let checksum = xxh3_64(&frame[ID_AT..]);
        frame[..8].copy_from_slice(&checksum.to_le_bytes());
    }

    let batch_length = (BATCH_HEADER_LEN + frame_len * count as usize) as u64;
    let batch = &mut out[batch_start..];
    batch[ORIGIN_TIMESTAMP_AT..ORIGIN_TIMESTAMP_AT + 8].copy_from_slice(&origin_timestamp.to_le_bytes());
    batch[BATCH_LENGTH_AT..BATCH_LENGTH_AT + 8].copy_from_slice(&batch_length.to_le_bytes());
    batch[MESSAGE_COUNT_AT..MESSAGE_COUNT_AT + 4].copy_from_slice(&count.to_le_bytes());
    checksums.update(&batch[..CHECKSUMMED_U64S]);
    checksums.update(&batch[MESSAGE_COUNT_AT..MESSAGE_COUNT_AT + 4]);
    for frame in batch[BATCH_HEADER_LEN..].chunks_exact(frame_len) {
        checksums.update(&frame[..8]);
    }
    let batch_checksum = checksums.digest();
    batch[BATCH_CHECKSUM_AT..BATCH_CHECKSUM_AT + 8].copy_from_slice(&batch_checksum.to_le_bytes());
    patch_size(&mut out[frame_start..]);
}

/// Why a SEND_MESSAGES body was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BatchError {
    #[error("body ends at byte {0}, inside {1}")]
    Truncated(usize, &'static str),
    #[error("metadata length {declared} does not match the {actual} bytes of identifiers, partitioning and count")]
    MetadataLength { declared: u32, actual: usize },
    #[error("invalid {0} identifier")]
    Identifier(&'static str),
    #[error("invalid partitioning kind {kind} with length {len}")]
    Partitioning { kind: u8, len: u8 },
    #[error("message count {declared} in the metadata but {in_batch} in the batch header")]
    CountMismatch { declared: u32, in_batch: u32 },
    #[error("batch length {declared} but {actual} bytes follow the metadata")]
    BatchLength { declared: u64, actual: usize },
    #[error("reserved bytes of {0} are not zero")]
    Reserved(&'static str),
    #[error("message {index} has a user-headers length {len} past the frame")]
    MessageLength { index: u32, len: u64 },
    #[error("message {index} checksum {declared:#x} but its bytes hash to {actual:#x}")]
    MessageChecksum { index: u32, declared: u64, actual: u64 },
    #[error("batch checksum {declared:#x} but its fields hash to {actual:#x}")]
    BatchChecksum { declared: u64, actual: u64 },
    #[error("{0} bytes after the last message")]
    TrailingBytes(usize),
}

impl BatchError {
    pub fn is_checksum(&self) -> bool {
        matches!(self, BatchError::MessageChecksum { .. } | BatchError::BatchChecksum { .. })
    }

    /// The Iggy error code a server answers this refusal with.
    pub fn status(&self) -> u32 {
        match self {
            BatchError::Truncated(..) | BatchError::MetadataLength { .. } => status::COMMAND_LENGTH_ERROR,
            BatchError::Identifier(_) => status::INVALID_IDENTIFIER,
            BatchError::Partitioning { .. } => status::INVALID_FORMAT,
            BatchError::CountMismatch { .. } => status::INVALID_MESSAGES_COUNT,
            BatchError::BatchLength { .. } | BatchError::TrailingBytes(_) => status::INVALID_MESSAGES_SIZE,
            BatchError::Reserved(_) => status::INVALID_RESERVED_FIELD,
            BatchError::MessageLength { .. } => status::INVALID_MESSAGE_PAYLOAD_LENGTH,
            BatchError::MessageChecksum { .. } => status::INVALID_MESSAGE_CHECKSUM,
            BatchError::BatchChecksum { .. } => status::INVALID_BATCH_CHECKSUM,
        }
    }
}

/// A SEND_MESSAGES body whose every count, length, reserved byte and checksum was checked.
#[derive(Debug)]
pub struct ParsedBatch<'a> {
    pub count: u32,
    /// The partition a partition-id batch names; None for balanced or keyed partitioning.
    pub partition: Option<u32>,
    frames: &'a [u8],
}

impl<'a> ParsedBatch<'a> {
    /// Each message's (id, payload), in order.
    pub fn messages(&self) -> impl Iterator<Item = ([u8; 16], &'a [u8])> + 'a {
        let mut rest = self.frames;
        (0..self.count).map(move |_| {
            let payload_len = u32_at(rest, PAYLOAD_LEN_AT) as usize;
            let frame_len = MESSAGE_HEADER_LEN + payload_len + u32_at(rest, USER_HEADERS_LEN_AT) as usize;
            let id = rest[ID_AT..ID_AT + 16].try_into().expect("16 bytes");
            let payload = &rest[MESSAGE_HEADER_LEN..MESSAGE_HEADER_LEN + payload_len];
            rest = &rest[frame_len..];
            (id, payload)
        })
    }
}

/// Reads and checks a SEND_MESSAGES body (the frame after its 256-byte header) as Iggy's server
/// does: identifiers, counts, lengths, reserved bytes and both XXH3-64 checksums.
pub fn decode_send_messages(body: &[u8]) -> Result<ParsedBatch<'_>, BatchError> {
    let mut at = 0;
    let take = |at: &mut usize, n: usize, what: &'static str| -> Result<std::ops::Range<usize>, BatchError> {
        let end = at.checked_add(n).filter(|&e| e <= body.len()).ok_or(BatchError::Truncated(body.len(), what))?;
        let r = *at..end;
        *at = end;
        Ok(r)
    };
    let declared_metadata = u32_at(body, take(&mut at, 4, "metadata length")?.start);
    let metadata_start = at;
    identifier(body, &mut at, "stream", &take)?;
    identifier(body, &mut at, "topic", &take)?;
    let kind_len = take(&mut at, 2, "partitioning")?;
    let (kind, len) = (body[kind_len.start], body[kind_len.start + 1]);
    let valid = match kind {
        BALANCED => len == 0,
        PARTITION_ID => len == 4,
        MESSAGES_KEY => len >= 1,
        _ => false,
    };
    if !valid {
        return Err(BatchError::Partitioning { kind, len });
    }
    let value = take(&mut at, len as usize, "partitioning value")?;
    let partition = (kind == PARTITION_ID).then(|| u32_at(body, value.start));
    let count = u32_at(body, take(&mut at, 4, "messages count")?.start);
    if declared_metadata as usize != at - metadata_start {
        return Err(BatchError::MetadataLength { declared: declared_metadata, actual: at - metadata_start });
    }

    let batch = &body[take(&mut at, BATCH_HEADER_LEN, "batch header")?];
    let in_batch = u32_at(batch, MESSAGE_COUNT_AT);
    if in_batch != count {
        return Err(BatchError::CountMismatch { declared: count, in_batch });
    }
    let batch_length = u64_at(batch, BATCH_LENGTH_AT);
    if batch_length != (body.len() - at + BATCH_HEADER_LEN) as u64 {
        return Err(BatchError::BatchLength { declared: batch_length, actual: body.len() - at + BATCH_HEADER_LEN });
    }
    if batch[BATCH_RESERVED].iter().any(|&b| b != 0) {
        return Err(BatchError::Reserved("the batch header"));
    }

    let mut checksums = Xxh3::new();
    checksums.update(&batch[..CHECKSUMMED_U64S]);
    checksums.update(&batch[MESSAGE_COUNT_AT..MESSAGE_COUNT_AT + 4]);
    if batch[PRODUCER_SECTION].iter().any(|&b| b != 0) {
        checksums.update(&batch[PRODUCER_SECTION]);
    }
    let frames_start = at;
    for index in 0..count {
        let head = &body[take(&mut at, MESSAGE_HEADER_LEN, "a message header")?];
        let rest_len = u64::from(u32_at(head, PAYLOAD_LEN_AT)) + u64::from(u32_at(head, USER_HEADERS_LEN_AT));
        if rest_len > (body.len() - at) as u64 {
            return Err(BatchError::MessageLength { index, len: rest_len });
        }
        if u64_at(head, RESERVED_AT) != 0 {
            return Err(BatchError::Reserved("a message header"));
        }
        let start = at - MESSAGE_HEADER_LEN;
        at += rest_len as usize;
        let declared = u64_at(head, 0);
        let actual = xxh3_64(&body[start + ID_AT..at]);
        if declared != actual {
            return Err(BatchError::MessageChecksum { index, declared, actual });
        }
        checksums.update(&head[..8]);
    }
    if at != body.len() {
        return Err(BatchError::TrailingBytes(body.len() - at));
    }
    let declared = u64_at(batch, BATCH_CHECKSUM_AT);
    let actual = checksums.digest();
    if declared != actual {
        return Err(BatchError::BatchChecksum { declared, actual });
    }
    Ok(ParsedBatch { count, partition, frames: &body[frames_start..] })
}

fn identifier(
    body: &[u8],
    at: &mut usize,
    what: &'static str,
    take: &impl Fn(&mut usize, usize, &'static str) -> Result<std::ops::Range<usize>, BatchError>,
) -> Result<(), BatchError> {
    let kind_len = take(at, 2, what)?;
    let (kind, len) = (body[kind_len.start], body[kind_len.start + 1]);
    let valid = match kind {
        NUMERIC_ID => len == 4,
        STRING_ID => len >= 1,
        _ => false,
    };
    if !valid {
        return Err(BatchError::Identifier(what));
    }
    take(at, len as usize, what).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{HEADER_LEN, Operation};

    const TARGET: SendTarget = SendTarget { stream: 1, topic: 1, partition: 0 };

    fn frame(count: u32, spec: &PayloadSpec) -> BytesMut {
        let header = RequestHeader {
            size: 0,
            client: 7,
            request_checksum: 0,
            request: 1,
            operation: Operation::SendMessages,
            session: 2,
        };
        let mut out = BytesMut::new();
        let mut next = 0u128;
        encode_send_messages(&mut out, &header, &TARGET, 1_700_000_000_000_000, 10, count, spec, || {
            next += 1;
            next.to_le_bytes()
        });
        out
    }

    fn batch_at() -> usize {
        HEADER_LEN + 4 + 22
    }

    fn first_message_at() -> usize {
        batch_at() + BATCH_HEADER_LEN
    }

    #[test]
    fn encoded_batches_decode_with_their_ids_and_payloads() {
        let spec = PayloadSpec::new(42, 2).unwrap();
        let f = frame(3, &spec);
        assert_eq!(f.len(), HEADER_LEN + 4 + 22 + BATCH_HEADER_LEN + 3 * (MESSAGE_HEADER_LEN + 12));
        assert_eq!(send_messages_len(3, &spec), f.len() as u64);
        assert_eq!(u32_at(&f, 48) as usize, f.len(), "size covers the whole frame");
        let parsed = decode_send_messages(&f[HEADER_LEN..]).unwrap();
        assert_eq!(parsed.count, 3);
        let messages: Vec<_> = parsed.messages().collect();
        for (i, (id, payload)) in messages.iter().enumerate() {
            assert_eq!(u128::from_le_bytes(*id), i as u128 + 1);
            assert!(spec.matches(10 + i as u64, payload));
        }
    }

    #[test]
    fn checksums_match_an_independent_xxh3() {
        let spec = PayloadSpec::new(8, 1).unwrap();
        let f = frame(1, &spec);
        let m = first_message_at();
        let msg = &f[m..];
        assert_eq!(u64_at(msg, 0), xxhash_rust::xxh3::xxh3_64(&msg[8..]));
        let batch = &f[batch_at()..m];
        let mut input = batch[..40].to_vec();
        input.extend_from_slice(&batch[48..52]);
        input.extend_from_slice(&msg[..8]);
        assert_eq!(u64_at(batch, 40), xxhash_rust::xxh3::xxh3_64(&input));
    }

    fn refused(mutate: impl FnOnce(&mut BytesMut)) -> BatchError {
        let mut f = frame(2, &PayloadSpec::new(42, 1).unwrap());
        mutate(&mut f);
        decode_send_messages(&f[HEADER_LEN..]).unwrap_err()
    }

    #[test]
    fn a_flipped_payload_bit_fails_the_message_checksum() {
        let at = first_message_at() + MESSAGE_HEADER_LEN;
        assert!(matches!(refused(|f| f[at] ^= 1), BatchError::MessageChecksum { index: 0, .. }));
    }

    #[test]
    fn a_changed_timestamp_fails_the_batch_checksum() {
        let at = batch_at() + ORIGIN_TIMESTAMP_AT;
        assert!(matches!(refused(|f| f[at] ^= 1), BatchError::BatchChecksum { .. }));
    }

    #[test]
    fn a_wrong_count_is_refused() {
        let at = batch_at() - 4;
        assert_eq!(refused(|f| f[at] = 3), BatchError::CountMismatch { declared: 3, in_batch: 2 });
    }

    #[test]
    fn a_short_body_is_refused_at_every_cut() {
        let f = frame(2, &PayloadSpec::new(42, 1).unwrap());
        for cut in HEADER_LEN..f.len() {
            assert!(decode_send_messages(&f[HEADER_LEN..cut]).is_err(), "cut at {cut} was accepted");
        }
    }

    #[test]
    fn non_zero_reserved_bytes_are_refused() {
        let at = batch_at() + 100;
        assert_eq!(refused(|f| f[at] = 1), BatchError::Reserved("the batch header"));
        let at = first_message_at() + RESERVED_AT;
        assert_eq!(refused(|f| f[at] = 1), BatchError::Reserved("a message header"));
    }

    #[test]
    fn a_huge_user_headers_length_is_refused_without_reading_past_the_body() {
        let at = first_message_at() + USER_HEADERS_LEN_AT;
        assert!(matches!(
            refused(|f| f[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes())),
            BatchError::MessageLength { index: 0, .. }
        ));
    }

    #[test]
    fn unknown_partitioning_is_refused() {
        let at = HEADER_LEN + 4 + 12;
        assert_eq!(refused(|f| f[at] = 9), BatchError::Partitioning { kind: 9, len: 4 });
    }

    #[test]
    fn wire_md_states_the_batch_and_message_header_offsets() {
        let batch = crate::wire::wire_md::fields("### Batch header");
        let code = [
            (ORIGIN_TIMESTAMP_AT, "origin_timestamp"),
            (BATCH_LENGTH_AT, "batch_length"),
            (BATCH_CHECKSUM_AT, "batch_checksum"),
            (MESSAGE_COUNT_AT, "message_count"),
            (PRODUCER_SECTION.start, "producer"),
            (BATCH_RESERVED.start, "reserved"),
        ];
        assert_eq!(batch, code.map(|(at, name)| (at, name.to_owned())));
        let message = crate::wire::wire_md::fields("### Message header");
        let code = [
            (0, "checksum"),
            (ID_AT, "id"),
            (OFFSET_DELTA_AT, "offset_delta"),
            (28, "timestamp_delta"),
            (USER_HEADERS_LEN_AT, "user_headers_length"),
            (PAYLOAD_LEN_AT, "payload_length"),
            (RESERVED_AT, "reserved"),
        ];
        assert_eq!(message, code.map(|(at, name)| (at, name.to_owned())));
        assert_eq!(BATCH_RESERVED.end, BATCH_HEADER_LEN);
        assert_eq!(RESERVED_AT + 8, MESSAGE_HEADER_LEN);
    }

    #[test]
    fn a_partition_id_batch_names_its_partition() {
        let header = RequestHeader {
            size: 0,
            client: 7,
            request_checksum: 0,
            request: 1,
            operation: Operation::SendMessages,
            session: 2,
        };
        let mut out = BytesMut::new();
        encode_send_messages(
            &mut out,
            &header,
            &SendTarget { partition: 5, ..TARGET },
            1,
            0,
            1,
            &PayloadSpec::new(8, 1).unwrap(),
            || [1; 16],
        );
        assert_eq!(decode_send_messages(&out[HEADER_LEN..]).unwrap().partition, Some(5));
    }
}
