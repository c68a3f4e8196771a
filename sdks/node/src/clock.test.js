import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monotonicNs, spin } from './clock.js';

test('a spin lasts at least what was asked and reports what it measured', () => {
  const before = monotonicNs();
  const spun = spin(before, 2_000_000);
  const outside = Number(monotonicNs() - before);
  assert.ok(spun >= 2_000_000, `spun ${spun} ns`);
  assert.ok(spun <= outside, `spun ${spun} ns, ${outside} ns passed around it`);
});

test('time already past since the batch start counts toward the spin', () => {
  const longAgo = monotonicNs() - 50_000_000n;
  assert.ok(spin(longAgo, 1_000) >= 50_000_000);
});
