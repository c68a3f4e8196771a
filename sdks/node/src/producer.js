// The producer the runner drives (sdks/README.md): settings from the environment, all MESSAGES sent
// to the sink in batches with one request in flight, one JSON result line on stdout.
// Any failure is one `error: ...` line on stderr and exit code 1.

import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Connection, ConnectionError } from './connection.js';
import { loginFrame, logoutFrame } from './frames.js';
import { BlockOrder } from './block-order.js';
import { monotonicNs, spin, wallClockMicros } from './clock.js';
import { SEND_PATHS } from './send-path.js';
import { readSettings } from './settings.js';

const SESSION_AT = 8; // in the login reply body, after the result section and user_id

function randomNonZeroU128() {
  for (;;) {
    const bytes = randomBytes(16);
    const value = (bytes.readBigUInt64LE(8) << 64n) | bytes.readBigUInt64LE(0);
    if (value !== 0n) return value;
  }
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

// Sends every block: one batch per arm in the block's order, the first `warmupBlocks` untimed.
// Each timed batch is timed from the start of its building (injected work included) to its ack, and
// its round trip from the send to the ack.
async function sendBlocks(connection, encoder, arms, settings) {
  const { batch, messages, blocks, warmupBlocks } = settings;
  const order = new BlockOrder(settings.seed, arms.length);
  let request = 1;
  let seq = 0;
  let windowStart = 0n;
  for (let block = 0; block < blocks; block++) {
    const timed = block >= warmupBlocks;
    if (block === warmupBlocks) windowStart = monotonicNs();
    const count = Math.min(batch, messages - block * batch);
    for (const index of order.next()) {
      const arm = arms[index];
      const start = monotonicNs();
      const injectedNs = arm.injectNs > 0 ? spin(start, Math.round(count * arm.injectNs)) : 0;
      const frame = encoder.encode({ request, originTimestamp: wallClockMicros(), firstSeq: seq, count, minter: arm.minter });
      const sent = monotonicNs();
      await connection.roundTrip(frame);
      const acked = monotonicNs();
      if (timed) {
        arm.injectedNs += injectedNs;
        arm.timedMessages += count;
        arm.batchNs.push(Number(acked - start));
        arm.rttNs.push(Number(acked - sent));
      }
      request += 1;
      seq += count;
    }
  }
  return { request, elapsedNs: Number(monotonicNs() - windowStart) };
}

// The round-trip fields of an arm's timed batches, one definition for both result lines.
function rttPercentiles(arm) {
  const rtts = Float64Array.from(arm.rttNs).sort();
  return {
    rtt_p50_ns: percentile(rtts, 0.5),
    rtt_p99_ns: percentile(rtts, 0.99),
    rtt_p999_ns: percentile(rtts, 0.999),
  };
}

function oneArmResult(settings, arm, elapsedNs) {
  return {
    sdk: 'node',
    msg_id: arm.msgId,
    send_path: settings.sendPath,
    messages: settings.messages,
    warmup: settings.warmupBlocks * settings.batch,
    timed_messages: arm.timedMessages,
    elapsed_ns: elapsedNs,
    msgs_per_sec: arm.timedMessages / (elapsedNs / 1e9),
    injected_ns: arm.injectedNs,
    ...rttPercentiles(arm),
  };
}

export function pairedResult(settings, arms) {
  return {
    sdk: 'node',
    paired: true,
    seed: settings.seed.toString(),
    send_path: settings.sendPath,
    messages: settings.messages,
    warmup: settings.warmupBlocks * settings.batch,
    blocks: settings.blocks - settings.warmupBlocks,
    arms: arms.map((arm) => {
      const elapsedNs = arm.batchNs.reduce((sum, ns) => sum + ns, 0);
      return {
        msg_id: arm.msgId,
        timed_messages: arm.timedMessages,
        elapsed_ns: elapsedNs,
        msgs_per_sec: arm.timedMessages / (elapsedNs / 1e9),
        injected_ns: arm.injectedNs,
        ...rttPercentiles(arm),
        batch_ns: arm.batchNs,
      };
    }),
  };
}

async function produce(settings) {
  const path = SEND_PATHS[settings.sendPath];
  // Every arm mints with its own minter; preset arms mint all their IDs here, before the first send.
  const arms = settings.msgIds.map((msgId, index) => ({
    msgId,
    minter: path.createMinter(msgId, { messages: settings.messages }),
    injectNs: index === settings.injectArm ? settings.injectNs : 0,
    injectedNs: 0,
    timedMessages: 0,
    batchNs: [],
    rttNs: [],
  }));
  const client = randomNonZeroU128();
  const connection = await Connection.open(settings.server);
  try {
    const session = await login(connection, client);
    const { bits, pack, batch } = settings;
    const encoder = new path.Encoder({ client, session, bits, pack, maxMessages: batch });
    const { request, elapsedNs } = await sendBlocks(connection, encoder, arms, settings);
    await connection.roundTrip(logoutFrame({ client, request, session }));
    return settings.paired ? pairedResult(settings, arms) : oneArmResult(settings, arms[0], elapsedNs);
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
