import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSettings, SettingsError } from './settings.js';

const VALID = { SERVER: '127.0.0.1:8090', MSG_ID: 'fast', BITS: '42', PACK: '1', BATCH: '1000', MESSAGES: '100000', WARMUP: '10000' };

test('valid settings, with the warm-up rounded up to whole batches', () => {
  const settings = readSettings({ ...VALID, WARMUP: '1500' });
  assert.deepEqual(settings.server, { text: '127.0.0.1:8090', host: '127.0.0.1', port: 8090 });
  assert.equal(settings.msgId, 'fast');
  assert.deepEqual([settings.bits, settings.pack, settings.batch, settings.messages], [42, 1, 1000, 100000]);
  assert.deepEqual([settings.warmupBatches, settings.batches], [2, 100]);
  assert.equal(readSettings({ ...VALID, SERVER: '[::1]:9' }).server.host, '::1');
  assert.equal(readSettings({ ...VALID, MESSAGES: '1001', WARMUP: '0' }).batches, 2);
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
  ];
  for (const [change, message] of cases) {
    assert.throws(() => readSettings({ ...VALID, ...change }), (e) => e instanceof SettingsError && message.test(e.message),
      JSON.stringify(change));
  }
});
