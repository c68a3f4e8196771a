// Native mint benchmark (mitata): ns per ID, for every lean strategy. Writes the raw sample file of
// the contract (sdks/README.md, "Native mint benchmarks") that `harness mint-report` turns into the
// report.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { measure } from 'mitata';
import { createMinter, PresetIds } from '../src/mint.js';

// A measured run is RUN_BATCHES batches of the producer's default BATCH: long enough (>= 20 us) to
// be timed on its own, so mitata's batching is off for all cases alike and each sample is one run,
// divided back to one ID; and long enough to hold several refills of the fast pool, so every sample
// carries its share of them rather than the median skipping them.
const MEASURE_OPTIONS = { batch_threshold: 0, warmup_threshold: 1e9 }; // and always 2 warm-up runs
export const BATCH_IDS = 1000;
const RUN_BATCHES = 16;
export const IDS_PER_RUN = BATCH_IDS * RUN_BATCHES;
// 48-byte message header + 6-byte payload (BITS=42, PACK=1)
const FRAME_STRIDE = 54;
const PRESET_IDS = 1 << 20;

/** A run that writes IDS_PER_RUN IDs from `minter` one at a time into frames, as the lean path does. */
export function frameWriter(minter) {
  const frames = Buffer.alloc(FRAME_STRIDE * BATCH_IDS);
  return () => {
    for (let batch = 0; batch < RUN_BATCHES; batch++) {
      for (let offset = 8; offset < frames.length; offset += FRAME_STRIDE) minter.writeId(frames, offset);
    }
  };
}

/** A run that takes IDS_PER_RUN IDs from `minter` a batch per call, as the faithful path does. */
export function batchFiller(minter, beforeBatch = () => {}) {
  const ids = Buffer.alloc(BATCH_IDS * 16);
  return () => {
    for (let batch = 0; batch < RUN_BATCHES; batch++) {
      beforeBatch();
      minter.fill(ids, 0, BATCH_IDS);
    }
  };
}

// preset copies from IDs minted beforehand; rewinding keeps mitata's unknown run count fed.
function presetFiller() {
  const preset = PresetIds.mint(PRESET_IDS);
  return batchFiller(preset, () => {
    if (preset.position + BATCH_IDS * 16 > preset.ids.length) preset.position = 0;
  });
}

/**
 * The report's rows: `fast`, `preset` and `counter` a batch's IDs per call, as the faithful send
 * path takes them; `uuid`, `randomuuid` and `fast-per-id` (the lean path's `fast`) one ID per call.
 */
export const ROWS = Object.freeze([
  { name: 'uuid', run: () => frameWriter(createMinter('uuid')) },
  { name: 'randomuuid', run: () => frameWriter(createMinter('randomuuid')) },
  { name: 'fast-per-id', run: () => frameWriter(createMinter('fast')) },
  { name: 'fast', run: () => batchFiller(createMinter('fast')) },
  { name: 'preset', run: presetFiller },
  { name: 'counter', run: () => batchFiller(createMinter('counter')) },
]);

/**
 * Every sample mitata keeps of `run`, in ns per item. Above 12 runs mitata drops the two fastest and
 * the two slowest, so `minSamples` runs give at least `minSamples - 4` samples.
 * @param {{ minCpuMs?: number, minSamples?: number }} options how long and how many runs to sample
 *   at least (mitata's defaults otherwise)
 */
export async function nsPerItem(run, itemsPerRun, { minCpuMs, minSamples } = {}) {
  const options = { ...MEASURE_OPTIONS };
  if (minCpuMs !== undefined) options.min_cpu_time = minCpuMs * 1e6;
  if (minSamples !== undefined) options.min_samples = minSamples;
  const stats = await measure(run, options);
  return stats.samples.map((ns) => ns / itemsPerRun);
}

function mitataVersion() {
  const path = new URL('../node_modules/mitata/package.json', import.meta.url);
  return JSON.parse(readFileSync(path, 'utf8')).version;
}

/** The raw sample file: one `ns_per_id` sample per mitata run, per row. */
export async function rawSamples(command, options = {}) {
  const strategies = [];
  for (const { name, run } of ROWS) {
    strategies.push({ name, ns_per_id: await nsPerItem(run(), IDS_PER_RUN, options) });
  }
  return { lang: 'node', tool: 'mitata', tool_version: `${mitataVersion()} (node ${process.version})`, command, strategies };
}

async function main() {
  const { values: args } = parseArgs({ options: { raw: { type: 'string' }, command: { type: 'string' } } });
  if (!args.raw || !args.command) throw new Error('usage: mint-bench.js --raw FILE --command "how it was run"');
  const raw = await rawSamples(args.command);
  for (const { name, ns_per_id: samples } of raw.strategies) {
    const sorted = [...samples].sort((a, b) => a - b);
    console.error(`${name}: median ${sorted[sorted.length >> 1].toFixed(1)} ns per ID, ${samples.length} samples`);
  }
  writeFileSync(args.raw, `${JSON.stringify(raw)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
