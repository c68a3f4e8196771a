import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { pairedResult, percentile } from './producer.js';
import { startSink } from './sink.fixture.js';
import { vectors } from './vectors.fixture.js';

const PRODUCER = new URL('./producer.js', import.meta.url).pathname;
const SETTINGS = { MSG_ID: 'fast', BITS: '42', PACK: '1', BATCH: '100', MESSAGES: '1000', WARMUP: '250' };

async function runProducer(env) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [PRODUCER], {
      env: { ...SETTINGS, ...env }, timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

// Runs the producer against a fresh sink: the sink's record, and the one JSON line of a run that exited 0.
async function produceToSink(env) {
  const sink = await startSink();
  const run = await runProducer({ SERVER: sink.address, ...env });
  await sink.close();
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 1);
  return { sink, result: JSON.parse(lines[0]) };
}

function assertOneErrorLine(run, pattern) {
  assert.notEqual(run.code, 0);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^error: [^\n]+\n$/);
  assert.match(run.stderr, pattern);
}

async function closedPort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Decodes value 0 of each message's payload back to its sequence number (BITS=42, PACK=1). The body
// starts with 4 + 18 metadata bytes, the message count, a 256-byte batch header, then 54-byte messages.
function sentMessages(requests) {
  const messages = [];
  for (const frame of requests.filter((f) => f[176] === 160)) {
    const count = frame.readUInt32LE(278);
    for (let i = 0, at = 538; i < count; i++, at += 54) {
      const value = frame.readUIntLE(at + 48, 6);
      messages.push({ seq: Number(BigInt(value) ^ (0xa5a5a5a5a5a5a5a5n & ((1n << 42n) - 1n))), id: frame.toString('hex', at + 8, at + 24) });
    }
  }
  return messages;
}

// Per batch: the first request number and whether every id in it is a version-4 UUID (little-endian:
// the version nibble at byte 9, the variant bits at byte 8 of the id).
function batches(requests) {
  return requests.filter((f) => f[176] === 160).map((frame) => {
    const count = frame.readUInt32LE(278);
    const ids = Array.from({ length: count }, (_, i) => frame.subarray(538 + i * 54 + 8, 538 + i * 54 + 24));
    return { count, uuids: ids.every((id) => id[9] >> 4 === 4 && id[7] >> 6 === 2) };
  });
}

function assertDelivered(sink, messages) {
  const operations = sink.requests.map((f) => f[176]);
  assert.equal(operations[0], 1);
  assert.equal(operations.at(-1), 3);
  assert.deepEqual(sink.requests.map((f) => Number(f.readBigUInt64LE(168))), [...Array(sink.requests.length).keys()]);
  assert.ok(sink.requests.slice(1).every((f) => f.readBigUInt64LE(184) === sink.session));
  const sent = sentMessages(sink.requests);
  assert.deepEqual(sent.map((m) => m.seq), [...Array(messages).keys()]);
  assert.equal(new Set(sent.map((m) => m.id)).size, messages);
}

const PAIRED_ARM_FIELDS = [
  'msg_id', 'timed_messages', 'elapsed_ns', 'msgs_per_sec', 'injected_ns', 'rtt_p50_ns', 'rtt_p99_ns', 'rtt_p999_ns', 'batch_ns',
];

const PATHS = { lean: ['uuid', 'randomuuid', 'fast', 'preset', 'counter'], faithful: ['uuid', 'fast', 'preset', 'counter'] };

for (const [sendPath, msgIds] of Object.entries(PATHS)) {
  for (const msgId of msgIds) {
    test(`${sendPath} ${msgId}: every message arrives once and in order, and one JSON line reports the timed window`, async () => {
      const { sink, result } = await produceToSink({ MSG_ID: msgId, SEND_PATH: sendPath });
      assert.deepEqual(
        { sdk: result.sdk, msg_id: result.msg_id, send_path: result.send_path, messages: result.messages, warmup: result.warmup,
          timed: result.timed_messages, injected_ns: result.injected_ns },
        { sdk: 'node', msg_id: msgId, send_path: sendPath, messages: 1000, warmup: 300, timed: 700, injected_ns: 0 },
      );
      assert.ok(result.elapsed_ns > 0 && result.msgs_per_sec > 0);
      assert.ok(result.rtt_p50_ns > 0 && result.rtt_p50_ns <= result.rtt_p99_ns && result.rtt_p99_ns <= result.rtt_p999_ns);
      assert.equal(sink.requests.length, 12);
      assertDelivered(sink, 1000);
      // A counter's IDs share one random high half, which looks like a UUIDv4 in 1 of 64 runs.
      if (msgId !== 'counter') assert.equal(batches(sink.requests).every((b) => b.uuids), msgId === 'uuid' || msgId === 'randomuuid');
    });
  }
}

test('injected work: measured per batch, at least INJECT_NS per timed message, inside the window', async () => {
  // A decimal INJECT_NS: each batch spins its message count times it, to the nearest ns.
  const { sink, result } = await produceToSink({ SEND_PATH: 'faithful', INJECT_NS: '20000.5' });
  assert.ok(result.injected_ns >= 700 * 20000.5, `injected ${result.injected_ns} ns`);
  assert.ok(result.elapsed_ns > result.injected_ns);
  assertDelivered(sink, 1000);
});

for (const sendPath of Object.keys(PATHS)) {
  test(`${sendPath} paired: the blocks in the seed's order, one batch per arm each, injection at one arm`, async () => {
    const seed = '42';
    const { blocks } = vectors.block_orders.find((v) => v.seed === seed && v.arms === 2);
    // 8 blocks of 100 messages per arm, the last one of 50; the first 3 are the warm-up.
    const { sink, result } = await produceToSink({
      PAIRED: '1', SEED: seed, MSG_ID: 'uuid,fast', SEND_PATH: sendPath,
      MESSAGES: '750', WARMUP: '250', INJECT_NS: '10000', INJECT_ARM: '1',
    });
    assert.deepEqual(
      { sdk: result.sdk, paired: result.paired, seed: result.seed, send_path: result.send_path, messages: result.messages,
        warmup: result.warmup, blocks: result.blocks, msg_ids: result.arms.map((a) => a.msg_id) },
      { sdk: 'node', paired: true, seed, send_path: sendPath, messages: 750, warmup: 300, blocks: 5, msg_ids: ['uuid', 'fast'] },
    );
    for (const arm of result.arms) {
      assert.deepEqual(Object.keys(arm), PAIRED_ARM_FIELDS);
      assert.equal(arm.timed_messages, 450);
      assert.equal(arm.batch_ns.length, 5);
      assert.ok(arm.batch_ns.every((ns) => Number.isInteger(ns) && ns > 0));
      assert.equal(arm.elapsed_ns, arm.batch_ns.reduce((sum, ns) => sum + ns, 0));
      assert.ok(Math.abs(arm.msgs_per_sec - 450 / (arm.elapsed_ns / 1e9)) < 1e-6 * arm.msgs_per_sec);
      // Each round trip lies inside its batch time, so each order statistic does too.
      const batchNs = [...arm.batch_ns].sort((a, b) => a - b);
      assert.ok(arm.rtt_p50_ns > 0 && arm.rtt_p50_ns <= arm.rtt_p99_ns && arm.rtt_p99_ns <= arm.rtt_p999_ns);
      assert.ok(arm.rtt_p50_ns <= batchNs[2] && arm.rtt_p999_ns <= batchNs[4], JSON.stringify(arm));
    }
    assert.equal(result.arms[0].injected_ns, 0);
    assert.ok(result.arms[1].injected_ns >= 450 * 10000, `injected ${result.arms[1].injected_ns} ns`);
    assert.ok(result.arms[1].elapsed_ns > result.arms[1].injected_ns);

    assert.equal(sink.requests.length, 1 + 16 + 1);
    assertDelivered(sink, 1500);
    const sent = batches(sink.requests);
    assert.deepEqual(sent.map((b) => b.count), [...Array(14).fill(100), 50, 50]);
    assert.deepEqual(sent.map((b) => (b.uuids ? 0 : 1)), blocks.flat(), 'arm 0 is uuid, arm 1 fast');
  });
}

test('paired arms: the round-trip percentiles of their own timed batches, between injected_ns and batch_ns', () => {
  const settings = { seed: 7n, sendPath: 'lean', messages: 3000, warmupBlocks: 0, batch: 1, blocks: 3000 };
  const arm = (msgId, rttNs) => ({ msgId, injectedNs: 0, timedMessages: rttNs.length, batchNs: rttNs.map((ns) => ns + 5), rttNs });
  const { arms } = pairedResult(settings, [
    arm('uuid', Array.from({ length: 1000 }, (_, i) => 1000 - i)),
    arm('fast', [30, 10, 20]),
  ]);
  assert.deepEqual(arms.map((a) => Object.keys(a)), [PAIRED_ARM_FIELDS, PAIRED_ARM_FIELDS]);
  assert.deepEqual(arms.map((a) => [a.rtt_p50_ns, a.rtt_p99_ns, a.rtt_p999_ns]), [[500, 990, 999], [20, 30, 30]]);
});

test('bad settings: one error line, non-zero exit, before connecting', async () => {
  for (const [env, pattern] of [
    [{ MSG_ID: 'nope' }, /^error: MSG_ID=nope is unknown; expected one of uuid, randomuuid, fast, preset, counter\n$/],
    [{ MSG_ID: 'randomuuid', SEND_PATH: 'faithful' }, /^error: MSG_ID=randomuuid is unknown; expected one of uuid, fast, preset, counter\n$/],
    [{ SEND_PATH: 'exact' }, /^error: SEND_PATH=exact is unknown; expected one of lean, faithful\n$/],
    [{ PAIRED: '1', MSG_ID: 'fast', SEED: '1' }, /PAIRED=1 needs at least two arms/],
    [{ BITS: '0' }, /BITS=0: must be an integer 1..=64/],
    [{ BITS: '65' }, /BITS=65: must be an integer 1..=64/],
    [{ MESSAGES: '50' }, /MESSAGES=50 is less than BATCH=100/],
  ]) {
    assertOneErrorLine(await runProducer({ SERVER: '127.0.0.1:1', ...env }), pattern);
  }
});

test('an unreachable server: one error line naming it', async () => {
  const port = await closedPort();
  assertOneErrorLine(await runProducer({ SERVER: `127.0.0.1:${port}` }), new RegExp(`cannot connect to server 127.0.0.1:${port}`));
});

test('a rejected batch: one error line with the status', async () => {
  const sink = await startSink({ sendStatus: 3 });
  const run = await runProducer({ SERVER: sink.address });
  await sink.close();
  assertOneErrorLine(run, /rejected request 1 \(operation 160\) with status 3/);
});

test('a server closing mid-run: one error line', async () => {
  const sink = await startSink({ closeAfterSends: 4 });
  const run = await runProducer({ SERVER: sink.address });
  await sink.close();
  assertOneErrorLine(run, /closed the connection/);
});

test('nearest-rank percentiles', () => {
  const sorted = Float64Array.from({ length: 1000 }, (_, i) => i + 1);
  assert.deepEqual([0.5, 0.99, 0.999].map((p) => percentile(sorted, p)), [500, 990, 999]);
  assert.equal(percentile(Float64Array.of(7), 0.999), 7);
});
