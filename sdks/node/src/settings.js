// The producer's settings, read from the environment the runner sets (sdks/README.md).

import { SEND_PATHS } from './send-path.js';

export class SettingsError extends Error {}

function integer(env, name, { min, max = Number.MAX_SAFE_INTEGER }) {
  const text = env[name];
  if (text === undefined || text === '') throw new SettingsError(`${name} is not set`);
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}..=${max}`;
    throw new SettingsError(`${name}=${text}: must be an integer ${range}`);
  }
  return Number(text);
}

// INJECT_NS (sdks/README.md): a plain decimal of ns per message, at most a second.
function decimalNs(env, name, max = 1e9) {
  const text = env[name];
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || Number(text) > max) {
    throw new SettingsError(`${name}=${text}: must be a decimal number of ns in 0..=${max}`);
  }
  return Number(text);
}

function serverAddress(env) {
  const text = env.SERVER ?? '';
  const match = /^(.+):([0-9]{1,5})$/.exec(text);
  if (!match || Number(match[2]) > 65535) throw new SettingsError(`SERVER=${text}: must be host:port`);
  return { text, host: match[1].replace(/^\[(.*)\]$/, '$1'), port: Number(match[2]) };
}

// The one choice among names: `NAME=value is unknown; expected one of a, b, ...` (the runner reads
// the list from this line).
function oneOf(name, value, names) {
  if (!names.includes(value)) throw new SettingsError(`${name}=${value} is unknown; expected one of ${names.join(', ')}`);
  return value;
}

// Settings with a natural default may be unset: one arm, our lean producer, no injected work.
const DEFAULTS = Object.freeze({ PAIRED: '0', SEND_PATH: 'lean', INJECT_NS: '0', INJECT_ARM: '0' });

function seedOf(env) {
  const text = env.SEED ?? '';
  if (!/^[0-9]+$/.test(text) || BigInt(text) >> 64n !== 0n) throw new SettingsError(`SEED=${text}: must be a u64 in decimal`);
  return BigInt(text);
}

export function readSettings(given) {
  const env = { ...DEFAULTS };
  for (const [name, value] of Object.entries(given)) if (value !== undefined) env[name] = value;
  if (env.MODE !== undefined && env.MODE !== 'producer') {
    throw new SettingsError(`MODE=${env.MODE}: this producer has only MODE=producer`);
  }
  const paired = integer(env, 'PAIRED', { min: 0, max: 1 }) === 1;
  const sendPath = oneOf('SEND_PATH', env.SEND_PATH, Object.keys(SEND_PATHS));
  const names = SEND_PATHS[sendPath].strategies;
  const msgIds = (paired ? (env.MSG_ID ?? '').split(',') : [env.MSG_ID ?? '']).map((name) => oneOf('MSG_ID', name, names));
  if (paired && msgIds.length < 2) {
    throw new SettingsError(`PAIRED=1 needs at least two arms in MSG_ID, got MSG_ID=${env.MSG_ID}`);
  }
  const settings = {
    server: serverAddress(env),
    sendPath,
    paired,
    msgIds,
    seed: paired ? seedOf(env) : 0n,
    bits: integer(env, 'BITS', { min: 1, max: 64 }),
    pack: integer(env, 'PACK', { min: 1 }),
    batch: integer(env, 'BATCH', { min: 1 }),
    messages: integer(env, 'MESSAGES', { min: 1 }),
    warmup: integer(env, 'WARMUP', { min: 0 }),
    injectNs: decimalNs(env, 'INJECT_NS'),
    injectArm: integer(env, 'INJECT_ARM', { min: 0 }),
  };
  if (settings.injectArm >= msgIds.length) {
    throw new SettingsError(`INJECT_ARM=${settings.injectArm} is outside the ${msgIds.length} arm(s) of MSG_ID=${env.MSG_ID}`);
  }
  if (settings.messages < settings.batch) {
    throw new SettingsError(`MESSAGES=${settings.messages} is less than BATCH=${settings.batch}`);
  }
  // A block is one batch per arm; with one arm a block is one batch.
  const warmupBlocks = Math.ceil(settings.warmup / settings.batch);
  const blocks = Math.ceil(settings.messages / settings.batch);
  if (warmupBlocks >= blocks) {
    throw new SettingsError(`no timed batch left: WARMUP=${settings.warmup} covers all ${blocks} batches `
      + `of MESSAGES=${settings.messages} in batches of BATCH=${settings.batch}`);
  }
  return { ...settings, warmupBlocks, blocks };
}
