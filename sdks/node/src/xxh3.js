// XXH3-64, seed 0: the message and batch checksums of the wire format.
// hash-wasm over @node-rs/xxhash for the lean path: the xxh3 groups of bench/choices.js
// show it no slower on a 6-byte message and faster on 1 KB messages and on batch checksums.

import { createXXHash3 } from 'hash-wasm';

const hasher = await createXXHash3();

/** Hash `data` and write the 64-bit hash little-endian at target[offset..offset + 8]. */
export function writeXxh3(data, target, offset) {
  hasher.init();
  hasher.update(data);
  const bigEndian = hasher.digest('binary');
  for (let i = 0; i < 8; i++) target[offset + i] = bigEndian[7 - i];
}
