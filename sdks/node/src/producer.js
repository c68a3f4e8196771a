// The producer the runner drives (sdks/README.md): settings from the environment, all MESSAGES sent
// to the sink in batches with one request in flight, one JSON result line on stdout.
// Any failure is one `error: ...` line on stderr and exit code 1.

import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Connection, ConnectionError } from './connection.js';
import { loginFrame, logoutFrame, SendMessagesEncoder } from './frames.js';
import { createMinter } from './mint.js';
import { readSettings } from './settings.js';

const SESSION_AT = 8; // in the login reply body, after the result section and user_id

function randomNonZeroU128() {
  for (;;) {
    const bytes = randomBytes(16);
    const value = (bytes.readBigUInt64LE(8) << 64n) | bytes.readBigUInt64LE(0);
    if (value !== 0n) return value;
  }
}

function wallClockMicros() {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted, fraction) {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

async function login(connection, client) {
  const body = await connection.roundTrip(loginFrame({ client, requestChecksum: randomNonZeroU128() }));
  if (body.length < SESSION_AT + 8) throw new ConnectionError(`login reply body of ${body.length} bytes has no session`);
  const session = body.readBigUInt64LE(SESSION_AT);
  if (session === 0n) throw new ConnectionError('login reply carries session 0');
  return session;
}

async function produce(settings) {
  const { bits, pack, batch, messages, warmupBatches, batches } = settings;
  const minter = createMinter(settings.msgId, { messages });
  const client = randomNonZeroU128();
  const connection = await Connection.open(settings.server);
  try {
    const session = await login(connection, client);
    const encoder = new SendMessagesEncoder({ client, session, bits, pack, maxMessages: batch });
    const rtts = new Float64Array(batches - warmupBatches);
    let request = 1;
    let seq = 0;
    let start = 0n;
    for (let index = 0; index < batches; index++) {
      if (index === warmupBatches) start = process.hrtime.bigint();
      const count = Math.min(batch, messages - seq);
      const frame = encoder.encode({ request, originTimestamp: wallClockMicros(), firstSeq: seq, count, minter });
      const sent = process.hrtime.bigint();
      await connection.roundTrip(frame);
      if (index >= warmupBatches) rtts[index - warmupBatches] = Number(process.hrtime.bigint() - sent);
      request += 1;
      seq += count;
    }
    const elapsedNs = Number(process.hrtime.bigint() - start);
    await connection.roundTrip(logoutFrame({ client, request, session }));

    const warmupMessages = warmupBatches * batch;
    const timedMessages = messages - warmupMessages;
    rtts.sort();
    return {
      sdk: 'node',
      msg_id: settings.msgId,
      messages,
      warmup: warmupMessages,
      timed_messages: timedMessages,
      elapsed_ns: elapsedNs,
      msgs_per_sec: timedMessages / (elapsedNs / 1e9),
      rtt_p50_ns: percentile(rtts, 0.5),
      rtt_p99_ns: percentile(rtts, 0.99),
      rtt_p999_ns: percentile(rtts, 0.999),
    };
  } finally {
    connection.close();
  }
}

async function main() {
  try {
    const result = await produce(readSettings(process.env));
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
