// The producer's settings, read from the environment the runner sets (sdks/README.md).

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

function serverAddress(env) {
  const text = env.SERVER ?? '';
  const match = /^(.+):([0-9]{1,5})$/.exec(text);
  if (!match || Number(match[2]) > 65535) throw new SettingsError(`SERVER=${text}: must be host:port`);
  return { text, host: match[1].replace(/^\[(.*)\]$/, '$1'), port: Number(match[2]) };
}

export function readSettings(env) {
  const settings = {
    server: serverAddress(env),
    msgId: env.MSG_ID ?? '', // checked by createMinter, which knows the strategies
    bits: integer(env, 'BITS', { min: 1, max: 64 }),
    pack: integer(env, 'PACK', { min: 1 }),
    batch: integer(env, 'BATCH', { min: 1 }),
    messages: integer(env, 'MESSAGES', { min: 1 }),
    warmup: integer(env, 'WARMUP', { min: 0 }),
  };
  if (settings.messages < settings.batch) {
    throw new SettingsError(`MESSAGES=${settings.messages} is less than BATCH=${settings.batch}`);
  }
  const warmupBatches = Math.ceil(settings.warmup / settings.batch);
  const batches = Math.ceil(settings.messages / settings.batch);
  if (warmupBatches >= batches) {
    throw new SettingsError(`no timed batch left: WARMUP=${settings.warmup} covers all ${batches} batches `
      + `of MESSAGES=${settings.messages} in batches of BATCH=${settings.batch}`);
  }
  return { ...settings, warmupBatches, batches };
}
