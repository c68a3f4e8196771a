import assert from 'node:assert/strict';
import { test } from 'node:test';
import { payloadLength, writePayload } from './payload.js';
import { hex, vectors } from './vectors.fixture.js';

test('every vector payload, byte for byte', () => {
  assert.ok(vectors.payloads.length > 0);
  for (const { bits, pack, seq, hex: expected } of vectors.payloads) {
    const target = Buffer.alloc(payloadLength(bits, pack));
    assert.equal(writePayload(target, 0, seq, bits, pack), target.length);
    assert.equal(hex(target), expected, `bits ${bits} pack ${pack} seq ${seq}`);
  }
});

test('seq + i wraps around 2^64, and a bigint seq equals a number seq', () => {
  const wrapped = Buffer.alloc(16);
  writePayload(wrapped, 0, 2n ** 64n - 1n, 64, 2);
  assert.equal(hex(wrapped), '5a5a5a5a5a5a5a5aa5a5a5a5a5a5a5a5');
  const fromNumber = Buffer.alloc(25);
  const fromBigint = Buffer.alloc(25);
  writePayload(fromNumber, 0, 2 ** 32 - 2, 33, 5);
  writePayload(fromBigint, 0, 2n ** 32n - 2n, 33, 5);
  assert.equal(hex(fromNumber), hex(fromBigint));
});

test('BITS=42 PACK=167 is a 1,002-byte payload with no run of zeroes', () => {
  assert.equal(payloadLength(42, 167), 1002);
  const target = Buffer.alloc(1002);
  writePayload(target, 0, 123456, 42, 167);
  assert.ok(!/0000/.test(hex(target)));
});
