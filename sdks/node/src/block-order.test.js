import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BlockOrder, SplitMix64 } from './block-order.js';
import { vectors } from './vectors.fixture.js';

test('SplitMix64 gives the published reference outputs', () => {
  // The first outputs for seed 1234567 of the reference C code (prng.di.unimi.it/splitmix64.c).
  const rng = new SplitMix64(1234567n);
  assert.deepEqual([rng.next(), rng.next(), rng.next()],
    [6457827717110365317n, 3203168211198807973n, 9817491932198370423n]);
});

test('every block order of the shared vectors', () => {
  assert.ok(vectors.block_orders.length > 0);
  for (const { seed, arms, blocks } of vectors.block_orders) {
    const order = new BlockOrder(BigInt(seed), arms);
    assert.deepEqual(blocks.map(() => order.next()), blocks, `seed ${seed}, ${arms} arms`);
  }
});

test('one arm needs no random draw', () => {
  const order = new BlockOrder(7n, 1);
  assert.deepEqual([order.next(), order.next()], [[0], [0]]);
  assert.equal(order.rng.state, 7n);
});
