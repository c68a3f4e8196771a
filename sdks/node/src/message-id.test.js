import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageIdError, serializeMessageId } from './message-id.js';
import { hex, vectors } from './vectors.fixture.js';

test('every vector ID serializes from its decimal string and its bigint', () => {
  assert.ok(vectors.ids.length > 0);
  for (const { decimal, le_hex } of vectors.ids) {
    assert.equal(hex(serializeMessageId(decimal)), le_hex, decimal);
    assert.equal(hex(serializeMessageId(BigInt(decimal))), le_hex, decimal);
    if (Number.isSafeInteger(Number(decimal))) assert.equal(hex(serializeMessageId(Number(decimal))), le_hex, decimal);
  }
});

test('every rejected vector raises an error of its kind', () => {
  assert.ok(vectors.rejected.length > 0);
  for (const { input, kind } of vectors.rejected) {
    assert.throws(() => serializeMessageId(input), (error) => error instanceof MessageIdError && error.kind === kind,
      `${JSON.stringify(input)} should be rejected as ${kind}`);
  }
});

test('a rejection names the input and the bound', () => {
  assert.throws(() => serializeMessageId(-7n), /message id -7n is negative: must be 0 <= id < 2\^128/);
  assert.throws(() => serializeMessageId(1n << 128n), /too large: must be 0 <= id < 2\^128/);
});

test('numbers that are not safe integers are refused, never rounded', () => {
  for (const [input, kind] of [[2 ** 53, 'too_large'], [1e40, 'too_large'], [Infinity, 'too_large'],
    [-Infinity, 'negative'], [NaN, 'invalid'], [0.5, 'not_integer']]) {
    assert.throws(() => serializeMessageId(input), (error) => error.kind === kind, String(input));
  }
  assert.equal(hex(serializeMessageId(Number.MAX_SAFE_INTEGER)), 'ffffffffffff1f000000000000000000');
});

test('16 bytes pass through as a copy; other lengths and types are invalid', () => {
  const bytes = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
  const serialized = serializeMessageId(bytes);
  assert.equal(hex(serialized), hex(bytes));
  bytes[0] = 99;
  assert.equal(serialized[0], 1);
  for (const input of [new Uint8Array(15), Buffer.alloc(17), null, undefined, {}, [1, 2], '0x10', '1e3', '+1', '-1.5']) {
    assert.throws(() => serializeMessageId(input), (error) => error.kind === 'invalid', String(input));
  }
});
