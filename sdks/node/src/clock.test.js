import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monotonicNs, spin } from './clock.js';

test('a spin lasts at least what was asked and reports what it measured', () => {
  const before = monotonicNs();
  const spun = spin(2_000_000);
  const outside = Number(monotonicNs() - before);
  assert.ok(spun >= 2_000_000, `spun ${spun} ns`);
  assert.ok(spun <= outside, `spun ${spun} ns, ${outside} ns passed around it`);
});

test('a spin of 0 ns reads the clock once and returns 0', () => {
  assert.equal(spin(0), 0);
});
