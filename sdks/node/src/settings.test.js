import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSettings, SettingsError } from './settings.js';

const VALID = { SERVER: '127.0.0.1:8090', MSG_ID: 'fast', BITS: '42', PACK: '1', BATCH: '1000', MESSAGES: '100000', WARMUP: '10000' };

test('valid settings, with the warm-up rounded up to whole batches', () => {
  const settings = readSettings({ ...VALID, WARMUP: '1500' });
  assert.deepEqual(settings.server, { text: '127.0.0.1:8090', host: '127.0.0.1', port: 8090 });
  assert.deepEqual(settings.msgIds, ['fast']);
  assert.deepEqual([settings.bits, settings.pack, settings.batch, settings.messages], [42, 1, 1000, 100000]);
  assert.deepEqual([settings.warmupBlocks, settings.blocks], [2, 100]);
  assert.equal(readSettings({ ...VALID, SERVER: '[::1]:9' }).server.host, '::1');
  assert.equal(readSettings({ ...VALID, MESSAGES: '1001', WARMUP: '0' }).blocks, 2);
});

test('unset, the settings with a natural default give one lean arm and no injected work', () => {
  const settings = readSettings(VALID);
  assert.deepEqual([settings.paired, settings.sendPath, settings.injectNs, settings.injectArm], [false, 'lean', 0, 0]);
});

test('paired settings: a list of arms, the seed as a u64, injection at one arm', () => {
  const settings = readSettings({
    ...VALID, PAIRED: '1', MSG_ID: 'uuid,fast,uuid', SEED: '18446744073709551615', SEND_PATH: 'faithful',
    INJECT_NS: '250', INJECT_ARM: '2',
  });
  assert.deepEqual(settings.msgIds, ['uuid', 'fast', 'uuid']);
  assert.equal(settings.seed, 2n ** 64n - 1n);
  assert.deepEqual([settings.paired, settings.sendPath, settings.injectNs, settings.injectArm], [true, 'faithful', 250, 2]);
  assert.deepEqual(readSettings({ ...VALID, MSG_ID: 'uuid', SEED: 'not read' }).msgIds, ['uuid'], 'SEED is ignored with one arm');
});

test('INJECT_NS is a decimal number of ns per message', () => {
  assert.equal(readSettings({ ...VALID, INJECT_NS: '1.45' }).injectNs, 1.45);
  assert.equal(readSettings({ ...VALID, INJECT_NS: '400' }).injectNs, 400);
});

test('an unknown MSG_ID lists exactly the names of its SEND_PATH', () => {
  const unknown = (env) => {
    try {
      readSettings({ ...VALID, ...env });
    } catch (error) {
      return error.message;
    }
    return assert.fail('accepted');
  };
  assert.equal(unknown({ MSG_ID: 'nope' }), 'MSG_ID=nope is unknown; expected one of uuid, randomuuid, fast, preset, counter');
  assert.equal(unknown({ MSG_ID: 'randomuuid', SEND_PATH: 'faithful' }), 'MSG_ID=randomuuid is unknown; expected one of uuid, fast, preset, counter');
  assert.equal(unknown({ MSG_ID: 'uuid,nope', PAIRED: '1', SEED: '1' }),
    'MSG_ID=nope is unknown; expected one of uuid, randomuuid, fast, preset, counter');
  assert.equal(unknown({ MSG_ID: 'uuid,fast' }), 'MSG_ID=uuid,fast is unknown; expected one of uuid, randomuuid, fast, preset, counter');
  assert.equal(unknown({ SEND_PATH: 'exact' }), 'SEND_PATH=exact is unknown; expected one of lean, faithful');
});

test('each bad setting is an error naming it', () => {
  const cases = [
    [{ BITS: '0' }, /^BITS=0: must be an integer 1..=64$/],
    [{ BITS: '65' }, /^BITS=65: must be an integer 1..=64$/],
    [{ BITS: '4.2' }, /^BITS=4.2/],
    [{ PACK: '0' }, /^PACK=0: must be an integer >= 1$/],
    [{ BATCH: '0' }, /^BATCH=0/],
    [{ MESSAGES: '0' }, /^MESSAGES=0/],
    [{ WARMUP: '-1' }, /^WARMUP=-1/],
    [{ BATCH: undefined }, /^BATCH is not set$/],
    [{ MESSAGES: '999' }, /^MESSAGES=999 is less than BATCH=1000$/],
    [{ WARMUP: '100000' }, /^no timed batch left: WARMUP=100000 covers all 100 batches/],
    [{ SERVER: 'localhost' }, /^SERVER=localhost: must be host:port$/],
    [{ SERVER: 'localhost:70000' }, /^SERVER=localhost:70000/],
    [{ PAIRED: '2' }, /^PAIRED=2: must be an integer 0..=1$/],
    [{ PAIRED: '1', MSG_ID: 'fast', SEED: '1' }, /^PAIRED=1 needs at least two arms in MSG_ID, got MSG_ID=fast$/],
    [{ PAIRED: '1', MSG_ID: 'uuid,fast' }, /^SEED=: must be a u64 in decimal$/],
    [{ PAIRED: '1', MSG_ID: 'uuid,fast', SEED: '18446744073709551616' }, /^SEED=18446744073709551616: must be a u64/],
    [{ PAIRED: '1', MSG_ID: 'uuid,fast', SEED: '-1' }, /^SEED=-1/],
    [{ INJECT_NS: '-5' }, /^INJECT_NS=-5: must be a decimal number of ns in 0..=1000000000$/],
    [{ INJECT_NS: 'abc' }, /^INJECT_NS=abc: must be a decimal/],
    [{ INJECT_NS: '1e3' }, /^INJECT_NS=1e3: must be a decimal/],
    [{ INJECT_NS: '1.2.3' }, /^INJECT_NS=1.2.3: must be a decimal/],
    [{ INJECT_NS: '1000000000.5' }, /^INJECT_NS=1000000000.5: must be a decimal/],
    [{ INJECT_ARM: '1' }, /^INJECT_ARM=1 is outside the 1 arm\(s\) of MSG_ID=fast$/],
    [{ PAIRED: '1', MSG_ID: 'uuid,fast', SEED: '1', INJECT_ARM: '2' }, /^INJECT_ARM=2 is outside the 2 arm/],
    [{ MODE: 'mint' }, /^MODE=mint: this producer has only MODE=producer$/],
  ];
  for (const [change, message] of cases) {
    assert.throws(() => readSettings({ ...VALID, ...change }), (e) => e instanceof SettingsError && message.test(e.message),
      JSON.stringify(change));
  }
});
