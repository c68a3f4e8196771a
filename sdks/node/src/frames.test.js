import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loginFrame, logoutFrame, SendMessagesEncoder } from './frames.js';
import { serializeMessageId } from './message-id.js';
import { hex, vectors } from './vectors.fixture.js';

const framesOf = (kind) => vectors.frames.filter((frame) => frame.kind === kind);

// A minter that hands out the vector's fixed IDs in order.
function fixedIds(decimals) {
  const ids = decimals.map((decimal) => serializeMessageId(decimal));
  return { writeId: (target, offset) => ids.shift().copy(target, offset) };
}

test('login frames, byte for byte', () => {
  assert.ok(framesOf('login').length > 0);
  for (const vector of framesOf('login')) {
    assert.equal(vector.request, 0);
    assert.equal(vector.session, 0);
    const frame = loginFrame({
      client: BigInt(vector.client),
      requestChecksum: BigInt(vector.request_checksum),
      sdkName: vector.sdk_name,
      username: vector.username,
      password: vector.password,
    });
    assert.equal(hex(frame), vector.hex);
  }
});

test('logout frames, byte for byte', () => {
  assert.ok(framesOf('logout').length > 0);
  for (const vector of framesOf('logout')) {
    const frame = logoutFrame({ client: BigInt(vector.client), request: vector.request, session: BigInt(vector.session) });
    assert.equal(hex(frame), vector.hex);
  }
});

test('send_messages frames, byte for byte', () => {
  assert.ok(framesOf('send_messages').length > 0);
  for (const vector of framesOf('send_messages')) {
    assert.deepEqual([vector.stream, vector.topic, vector.partition], [1, 1, 0], 'the encoder fixes these');
    const encoder = new SendMessagesEncoder({
      client: BigInt(vector.client), session: BigInt(vector.session), bits: vector.bits, pack: vector.pack,
      maxMessages: vector.ids.length,
    });
    const frame = encoder.encode({
      request: vector.request, originTimestamp: vector.origin_timestamp, firstSeq: vector.first_seq,
      count: vector.ids.length, minter: fixedIds(vector.ids),
    });
    assert.equal(hex(frame), vector.hex, `request ${vector.request}`);
  }
});

test('a reused encoder gives a shorter batch the same bytes as a fresh one', () => {
  const [vector] = framesOf('send_messages').filter((v) => v.ids.length > 1);
  const settings = { client: BigInt(vector.client), session: BigInt(vector.session), bits: vector.bits, pack: vector.pack };
  const batch = (encoder, count) => hex(encoder.encode({
    request: vector.request, originTimestamp: vector.origin_timestamp, firstSeq: vector.first_seq,
    count, minter: fixedIds(vector.ids),
  }));
  const reused = new SendMessagesEncoder({ ...settings, maxMessages: vector.ids.length });
  batch(reused, vector.ids.length);
  assert.equal(batch(reused, 1), batch(new SendMessagesEncoder({ ...settings, maxMessages: 1 }), 1));
  assert.throws(() => batch(reused, vector.ids.length + 1), /must be 1..=/);
});
