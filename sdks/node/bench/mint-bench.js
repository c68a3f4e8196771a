// Native mint benchmark (mitata): ns per ID written into a frame, for every lean strategy. Writes
// the raw sample file of the contract (sdks/README.md, "Native mint benchmarks") that
// `harness mint-report` turns into the report.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { measure } from 'mitata';
import { createMinter, PresetIds, STRATEGIES } from '../src/mint.js';

// Each measured run mints one batch of IDs where they land in a real batch: 48-byte message header
// + 6-byte payload (BITS=42, PACK=1). Every run is long enough (>= 20 us) to be timed on its own, so
// mitata's batching is off for all cases alike and each sample is one run, divided back to one ID.
const MEASURE_OPTIONS = { batch_threshold: 0, warmup_threshold: 1e9 }; // and always 2 warm-up runs
const FRAME_STRIDE = 54;
export const IDS_PER_RUN = 1000;
const PRESET_IDS = 1 << 20;

/** A run that writes IDS_PER_RUN IDs from `minter` into frames. */
export function batchWriter(minter, beforeBatch = () => {}) {
  const frames = Buffer.alloc(FRAME_STRIDE * IDS_PER_RUN);
  return () => {
    beforeBatch();
    for (let offset = 8; offset < frames.length; offset += FRAME_STRIDE) minter.writeId(frames, offset);
  };
}

// preset copies from IDs minted beforehand; rewinding keeps mitata's unknown run count fed.
function presetWriter() {
  const preset = PresetIds.mint(PRESET_IDS);
  return batchWriter(preset, () => {
    if (preset.position + IDS_PER_RUN * 16 > preset.ids.length) preset.position = 0;
  });
}

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

/** The raw sample file: one `ns_per_id` sample per mitata run, per strategy. */
export async function rawSamples(command, options = {}) {
  const strategies = [];
  for (const name of STRATEGIES) {
    const run = name === 'preset' ? presetWriter() : batchWriter(createMinter(name));
    strategies.push({ name, ns_per_id: await nsPerItem(run, IDS_PER_RUN, options) });
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
