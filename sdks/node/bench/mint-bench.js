// Mint-only benchmark (mitata): ns per ID written into a frame for every strategy, the pool-size
// sweep behind DEFAULT_POOL_BYTES, and the XXH3 libraries compared at the checksum sizes a producer
// hashes. Writes the figures it measured to <out>/sdk-node-mint.json and .md.

import { parseArgs } from 'node:util';
import { measure } from 'mitata';
import { xxh3 as nodeRsXxh3 } from '@node-rs/xxhash';
import { createMinter, PresetIds, RandomPool, STRATEGIES } from '../src/mint.js';
import { writeXxh3 } from '../src/xxh3.js';
import { STAT_KEYS, writeReports } from './report.js';

const { values: args } = parseArgs({ options: { out: { type: 'string' }, command: { type: 'string' } } });
if (!args.out || !args.command) throw new Error('usage: mint-bench.js --out DIR --command "how it was run"');

// Each measured run mints one batch of IDs where they land in a real batch: 48-byte message header
// + 6-byte payload (BITS=42, PACK=1), and hashes many inputs. Every run is long enough (>= 20 us)
// to be timed on its own, so mitata's batching is off for all cases alike (MEASURE_OPTIONS) and
// the figures are divided back to one ID or one hash.
const MEASURE_OPTIONS = { batch_threshold: 0, warmup_threshold: 1e9 }; // and always 2 warm-up runs
const FRAME_STRIDE = 54;
const IDS_PER_RUN = 1000;
const PRESET_IDS = 1 << 20;

function batchWriter(minter, beforeBatch = () => {}) {
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

const groups = [
  {
    name: 'strategy',
    unit: 'ns per ID',
    itemsPerRun: IDS_PER_RUN,
    cases: STRATEGIES.map((strategy) => ({
      name: strategy,
      run: strategy === 'preset' ? presetWriter() : batchWriter(createMinter(strategy)),
    })),
  },
  {
    name: 'fast pool size',
    unit: 'ns per ID',
    itemsPerRun: IDS_PER_RUN,
    cases: [1, 4, 16, 64, 256, 1024].map((kib) => ({
      name: `${kib} KiB`,
      run: batchWriter(new RandomPool(kib * 1024)),
    })),
  },
  ...xxh3Groups([
    ['message BITS=42 PACK=1', 46, 1000],
    ['message BITS=42 PACK=167', 1042, 100],
    ['batch checksum of 1000 messages', 44 + 8 * 1000, 20],
  ]),
];

function xxh3Groups(inputs) {
  const source = Buffer.alloc(8 + Math.max(...inputs.map(([, length]) => length)));
  for (let i = 0; i < source.length; i++) source[i] = (i * 131 + 7) & 0xff;
  const target = Buffer.alloc(8);
  const repeat = (times, hash) => () => {
    for (let i = 0; i < times; i++) hash();
  };
  return inputs.map(([label, length, hashesPerRun]) => {
    const data = () => source.subarray(8, 8 + length);
    return {
      name: `xxh3, ${label}, ${length} B`,
      unit: 'ns per hash',
      itemsPerRun: hashesPerRun,
      cases: [
        { name: 'hash-wasm (src/xxh3.js)', run: repeat(hashesPerRun, () => writeXxh3(data(), target, 0)) },
        {
          name: '@node-rs/xxhash',
          run: repeat(hashesPerRun, () => target.writeBigUInt64LE(nodeRsXxh3.xxh64(data()), 0)),
        },
      ],
    };
  });
}

for (const group of groups) {
  for (const benchCase of group.cases) {
    const stats = await measure(benchCase.run, { ...MEASURE_OPTIONS });
    benchCase.stats = { ...stats };
    for (const key of STAT_KEYS) benchCase.stats[key] = stats[key] / group.itemsPerRun;
    console.error(`${group.name} / ${benchCase.name}: p50 ${benchCase.stats.p50.toFixed(1)} ${group.unit}`);
  }
}

writeReports(args.out, args.command, groups);
