import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { CounterIds, createMinter, PresetIds, RandomPool, STRATEGIES, uuidTextToLittleEndian } from './mint.js';

const COUNT = 5000;

// Mints `count` IDs into a zeroed buffer, each between two guard bytes that must stay untouched.
function mintAll(minter, count = COUNT) {
  const stride = 18;
  const target = Buffer.alloc(count * stride, 0xee);
  for (let i = 0; i < count; i++) minter.writeId(target, i * stride + 1);
  const ids = [];
  for (let i = 0; i < count; i++) {
    assert.equal(target[i * stride], 0xee);
    assert.equal(target[i * stride + 17], 0xee);
    ids.push(target.toString('hex', i * stride + 1, i * stride + 17));
  }
  return ids;
}

for (const strategy of STRATEGIES) {
  test(`${strategy} writes 16 bytes per ID, all distinct and not zero`, () => {
    const ids = mintAll(createMinter(strategy, { messages: COUNT }));
    assert.equal(new Set(ids).size, COUNT);
    assert.ok(!ids.includes('0'.repeat(32)));
  });
}

test('the uuid paths keep the UUID bytes, reversed to little-endian', () => {
  const bytes = uuidTextToLittleEndian('00112233-4455-6677-8899-aabbccddeeff');
  assert.equal(bytes.toString('hex'), 'ffeeddccbbaa99887766554433221100');
  assert.equal(uuidTextToLittleEndian('00000000-0000-4000-8000-000000000001').toString('hex'),
    '01000000000000800040000000000000');
  // uuid and randomuuid are version-4 UUIDs: the version nibble lands in byte 9 of the little-endian ID.
  for (const strategy of ['uuid', 'randomuuid']) {
    for (const id of mintAll(createMinter(strategy), 50)) assert.equal(id[18], '4', `${strategy} ${id}`);
  }
});

test('the pool refills when it runs out and never repeats across refills', () => {
  const ids = mintAll(new RandomPool(64), 40);
  assert.equal(new Set(ids).size, 40);
  assert.throws(() => new RandomPool(24), /multiple of 16/);
});

// A random source that a second pool can replay: byte k of the stream is a function of k.
function replayableFill() {
  let k = 0;
  return (pool) => {
    for (let i = 0; i < pool.length; i++, k++) pool[i] = (k * 167 + (k >>> 8)) & 0xff;
  };
}

// The IDs of `counts` taken in turn: a count of 1 by writeId, any other by one fill.
function takeInTurn(minter, counts) {
  const ids = Buffer.alloc(16 * counts.reduce((a, b) => a + b, 0), 0xee);
  let at = 0;
  for (const count of counts) {
    if (count === 1) minter.writeId(ids, at);
    else minter.fill(ids, at, count);
    at += 16 * count;
  }
  return ids.toString('hex');
}

test('a batch fill of the pool is the stream writeId walks, across refills', () => {
  const counts = [1, 3, 0, 2, 9, 1, 4, 17];
  const total = counts.reduce((a, b) => a + b, 0);
  const singles = takeInTurn(new RandomPool(64, replayableFill()), Array(total).fill(1));
  assert.equal(takeInTurn(new RandomPool(64, replayableFill()), counts), singles);
});

test('every fill strategy writes distinct IDs back to back', () => {
  for (const minter of [createMinter('fast'), createMinter('counter'), PresetIds.mint(COUNT)]) {
    const ids = Buffer.alloc(COUNT * 16);
    minter.writeId(ids, 0);
    minter.fill(ids, 16, COUNT - 2);
    minter.writeId(ids, (COUNT - 1) * 16);
    const hex = Array.from({ length: COUNT }, (_, i) => ids.toString('hex', i * 16, i * 16 + 16));
    assert.equal(new Set(hex).size, COUNT, minter.constructor.name);
  }
});

test('counter counts up from its start little-endian, carrying from word to word', () => {
  const start = Buffer.from('feffffffffffffffffffffff05000000', 'hex');
  const expected = ['feffffffffffffffffffffff05000000', 'ffffffffffffffffffffffff05000000',
    '00000000000000000000000006000000', '01000000000000000000000006000000'];
  assert.deepEqual(mintAll(new CounterIds(start), 4), expected);
  assert.equal(takeInTurn(new CounterIds(start), [2, 1, 1]), expected.join(''));
  assert.notEqual(mintAll(new CounterIds(), 1)[0], mintAll(new CounterIds(), 1)[0], 'random starts');
});

test('preset hands out exactly the IDs it minted, then refuses', () => {
  const preset = PresetIds.mint(3);
  const minted = preset.ids.toString('hex');
  assert.equal(mintAll(preset, 3).join(''), minted);
  assert.throws(() => preset.writeId(Buffer.alloc(16), 0), /exhausted after 3 messages/);
  const filled = PresetIds.mint(3);
  const ids = Buffer.alloc(48);
  filled.fill(ids, 0, 2);
  assert.throws(() => filled.fill(ids, 0, 2), /exhausted: 2 asked, 1 left/);
  filled.fill(ids, 32, 1);
  assert.equal(ids.toString('hex'), filled.ids.toString('hex'));
});

test('an unknown strategy names the choices', () => {
  assert.throws(() => createMinter('nope'), /MSG_ID=nope is unknown; expected one of uuid, randomuuid, fast, preset, counter$/);
});

test('a child process (Node starts one, it never forks) mints IDs apart from its parent\'s', () => {
  const mintUrl = new URL('./mint.js', import.meta.url).href;
  const script = `import { createMinter } from '${mintUrl}';
    const ids = [];
    for (const name of ['fast', 'counter']) {
      const minter = createMinter(name);
      const id = Buffer.alloc(16);
      for (let i = 0; i < 1000; i++) { minter.writeId(id, 0); ids.push(id.toString('hex')); }
    }
    console.log(JSON.stringify(ids));`;
  const child = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  const parent = [...mintAll(createMinter('fast'), 1000), ...mintAll(createMinter('counter'), 1000)];
  assert.equal(new Set([...child, ...parent]).size, 4000);
});
