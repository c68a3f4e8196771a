// Request frames of the Iggy TCP protocol (sdks/WIRE.md) as the contract fixes them
// (sdks/README.md, "The bytes"): a 256-byte header and a body.

import { payloadLength, writePayload } from './payload.js';
import { writeXxh3 } from './xxh3.js';

export const HEADER_BYTES = 256;
export const Operation = Object.freeze({ LOGIN_REGISTER: 1, LOGOUT: 3, SEND_MESSAGES: 160 });

const PROTOCOL_VERSION = 0x3002; // 0.12.2 as major << 20 | minor << 10 | patch
const SDK_NAME = 'mintbench-node';
const SDK_VERSION = '0.1.0';
const BIND_SECRET_BYTES = 32;
const COMMAND_REQUEST = 5;

const U64_MASK = (1n << 64n) - 1n;

function writeU128(frame, offset, value) {
  frame.writeBigUInt64LE(value & U64_MASK, offset);
  frame.writeBigUInt64LE(value >> 64n, offset + 8);
}

/**
 * @param {{ size: number, client: bigint, requestChecksum?: bigint, request: number|bigint,
 *           operation: number, session?: bigint }} header
 */
export function writeHeader(frame, { size, client, requestChecksum = 0n, request, operation, session = 0n }) {
  frame.writeUInt32LE(size, 48);
  frame[60] = COMMAND_REQUEST;
  writeU128(frame, 128, client);
  writeU128(frame, 144, requestChecksum);
  frame.writeBigUInt64LE(BigInt(request), 168);
  frame[176] = operation;
  frame.writeBigUInt64LE(session, 184);
}

function shortString(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.of(bytes.length), bytes]);
}

/** LOGIN_REGISTER: always request 0, before any session exists. */
export function loginFrame({ client, requestChecksum, sdkName = SDK_NAME, username = 'iggy', password = 'iggy' }) {
  const version = Buffer.alloc(4);
  version.writeUInt32LE(PROTOCOL_VERSION);
  const body = Buffer.concat([
    version,
    shortString(sdkName),
    shortString(SDK_VERSION),
    Buffer.alloc(BIND_SECRET_BYTES),
    shortString(username),
    shortString(password),
    Buffer.alloc(4), // context length 0, no context
  ]);
  const frame = Buffer.alloc(HEADER_BYTES + body.length);
  writeHeader(frame, { size: frame.length, client, requestChecksum, request: 0, operation: Operation.LOGIN_REGISTER });
  body.copy(frame, HEADER_BYTES);
  return frame;
}

export function logoutFrame({ client, request, session }) {
  const frame = Buffer.alloc(HEADER_BYTES);
  writeHeader(frame, { size: frame.length, client, request, operation: Operation.LOGOUT, session });
  return frame;
}

// Body layout of SEND_MESSAGES: metadata length, stream 1, topic 1, partition id 0, message count,
// then the 256-byte batch header and the message frames.
const METADATA_BYTES = 22; // 3 identifiers of 6 bytes, then the u32 message count
/** The body's first bytes, the same in every SEND_MESSAGES request; the message count follows. */
export const SEND_MESSAGES_METADATA = Buffer.of(
  ...[METADATA_BYTES, 0, 0, 0],
  ...[1, 4, 1, 0, 0, 0], // stream: numeric, 4 bytes, 1
  ...[1, 4, 1, 0, 0, 0], // topic: numeric, 4 bytes, 1
  ...[2, 4, 0, 0, 0, 0], // partitioning: partition id, 4 bytes, 0
);
const MESSAGE_COUNT_AT = HEADER_BYTES + SEND_MESSAGES_METADATA.length;
const BATCH_AT = MESSAGE_COUNT_AT + 4;
export const BATCH_HEADER_BYTES = 256;
const MESSAGES_AT = BATCH_AT + BATCH_HEADER_BYTES;
export const MESSAGE_HEADER_BYTES = 48;
// The batch checksum covers partition_id, base_offset, base_timestamp, origin_timestamp,
// batch_length (u64 each) and message_count (u32), then each message's checksum.
export const BATCH_FIELDS_BYTES = 44;

/**
 * Builds SEND_MESSAGES frames for one connection into one reused buffer: a frame must not be
 * encoded again before the reply to the previous one, which one request in flight guarantees.
 */
export class SendMessagesEncoder {
  constructor({ client, session, bits, pack, maxMessages }) {
    this.bits = bits;
    this.pack = pack;
    this.payloadBytes = payloadLength(bits, pack);
    this.messageBytes = MESSAGE_HEADER_BYTES + this.payloadBytes;
    this.frame = Buffer.alloc(MESSAGES_AT + maxMessages * this.messageBytes);
    this.checksumInput = Buffer.alloc(BATCH_FIELDS_BYTES + 8 * maxMessages);
    this.maxMessages = maxMessages;
    writeHeader(this.frame, { size: 0, client, request: 0, operation: Operation.SEND_MESSAGES, session });
    SEND_MESSAGES_METADATA.copy(this.frame, HEADER_BYTES);
  }

  /**
   * Encodes `count` messages numbered from `firstSeq`, each with an ID from `minter`.
   * @returns {Buffer} the frame, a view into the reused buffer
   */
  encode({ request, originTimestamp, firstSeq, count, minter }) {
    if (count < 1 || count > this.maxMessages) {
      throw new RangeError(`batch of ${count} messages: must be 1..=${this.maxMessages}`);
    }
    const { frame, checksumInput, messageBytes } = this;
    const batchLength = BATCH_HEADER_BYTES + count * messageBytes;
    const size = MESSAGES_AT + count * messageBytes;
    frame.writeUInt32LE(size, 48);
    frame.writeBigUInt64LE(BigInt(request), 168);
    frame.writeUInt32LE(count, MESSAGE_COUNT_AT);

    let offset = MESSAGES_AT;
    for (let index = 0; index < count; index++) {
      minter.writeId(frame, offset + 8);
      frame.writeUInt32LE(index, offset + 24); // offset_delta
      frame.writeUInt32LE(0, offset + 28); // timestamp_delta
      frame.writeUInt32LE(0, offset + 32); // user_headers_length
      frame.writeUInt32LE(this.payloadBytes, offset + 36);
      frame.writeUInt32LE(0, offset + 40); // reserved u64
      frame.writeUInt32LE(0, offset + 44);
      const end = writePayload(frame, offset + MESSAGE_HEADER_BYTES, firstSeq + index, this.bits, this.pack);
      writeXxh3(frame.subarray(offset + 8, end), frame, offset);
      const checksumAt = BATCH_FIELDS_BYTES + 8 * index;
      for (let i = 0; i < 8; i++) checksumInput[checksumAt + i] = frame[offset + i];
      offset = end;
    }

    // partition_id, base_offset, base_timestamp stay 0 in both the batch header and checksumInput.
    checksumInput.writeBigUInt64LE(BigInt(originTimestamp), 24);
    checksumInput.writeBigUInt64LE(BigInt(batchLength), 32);
    checksumInput.writeUInt32LE(count, 40);
    checksumInput.copy(frame, BATCH_AT + 24, 24, 40); // origin_timestamp, batch_length
    writeXxh3(checksumInput.subarray(0, BATCH_FIELDS_BYTES + 8 * count), frame, BATCH_AT + 40);
    frame.writeUInt32LE(count, BATCH_AT + 48);
    return frame.subarray(0, size);
  }
}
