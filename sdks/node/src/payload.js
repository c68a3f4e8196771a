// Payload of message `seq`: PACK values, value i = ((seq + i) XOR 0xA5A5A5A5A5A5A5A5) & (2^BITS - 1)
// in wrapping u64 arithmetic, each written as its low ceil(BITS/8) bytes, little-endian.
// The u64 is handled as two 32-bit halves so the hot path needs no BigInt.

const TWO_32 = 2 ** 32;
const XOR_HALF = 0xa5a5a5a5;

export function payloadLength(bits, pack) {
  return Math.ceil(bits / 8) * pack;
}

/** @param {number|bigint} seq a u64 */
export function writePayload(target, offset, seq, bits, pack) {
  const [seqHigh, seqLow] = splitU64(seq);
  const valueBytes = Math.ceil(bits / 8);
  const lowMask = bits >= 32 ? 0xffffffff : 2 ** bits - 1;
  const highMask = bits >= 64 ? 0xffffffff : bits > 32 ? 2 ** (bits - 32) - 1 : 0;
  for (let i = 0; i < pack; i++) {
    const lowSum = seqLow + i;
    const low = ((lowSum >>> 0) ^ XOR_HALF) & lowMask;
    const high = (((seqHigh + Math.floor(lowSum / TWO_32)) >>> 0) ^ XOR_HALF) & highMask;
    for (let b = 0; b < valueBytes; b++) {
      target[offset++] = b < 4 ? low >>> (8 * b) : high >>> (8 * (b - 4));
    }
  }
  return offset;
}

function splitU64(seq) {
  if (typeof seq === 'bigint') return [Number(BigInt.asUintN(64, seq) >> 32n), Number(BigInt.asUintN(32, seq))];
  return [Math.floor(seq / TWO_32), seq >>> 0];
}
