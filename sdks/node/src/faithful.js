// The faithful send path: the per-message work of the Iggy Node SDK (`apache-iggy`) at the commit
// before its PR #4076, written from a description of its resolveMessageId,
// serializeMessageFrame and encodeMessagesBatch (README.md, "Lean and faithful"). Every step it
// took per message is kept, since those steps are the cost the ID's share is measured against.
// The application side builds one message object per message, as a user of that SDK does.

import { xxh3 } from '@node-rs/xxhash';
import { uuidv4 } from 'uuidv7';
import {
  BATCH_FIELDS_BYTES, BATCH_HEADER_BYTES, HEADER_BYTES, MESSAGE_HEADER_BYTES, Operation,
  SEND_MESSAGES_METADATA, writeHeader,
} from './frames.js';
import { MESSAGE_ID_BYTES } from './message-id.js';
import { CounterIds, PresetIds, RandomPool } from './mint.js';
import { payloadLength, writePayload } from './payload.js';

export const FAITHFUL_STRATEGIES = Object.freeze(['uuid', 'fast', 'preset', 'counter']);

const U64_MASK = (1n << 64n) - 1n;
const MAX_TIMESTAMP_DELTA = 0xffffffffn;
const NO_USER_HEADERS = Buffer.alloc(0);

/** The SDK's u128 -> 16 bytes little-endian: the low u64, then the high one. */
function u128ToBuf(value) {
  const bytes = Buffer.alloc(MESSAGE_ID_BYTES);
  bytes.writeBigUInt64LE(value & U64_MASK, 0);
  bytes.writeBigUInt64LE(value >> 64n, 8);
  return bytes;
}

// The SDK's serializeMessageId for what its producer passes: no id gives 16 zero bytes, a number
// or bigint its u128. (It also took UUID strings; no arm passes one.) It differs from
// ./message-id.js, the contract's, which takes decimal strings and 16 bytes.
function serializeMessageId(id) {
  if (id === undefined) return Buffer.alloc(MESSAGE_ID_BYTES);
  if (typeof id !== 'number' && typeof id !== 'bigint') throw new Error(`invalid message id: '${id}'`);
  if (id < 0) throw new Error(`invalid message id: '${id}' (numeric id must be >= 0)`);
  return u128ToBuf(typeof id === 'number' ? BigInt(id) : id);
}

/** The SDK's minting of a zero id: a UUIDv4's text, hyphens stripped, through BigInt to u128. */
export function uuidIdMinter(uuidSource = uuidv4) {
  return () => u128ToBuf(BigInt('0x' + uuidSource().replaceAll('-', '')));
}

/**
 * The SDK's resolveMessageId: the id serialized first, then checked for zero over its 16 bytes;
 * a zero id is replaced by `mintZeroId()` (the SDK's UUIDv4 route, or our fast minter's bytes).
 */
export function resolveMessageId(id, mintZeroId) {
  const bytes = serializeMessageId(id);
  return bytes.every((byte) => byte === 0) ? mintZeroId() : bytes;
}

// The SDK's serializeMessageFrame: a buffer of its own per message.
function serializeMessageFrame({ id, payload, userHeaders, originTimestamp }, index, batchOriginTimestamp) {
  if (id.length !== MESSAGE_ID_BYTES) throw new Error(`invalid message id length: ${id.length}`);
  const timestampDelta = originTimestamp - batchOriginTimestamp;
  if (timestampDelta > MAX_TIMESTAMP_DELTA) throw new Error(`message timestamp delta ${timestampDelta} exceeds u32`);
  const frame = Buffer.alloc(MESSAGE_HEADER_BYTES + payload.length + userHeaders.length);
  id.copy(frame, 8);
  frame.writeUInt32LE(index, 24);
  frame.writeUInt32LE(Number(timestampDelta), 28);
  frame.writeUInt32LE(userHeaders.length, 32);
  frame.writeUInt32LE(payload.length, 36);
  payload.copy(frame, MESSAGE_HEADER_BYTES);
  userHeaders.copy(frame, MESSAGE_HEADER_BYTES + payload.length);
  frame.writeBigUInt64LE(xxh3.xxh64(frame.subarray(8)), 0);
  return frame;
}

// The header fields both the batch checksum and the header itself start with.
function writeBatchFields(bytes, header) {
  bytes.writeBigUInt64LE(header.partitionId, 0);
  bytes.writeBigUInt64LE(header.baseOffset, 8);
  bytes.writeBigUInt64LE(header.baseTimestamp, 16);
  bytes.writeBigUInt64LE(header.originTimestamp, 24);
  bytes.writeBigUInt64LE(header.batchLength, 32);
}

function batchChecksum(header, frameChecksums) {
  const fields = Buffer.allocUnsafe(BATCH_FIELDS_BYTES + 8 * frameChecksums.length);
  writeBatchFields(fields, header);
  fields.writeUInt32LE(frameChecksums.length, 40);
  frameChecksums.forEach((checksum, index) => fields.writeBigUInt64LE(checksum, BATCH_FIELDS_BYTES + 8 * index));
  return xxh3.xxh64(fields);
}

function serializeBatchHeader(header) {
  const bytes = Buffer.alloc(BATCH_HEADER_BYTES);
  writeBatchFields(bytes, header);
  bytes.writeBigUInt64LE(header.batchChecksum, 40);
  bytes.writeUInt32LE(header.messageCount, 48);
  return bytes;
}

/** The SDK's encodeMessagesBatch: an array of frames, then the batch header, then one concat. */
export function encodeMessagesBatch(messages) {
  const originTimestamp = messages.reduce(
    (min, message) => (message.originTimestamp < min ? message.originTimestamp : min),
    messages[0].originTimestamp,
  );
  const frames = messages.map((message, index) => serializeMessageFrame(message, index, originTimestamp));
  const framesLength = frames.reduce((sum, frame) => sum + frame.length, 0);
  const header = {
    partitionId: 0n, baseOffset: 0n, baseTimestamp: 0n, originTimestamp,
    batchLength: BigInt(BATCH_HEADER_BYTES + framesLength),
  };
  const checksum = batchChecksum(header, frames.map((frame) => frame.readBigUInt64LE(0)));
  return Buffer.concat([serializeBatchHeader({ ...header, batchChecksum: checksum, messageCount: messages.length }), ...frames]);
}

/**
 * An arm's IDs on the faithful path: `messageId()` is what the application puts in each message
 * object (no id, or a preset bigint), `mintZeroId()` what the SDK mints for a zero one, and
 * `startBatch(messages)`, where present, what the send path calls once per batch before its ids.
 * @param {{ messages?: number, uuidSource?: () => string }} options
 */
export function createFaithfulMinter(name, { messages = 0, uuidSource = uuidv4 } = {}) {
  switch (name) {
    case 'uuid':
      return { messageId: () => undefined, mintZeroId: uuidIdMinter(uuidSource) };
    case 'fast':
      return batchMinter(new RandomPool());
    case 'counter':
      return batchMinter(new CounterIds());
    case 'preset':
      return presetBigints(messages, uuidIdMinter(uuidSource));
    default:
      throw new Error(`MSG_ID=${name} is unknown; expected one of ${FAITHFUL_STRATEGIES.join(', ')}`);
  }
}

// The SDK's path with our minter in place of the UUID: the ids of every message that needs one
// (no id, or zero) filled in one call per batch into a reused buffer, then handed out by offset.
export function batchMinter(source) {
  let ids = Buffer.alloc(0);
  let next = 0;
  let end = 0;
  return {
    messageId: () => undefined,
    startBatch(messages) {
      let zeroIds = 0;
      for (const { id } of messages) if (!id) zeroIds++;
      end = zeroIds * MESSAGE_ID_BYTES;
      if (ids.length < end) ids = Buffer.allocUnsafe(end);
      source.fill(ids, 0, zeroIds);
      next = 0;
    },
    mintZeroId: () => {
      if (next === end) throw new Error('more zero ids than the batch had when it started');
      return ids.subarray(next, (next += MESSAGE_ID_BYTES));
    },
  };
}

// IDs minted with fast before the window and turned into bigints, the form the SDK's API takes for
// a 128-bit id; the SDK's own minting stays behind them for a zero one.
function presetBigints(count, mintZeroId) {
  const { ids: bytes } = PresetIds.mint(count);
  const ids = Array.from({ length: count }, (_, k) => {
    const at = k * MESSAGE_ID_BYTES;
    return (bytes.readBigUInt64LE(at + 8) << 64n) | bytes.readBigUInt64LE(at);
  });
  let next = 0;
  return {
    messageId: () => {
      if (next === ids.length) throw new Error(`preset IDs exhausted after ${ids.length} messages`);
      return ids[next++];
    },
    mintZeroId,
  };
}

/** SEND_MESSAGES requests built the faithful way; the same encode() as SendMessagesEncoder. */
export class FaithfulEncoder {
  constructor({ client, session, bits, pack }) {
    this.client = client;
    this.session = session;
    this.bits = bits;
    this.pack = pack;
    this.payloadBytes = payloadLength(bits, pack);
  }

  encode({ request, originTimestamp, firstSeq, count, minter }) {
    const timestamp = BigInt(originTimestamp);
    const messages = new Array(count);
    for (let index = 0; index < count; index++) {
      const payload = Buffer.allocUnsafe(this.payloadBytes);
      writePayload(payload, 0, firstSeq + index, this.bits, this.pack);
      messages[index] = { id: minter.messageId(), payload, originTimestamp: timestamp };
    }
    return this.sendMessages(request, messages, minter);
  }

  // The SDK's side of a send: each message object mapped to the one it encodes, then the batch.
  sendMessages(request, messages, { startBatch, mintZeroId }) {
    startBatch?.(messages);
    const batch = encodeMessagesBatch(messages.map(({ id, payload, userHeaders, originTimestamp }) => ({
      id: resolveMessageId(id, mintZeroId),
      payload,
      userHeaders: userHeaders ?? NO_USER_HEADERS,
      originTimestamp,
    })));
    const messageCount = Buffer.alloc(4);
    messageCount.writeUInt32LE(messages.length);
    const header = Buffer.alloc(HEADER_BYTES);
    const size = HEADER_BYTES + SEND_MESSAGES_METADATA.length + messageCount.length + batch.length;
    writeHeader(header, { size, client: this.client, request, operation: Operation.SEND_MESSAGES, session: this.session });
    return Buffer.concat([header, SEND_MESSAGES_METADATA, messageCount, batch], size);
  }
}
