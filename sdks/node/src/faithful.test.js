import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batchMinter, createFaithfulMinter, FaithfulEncoder, resolveMessageId, uuidIdMinter } from './faithful.js';
import { SendMessagesEncoder } from './frames.js';
import { serializeMessageId } from './message-id.js';
import { hex, vectors } from './vectors.fixture.js';

const sendVectors = vectors.frames.filter((frame) => frame.kind === 'send_messages');

const encoderFor = (vector) => new FaithfulEncoder({
  client: BigInt(vector.client), session: BigInt(vector.session), bits: vector.bits, pack: vector.pack,
});

const encodeVector = (vector, minter) => encoderFor(vector).encode({
  request: vector.request, originTimestamp: vector.origin_timestamp, firstSeq: vector.first_seq,
  count: vector.ids.length, minter,
});

const neverCalled = () => assert.fail('the SDK minted an id for a message that had one');

// The id of each message of a SEND_MESSAGES frame whose payloads are `payloadBytes` long.
function frameIds(frame, count, payloadBytes) {
  const messagesAt = 256 + 22 + 4 + 256;
  return Array.from({ length: count }, (_, i) => {
    const idAt = messagesAt + i * (48 + payloadBytes) + 8;
    return frame.toString('hex', idAt, idAt + 16);
  });
}

test('ids given as bigints, the form the SDK takes: the vector frames byte for byte', () => {
  assert.ok(sendVectors.length > 0);
  for (const vector of sendVectors) {
    const ids = vector.ids.map(BigInt);
    assert.ok(ids.every((id) => id !== 0n), 'a zero id would be replaced');
    const frame = encodeVector(vector, { messageId: () => ids.shift(), mintZeroId: neverCalled });
    assert.equal(hex(frame), vector.hex, `request ${vector.request}`);
  }
});

test('no id, minted by the SDK (uuid, fast): the vector frames byte for byte when it mints the same IDs', () => {
  for (const vector of sendVectors) {
    const ids = vector.ids.map((decimal) => serializeMessageId(decimal));
    const frame = encodeVector(vector, { messageId: () => undefined, mintZeroId: () => ids.shift() });
    assert.equal(hex(frame), vector.hex, `request ${vector.request}`);
    assert.equal(ids.length, 0, 'one mint per message');
  }
});

test('faithful and lean frames are the same bytes for the same IDs, batch after batch', () => {
  const settings = { client: 77n, session: 99n, bits: 42, pack: 167 };
  const lean = new SendMessagesEncoder({ ...settings, maxMessages: 40 });
  const faithful = new FaithfulEncoder(settings);
  const fast = createFaithfulMinter('fast');
  let firstSeq = 0;
  for (const [request, count] of [[1, 40], [2, 40], [3, 7]]) {
    const batch = { request, originTimestamp: 1764460800000000 + request, firstSeq, count };
    const mintedIds = [];
    const faithfulFrame = faithful.encode({
      ...batch,
      minter: { ...fast, mintZeroId: () => mintedIds[mintedIds.push(fast.mintZeroId()) - 1] },
    });
    const leanFrame = lean.encode({ ...batch, minter: { writeId: (target, offset) => mintedIds.shift().copy(target, offset) } });
    assert.equal(hex(faithfulFrame), hex(leanFrame), `request ${request}`);
    firstSeq += count;
  }
});

test('uuid takes the SDK route: one UUIDv4 per message, its hex through BigInt to 16 bytes little-endian', () => {
  let calls = 0;
  const uuidSource = () => {
    calls += 1;
    return `00112233-4455-4677-8899-aabbccdd${calls.toString(16).padStart(4, '0')}`;
  };
  const minter = createFaithfulMinter('uuid', { uuidSource });
  const frame = new FaithfulEncoder({ client: 1n, session: 2n, bits: 42, pack: 1 })
    .encode({ request: 1, originTimestamp: 5, firstSeq: 0, count: 25, minter });
  assert.equal(calls, 25);
  const littleEndian = (call) => Buffer.from(`00112233445546778899aabbccdd${call.toString(16).padStart(4, '0')}`, 'hex').reverse();
  assert.deepEqual(frameIds(frame, 25, 6), Array.from({ length: 25 }, (_, i) => hex(littleEndian(i + 1))));
});

test('the SDK serializes the id first, then mints only for a zero one', () => {
  let mints = 0;
  const mintZeroId = () => {
    mints += 1;
    return Buffer.alloc(16, 0xab);
  };
  for (const id of [undefined, 0, 0n]) assert.equal(hex(resolveMessageId(id, mintZeroId)), 'ab'.repeat(16));
  assert.equal(mints, 3);
  assert.equal(hex(resolveMessageId(2n ** 127n + 1n, mintZeroId)), `01${'00'.repeat(14)}80`);
  assert.equal(hex(resolveMessageId(258, mintZeroId)), `0201${'00'.repeat(14)}`);
  assert.equal(mints, 3);
  assert.throws(() => resolveMessageId(-1n, mintZeroId), /invalid message id: '-1' \(numeric id must be >= 0\)/);
  assert.throws(() => resolveMessageId(Buffer.alloc(16), mintZeroId), /invalid message id/);
  assert.throws(() => resolveMessageId(2n ** 128n, mintZeroId), RangeError);
});

test('the real uuidv4 gives version-4 ids; fast, preset and counter give distinct non-zero ids', () => {
  const uuid = uuidIdMinter();
  for (let i = 0; i < 50; i++) assert.equal(uuid().toString('hex')[18], '4');
  for (const name of ['fast', 'preset', 'counter']) {
    const minter = createFaithfulMinter(name, { messages: 2000, uuidSource: neverCalled });
    const messages = Array.from({ length: 2000 }, () => ({ id: minter.messageId() }));
    minter.startBatch?.(messages);
    const ids = messages.map(({ id }) => hex(resolveMessageId(id, minter.mintZeroId)));
    assert.equal(new Set(ids).size, 2000, name);
    assert.ok(!ids.includes('00'.repeat(16)), name);
  }
});

test('fast and counter fill the ids of a batch\'s zero-id messages in one call, handed out in order', () => {
  const fills = [];
  let next = 0;
  const numbered = {
    fill(target, offset, count) {
      fills.push(count);
      for (let i = 0; i < count; i++) target.fill(++next, offset + 16 * i, offset + 16 * i + 16);
    },
  };
  const minter = batchMinter(numbered);
  const encoder = new FaithfulEncoder({ client: 1n, session: 2n, bits: 42, pack: 1 });
  const given = 2n ** 100n + 5n;
  const ids = [undefined, given, 0n, undefined, 0];
  const first = encoder.sendMessages(1, ids.map((id) => ({ id, payload: Buffer.alloc(6), originTimestamp: 5n })), minter);
  const second = encoder.sendMessages(2, [{ id: undefined, payload: Buffer.alloc(6), originTimestamp: 5n }], minter);
  assert.deepEqual(fills, [4, 1]);
  const byte = (value) => value.toString(16).padStart(2, '0').repeat(16);
  assert.deepEqual(frameIds(first, 5, 6), [byte(1), hex(resolveMessageId(given, neverCalled)), byte(2), byte(3), byte(4)]);
  assert.deepEqual(frameIds(second, 1, 6), [byte(5)]);
  assert.throws(() => minter.mintZeroId(), /more zero ids than the batch had/);
});

test('preset passes bigints minted before the window, then refuses', () => {
  const preset = createFaithfulMinter('preset', { messages: 3 });
  const ids = [preset.messageId(), preset.messageId(), preset.messageId()];
  assert.ok(ids.every((id) => typeof id === 'bigint' && id > 0n && id < 2n ** 128n));
  assert.throws(() => preset.messageId(), /preset IDs exhausted after 3 messages/);
  assert.throws(() => createFaithfulMinter('randomuuid'), /MSG_ID=randomuuid is unknown; expected one of uuid, fast, preset, counter$/);
});
