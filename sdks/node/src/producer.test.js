import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { percentile } from './producer.js';
import { startSink } from './sink.fixture.js';

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

for (const msgId of ['uuid', 'randomuuid', 'fast', 'preset']) {
  test(`${msgId}: every message arrives once and in order, and one JSON line reports the timed window`, async () => {
    const sink = await startSink();
    const run = await runProducer({ SERVER: sink.address, MSG_ID: msgId });
    await sink.close();
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1);
    const result = JSON.parse(lines[0]);
    assert.deepEqual(
      { sdk: result.sdk, msg_id: result.msg_id, messages: result.messages, warmup: result.warmup, timed: result.timed_messages },
      { sdk: 'node', msg_id: msgId, messages: 1000, warmup: 300, timed: 700 },
    );
    assert.ok(result.elapsed_ns > 0 && result.msgs_per_sec > 0);
    assert.ok(result.rtt_p50_ns > 0 && result.rtt_p50_ns <= result.rtt_p99_ns && result.rtt_p99_ns <= result.rtt_p999_ns);

    const operations = sink.requests.map((f) => f[176]);
    assert.deepEqual(operations, [1, ...Array(10).fill(160), 3]);
    assert.deepEqual(sink.requests.map((f) => Number(f.readBigUInt64LE(168))), [...Array(12).keys()]);
    assert.ok(sink.requests.slice(1).every((f) => f.readBigUInt64LE(184) === sink.session));
    const messages = sentMessages(sink.requests);
    assert.deepEqual(messages.map((m) => m.seq), [...Array(1000).keys()]);
    assert.equal(new Set(messages.map((m) => m.id)).size, 1000);
  });
}

test('bad settings: one error line, non-zero exit, before connecting', async () => {
  for (const [env, pattern] of [
    [{ MSG_ID: 'nope' }, /unknown MSG_ID "nope"/],
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
