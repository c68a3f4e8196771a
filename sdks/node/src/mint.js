// The ways a producer can mint the 16-byte message ID it writes into each message frame.
// Every minter has writeId(target, offset): write the next ID's 16 bytes at target[offset..]; the
// pool, the counter and preset also have fill(target, offset, count): the next `count` IDs back to
// back from target[offset], the same IDs in the same order as `count` writeId calls.

import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import { uuidv4 } from 'uuidv7';
import { MESSAGE_ID_BYTES } from './message-id.js';

// Chosen by the pool-size sweep of bench/choices.js: the cost per ID falls as the pool grows up to
// 64 KiB and larger pools measure the same, so the smallest at the floor.
export const DEFAULT_POOL_BYTES = 64 * 1024;

export const STRATEGIES = Object.freeze(['uuid', 'randomuuid', 'fast', 'preset', 'counter']);

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
    case 'counter':
      return new CounterIds();
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

// One randomFillSync per pool amortises the CSPRNG call over many IDs. `randomFill(pool)` is
// randomFillSync but in tests, which give it a stream they can replay.
export class RandomPool {
  constructor(poolBytes = DEFAULT_POOL_BYTES, randomFill = randomFillSync) {
    if (poolBytes < MESSAGE_ID_BYTES || poolBytes % MESSAGE_ID_BYTES !== 0) {
      throw new Error(`pool of ${poolBytes} bytes: must be a positive multiple of ${MESSAGE_ID_BYTES}`);
    }
    this.pool = Buffer.allocUnsafe(poolBytes);
    this.position = poolBytes;
    this.randomFill = randomFill;
  }

  writeId(target, offset) {
    if (this.position === this.pool.length) {
      this.randomFill(this.pool);
      this.position = 0;
    }
    copyId(this.pool, this.position, target, offset);
    this.position += MESSAGE_ID_BYTES;
  }

  // Copied out a pool at a time, refilled as it runs out: the stream writeId walks, in few copies.
  // One randomFillSync straight into the target measured slower (bench/choices.js): each call
  // carries a fixed cost, so a pool larger than a batch takes fewer of them.
  fill(target, offset, count) {
    const end = offset + count * MESSAGE_ID_BYTES;
    for (let at = offset; at < end;) {
      if (this.position === this.pool.length) {
        this.randomFill(this.pool);
        this.position = 0;
      }
      const take = Math.min(end - at, this.pool.length - this.position);
      this.pool.copy(target, at, this.position, this.position + take);
      this.position += take;
      at += take;
    }
  }
}

const U32_WRAP = 2 ** 32;

/**
 * `counter`: a floor to measure against, never a default and never to be shipped. A 128-bit
 * counter from a random start (four u32 words, little-endian), one per minter: IDs are unique
 * within it, but processes are kept apart only by their random starts, and one that sees another's
 * ID can predict the rest.
 */
export class CounterIds {
  constructor(start = randomBytes(MESSAGE_ID_BYTES)) {
    [this.w0, this.w1, this.w2, this.w3] = [0, 4, 8, 12].map((at) => start.readUInt32LE(at));
    this.target = null;
    this.view = null;
  }

  writeId(target, offset) {
    this.fill(target, offset, 1);
  }

  fill(target, offset, count) {
    if (target !== this.target) {
      this.target = target;
      this.view = new DataView(target.buffer, target.byteOffset, target.byteLength);
    }
    const { view } = this;
    let { w0, w1, w2, w3 } = this;
    for (let at = offset, end = offset + count * MESSAGE_ID_BYTES; at < end; at += MESSAGE_ID_BYTES) {
      view.setUint32(at, w0, true);
      view.setUint32(at + 4, w1, true);
      view.setUint32(at + 8, w2, true);
      view.setUint32(at + 12, w3, true);
      if (++w0 === U32_WRAP) {
        w0 = 0;
        if (++w1 === U32_WRAP) {
          w1 = 0;
          if (++w2 === U32_WRAP) {
            w2 = 0;
            w3 = (w3 + 1) % U32_WRAP;
          }
        }
      }
    }
    this.w0 = w0;
    this.w1 = w1;
    this.w2 = w2;
    this.w3 = w3;
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

  fill(target, offset, count) {
    const length = count * MESSAGE_ID_BYTES;
    if (this.position + length > this.ids.length) {
      throw new Error(`preset IDs exhausted: ${count} asked, ${(this.ids.length - this.position) / MESSAGE_ID_BYTES} left`);
    }
    this.ids.copy(target, offset, this.position, this.position + length);
    this.position += length;
  }
}
