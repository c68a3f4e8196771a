"""Iggy TCP request frames (sdks/WIRE.md) as the SDK contract fixes them: login,
logout and SEND_MESSAGES with checksummed message frames, plus the reply header fields we read."""

import struct

import xxhash

from payload import value_bytes, value_stream

HEADER_BYTES = 256
MESSAGE_HEADER_BYTES = 48
BATCH_HEADER_BYTES = 256
U64 = (1 << 64) - 1

OP_LOGIN = 1
OP_LOGOUT = 3
OP_SEND_MESSAGES = 160
COMMAND_REQUEST = 5
COMMAND_REPLY = 8

PROTOCOL_VERSION = 0x3002
SDK_NAME = b"mintbench-python"
SDK_VERSION = b"0.1.0"
USERNAME = b"iggy"
PASSWORD = b"iggy"

# Header bytes 48..192: size, view, release, command, replica, (zero), client, request_checksum
# (u128s as low, high u64), timestamp, request, operation, (zero), session.
_REQUEST_HEADER = struct.Struct("<IIIBB66xQQQQQQB7xQ")
_REQUEST_HEADER_AT = 48

# SEND_MESSAGES body up to the batch header: metadata length, stream 1, topic 1 (numeric ids),
# partitioning kind 2 = partition id 0, then the message count.
_SEND_PREFIX = struct.Struct("<IBBIBBIBBII")
_SEND_METADATA_BYTES = _SEND_PREFIX.size - 4
_BATCH_AT = HEADER_BYTES + _SEND_PREFIX.size
# Batch header fields the producer sets: origin_timestamp, batch_length, batch_checksum; then
# message_count at byte 48 of the batch header.
_BATCH_FIELDS = struct.Struct("<QQQI")
_BATCH_FIELDS_AT = _BATCH_AT + 24
# What the batch checksum covers before the message checksums.
_BATCH_SUM_HEAD = struct.Struct("<QQQQQI")
# A message header after its checksum: id, offset_delta, timestamp_delta, user_headers_length,
# payload_length, reserved.
_MESSAGE_FIELDS = struct.Struct("<16sIIIIQ")
_CHECKSUM = struct.Struct("<Q")

_REPLY_SIZE = struct.Struct("<I")
_REPLY_COMMAND_AT = 60
_REPLY_REQUEST = struct.Struct("<Q")
_REPLY_REQUEST_AT = 200
_REPLY_OPERATION_AT = 208
_REPLY_STATUS = struct.Struct("<I")
_REPLY_STATUS_AT = 216
_LOGIN_SESSION = struct.Struct("<Q")
_LOGIN_SESSION_AT = 8


def write_request_header(buf, body_bytes, client, request, operation, session, request_checksum=0):
    """Fills the header fields of a request in `buf`, whose other header bytes must be zero."""
    _REQUEST_HEADER.pack_into(
        buf, _REQUEST_HEADER_AT, HEADER_BYTES + body_bytes, 0, 0, COMMAND_REQUEST, 0,
        client & U64, client >> 64, request_checksum & U64, request_checksum >> 64,
        0, request, operation, session)


def _short_string(value):
    return bytes([len(value)]) + value


def encode_login(client, request_checksum, sdk_name=SDK_NAME):
    """LOGIN_REGISTER, always request 0 with no session."""
    body = b"".join([
        struct.pack("<I", PROTOCOL_VERSION), _short_string(sdk_name), _short_string(SDK_VERSION),
        bytes(32), _short_string(USERNAME), _short_string(PASSWORD), struct.pack("<I", 0)])
    frame = bytearray(HEADER_BYTES) + body
    write_request_header(frame, len(body), client, 0, OP_LOGIN, 0, request_checksum)
    return bytes(frame)


def encode_logout(client, request, session):
    frame = bytearray(HEADER_BYTES)
    write_request_header(frame, 0, client, request, OP_LOGOUT, session)
    return bytes(frame)


class SendMessagesEncoder:
    """Builds SEND_MESSAGES frames of up to `capacity` messages in one reused buffer. Every
    message's ID, header, payload and checksum are written per message, as a real SDK does."""

    def __init__(self, client, session, bits, pack, capacity):
        self._client = client
        self._session = session
        self._bits = bits
        self._pack = pack
        self._width = value_bytes(bits)
        self._payload_bytes = pack * self._width
        self._frame_bytes = MESSAGE_HEADER_BYTES + self._payload_bytes
        self._buf = bytearray(_BATCH_AT + BATCH_HEADER_BYTES + capacity * self._frame_bytes)
        self._view = memoryview(self._buf)
        self._capacity = capacity
        self._sum_structs = {}

    def encode(self, request, origin_timestamp, first_seq, ids):
        """The frame of messages first_seq, first_seq+1, ... with the batch's IDs `ids` (16 bytes
        each, one per message, in order), as a view into the reused buffer (valid until the next
        call)."""
        count = len(ids)
        if not 1 <= count <= self._capacity:
            raise ValueError(f"count must be in 1..={self._capacity}, got {count}")
        buf, view = self._buf, self._view
        frame_bytes, payload_bytes, width = self._frame_bytes, self._payload_bytes, self._width
        stream = memoryview(value_stream(self._bits, first_seq, count + self._pack - 1))
        pack_fields, pack_checksum = _MESSAGE_FIELDS.pack_into, _CHECKSUM.pack_into
        xxh3 = xxhash.xxh3_64_intdigest
        checksums = []
        add_checksum = checksums.append
        start = _BATCH_AT + BATCH_HEADER_BYTES
        for index, message_id in enumerate(ids):
            end = start + frame_bytes
            pack_fields(buf, start + 8, message_id, index, 0, 0, payload_bytes, 0)
            at = index * width
            buf[start + MESSAGE_HEADER_BYTES:end] = stream[at:at + payload_bytes]
            checksum = xxh3(view[start + 8:end])
            pack_checksum(buf, start, checksum)
            add_checksum(checksum)
            start = end

        batch_bytes = BATCH_HEADER_BYTES + count * frame_bytes
        batch_sum = self._batch_sum_struct(count).pack(
            0, 0, 0, origin_timestamp, batch_bytes, count, *checksums)
        _BATCH_FIELDS.pack_into(
            buf, _BATCH_FIELDS_AT, origin_timestamp, batch_bytes, xxh3(batch_sum), count)
        _SEND_PREFIX.pack_into(
            buf, HEADER_BYTES, _SEND_METADATA_BYTES, 1, 4, 1, 1, 4, 1, 2, 4, 0, count)
        write_request_header(
            buf, start - HEADER_BYTES, self._client, request, OP_SEND_MESSAGES, self._session)
        return view[:start]

    def _batch_sum_struct(self, count):
        # Only two counts occur in a run (BATCH and the last batch), so caching is cheap.
        packer = self._sum_structs.get(count)
        if packer is None:
            packer = self._sum_structs[count] = struct.Struct(f"{_BATCH_SUM_HEAD.format}{count}Q")
        return packer


class ReplyHeader:
    """The fields of a 256-byte reply header a client checks."""

    __slots__ = ("size", "command", "request", "operation", "status")

    def __init__(self, header):
        self.size = _REPLY_SIZE.unpack_from(header, 48)[0]
        self.command = header[_REPLY_COMMAND_AT]
        self.request = _REPLY_REQUEST.unpack_from(header, _REPLY_REQUEST_AT)[0]
        self.operation = header[_REPLY_OPERATION_AT]
        self.status = _REPLY_STATUS.unpack_from(header, _REPLY_STATUS_AT)[0]


def login_session(body):
    """The session a successful login reply carries."""
    return _LOGIN_SESSION.unpack_from(body, _LOGIN_SESSION_AT)[0]
