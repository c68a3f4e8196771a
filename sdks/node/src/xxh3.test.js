import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeXxh3 } from './xxh3.js';
import { vectors } from './vectors.fixture.js';

function xxh3(data) {
  const target = Buffer.alloc(8);
  writeXxh3(data, target, 0);
  return target.readBigUInt64LE(0).toString();
}

test('XXH3-64 of every sample input', () => {
  assert.ok(vectors.xxh3.length > 0);
  for (const { input_hex, hash } of vectors.xxh3) {
    assert.equal(xxh3(Buffer.from(input_hex, 'hex')), hash, `input of ${input_hex.length / 2} bytes`);
  }
});

test('XXH3-64 of every prefix length 0..=2048', () => {
  const { data_hex, hashes } = vectors.xxh3_prefixes;
  const data = Buffer.from(data_hex, 'hex');
  assert.equal(hashes.length, data.length + 1);
  hashes.forEach((hash, length) => assert.equal(xxh3(data.subarray(0, length)), hash, `prefix of ${length} bytes`));
});

test('writes the hash at the offset and nowhere else', () => {
  const target = Buffer.alloc(24, 0x11);
  writeXxh3(Buffer.from('abc'), target, 8);
  assert.equal(target.readBigUInt64LE(8).toString(), vectors.xxh3.find((v) => v.input_hex === '616263').hash);
  assert.ok(target.subarray(0, 8).every((b) => b === 0x11) && target.subarray(16).every((b) => b === 0x11));
});
