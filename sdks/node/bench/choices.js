// The measurements behind three choices, printed, not recorded: the fast pool's size
// (DEFAULT_POOL_BYTES in src/mint.js), a batch's IDs copied out of that pool rather than one
// randomFillSync per batch (RandomPool#fill), and the XXH3 library of the lean path (src/xxh3.js),
// at the sizes a producer hashes. Run from the repo root: node sdks/node/bench/choices.js

import { randomFillSync } from 'node:crypto';
import { xxh3 as nodeRsXxh3 } from '@node-rs/xxhash';
import { RandomPool } from '../src/mint.js';
import { writeXxh3 } from '../src/xxh3.js';
import { BATCH_IDS, batchFiller, frameWriter, IDS_PER_RUN, nsPerItem } from './mint-bench.js';

function xxh3Cases(length, hashesPerRun) {
  const source = Buffer.alloc(8 + length);
  for (let i = 0; i < source.length; i++) source[i] = (i * 131 + 7) & 0xff;
  const data = source.subarray(8);
  const target = Buffer.alloc(8);
  const repeat = (hash) => () => {
    for (let i = 0; i < hashesPerRun; i++) hash();
  };
  return [
    { name: 'hash-wasm (src/xxh3.js)', run: repeat(() => writeXxh3(data, target, 0)), items: hashesPerRun },
    { name: '@node-rs/xxhash', run: repeat(() => target.writeBigUInt64LE(nodeRsXxh3.xxh64(data), 0)), items: hashesPerRun },
  ];
}

// Pools stop at 256 KiB: a run (IDS_PER_RUN IDs) must hold at least one refill, or the median skips them.
const groups = [
  {
    name: 'fast pool size, one ID per call (lean), ns per ID',
    cases: [1, 4, 16, 64, 256].map((kib) => ({ name: `${kib} KiB`, run: frameWriter(new RandomPool(kib * 1024)), items: IDS_PER_RUN })),
  },
  {
    name: `a batch of ${BATCH_IDS} IDs per call (faithful), ns per ID`,
    cases: [
      { name: 'one randomFillSync per batch, into it', run: batchFiller({ fill: (ids) => randomFillSync(ids) }), items: IDS_PER_RUN },
      ...[16, 64, 256].map((kib) => ({ name: `copied out of a ${kib} KiB pool`, run: batchFiller(new RandomPool(kib * 1024)), items: IDS_PER_RUN })),
    ],
  },
  { name: 'xxh3 of a message, BITS=42 PACK=1 (46 B), ns per hash', cases: xxh3Cases(46, 1000) },
  { name: 'xxh3 of a message, BITS=42 PACK=167 (1042 B), ns per hash', cases: xxh3Cases(1042, 100) },
  { name: 'xxh3 of a batch checksum of 1000 messages (8044 B), ns per hash', cases: xxh3Cases(44 + 8 * 1000, 20) },
];

for (const group of groups) {
  console.log(`\n${group.name}: median (p25-p75)`);
  for (const { name, run, items } of group.cases) {
    const samples = (await nsPerItem(run, items)).sort((a, b) => a - b);
    const at = (fraction) => samples[Math.floor(fraction * (samples.length - 1))].toFixed(1);
    console.log(`  ${name}: ${at(0.5)} (${at(0.25)}-${at(0.75)}), ${samples.length} samples`);
  }
}
