import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMinter, PresetIds, RandomPool, STRATEGIES, uuidTextToLittleEndian } from './mint.js';

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

test('preset hands out exactly the IDs it minted, then refuses', () => {
  const preset = PresetIds.mint(3);
  const minted = preset.ids.toString('hex');
  assert.equal(mintAll(preset, 3).join(''), minted);
  assert.throws(() => preset.writeId(Buffer.alloc(16), 0), /exhausted after 3 messages/);
});

test('an unknown strategy names the choices', () => {
  assert.throws(() => createMinter('nope'), /MSG_ID=nope is unknown; expected one of uuid, randomuuid, fast, preset$/);
});
