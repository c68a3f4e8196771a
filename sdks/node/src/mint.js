// The ways a producer can mint the 16-byte message ID it writes into each message frame.
// Every minter has writeId(target, offset): write the next ID's 16 bytes at target[offset..].

import { randomFillSync, randomUUID } from 'node:crypto';
import { uuidv4 } from 'uuidv7';
import { MESSAGE_ID_BYTES } from './message-id.js';

// Chosen by the pool-size sweep of bench/choices.js: the cost per ID falls as the pool grows up to
// 64 KiB and larger pools measure the same, so the smallest at the floor.
export const DEFAULT_POOL_BYTES = 64 * 1024;

export const STRATEGIES = Object.freeze(['uuid', 'randomuuid', 'fast', 'preset']);

/** @param {{ messages?: number }} run how many IDs `preset` mints up front */
export function createMinter(name, { messages = 0 } = {}) {
  switch (name) {
    case 'uuid':
      return new UuidTextMinter(uuidv4);
    case 'randomuuid':
      return new UuidTextMinter(randomUUID);
    case 'fast':
      return new RandomPool();
    case 'preset':
      return PresetIds.mint(messages);
    default:
      throw new Error(`MSG_ID=${name} is unknown; expected one of ${STRATEGIES.join(', ')}`);
  }
}

// A plain loop beats Buffer#copy and TypedArray#set for 16 bytes: they cross into C++ or build a view.
function copyId(source, sourceOffset, target, targetOffset) {
  for (let i = 0; i < MESSAGE_ID_BYTES; i++) target[targetOffset + i] = source[sourceOffset + i];
}

// The Iggy Node SDK's path before the fix: UUID text -> bigint -> 32 hex digits -> bytes, reversed
// to little-endian. Kept step for step, since these steps are the cost being measured.
export function uuidTextToLittleEndian(text) {
  const value = BigInt('0x' + text.replaceAll('-', ''));
  return Buffer.from(value.toString(16).padStart(32, '0'), 'hex').reverse();
}

class UuidTextMinter {
  constructor(makeUuid) {
    this.makeUuid = makeUuid;
  }

  writeId(target, offset) {
    copyId(uuidTextToLittleEndian(this.makeUuid()), 0, target, offset);
  }
}

// One randomFillSync per pool amortises the CSPRNG call over many IDs.
export class RandomPool {
  constructor(poolBytes = DEFAULT_POOL_BYTES) {
    if (poolBytes < MESSAGE_ID_BYTES || poolBytes % MESSAGE_ID_BYTES !== 0) {
      throw new Error(`pool of ${poolBytes} bytes: must be a positive multiple of ${MESSAGE_ID_BYTES}`);
    }
    this.pool = Buffer.allocUnsafe(poolBytes);
    this.position = poolBytes;
  }

  writeId(target, offset) {
    if (this.position === this.pool.length) {
      randomFillSync(this.pool);
      this.position = 0;
    }
    copyId(this.pool, this.position, target, offset);
    this.position += MESSAGE_ID_BYTES;
  }
}

// Every ID of a run minted with the fast pool before the first send; the hot path only copies.
export class PresetIds {
  static mint(count) {
    const ids = Buffer.allocUnsafe(count * MESSAGE_ID_BYTES);
    const pool = new RandomPool();
    for (let offset = 0; offset < ids.length; offset += MESSAGE_ID_BYTES) pool.writeId(ids, offset);
    return new PresetIds(ids);
  }

  constructor(ids) {
    this.ids = ids;
    this.position = 0;
  }

  writeId(target, offset) {
    if (this.position === this.ids.length) {
      throw new Error(`preset IDs exhausted after ${this.ids.length / MESSAGE_ID_BYTES} messages`);
    }
    copyId(this.ids, this.position, target, offset);
    this.position += MESSAGE_ID_BYTES;
  }
}
