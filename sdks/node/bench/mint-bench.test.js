import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STRATEGIES } from '../src/mint.js';
import { rawSamples, ROWS } from './mint-bench.js';

test('the rows: every lean strategy, and the lean fast path one ID per call', () => {
  assert.deepEqual(ROWS.map((row) => row.name).filter((name) => name !== 'fast-per-id').sort(), [...STRATEGIES].sort());
});

test('the raw sample file: every row with its samples in ns per ID', async () => {
  const raw = JSON.parse(JSON.stringify(await rawSamples('sdks/node/mint-bench.sh results', { minCpuMs: 1, minSamples: 20 })));
  assert.deepEqual(Object.keys(raw), ['lang', 'tool', 'tool_version', 'command', 'strategies']);
  assert.deepEqual([raw.lang, raw.tool, raw.command], ['node', 'mitata', 'sdks/node/mint-bench.sh results']);
  assert.match(raw.tool_version, /^\d+\.\d+\.\d+ \(node v\d+/);
  assert.deepEqual(raw.strategies.map((s) => s.name), ROWS.map((row) => row.name));
  for (const { name, ns_per_id: samples } of raw.strategies) {
    assert.ok(samples.length >= 16, `${name}: ${samples.length} samples`);
    assert.ok(samples.every((ns) => Number.isFinite(ns) && ns > 0), name);
  }
});
