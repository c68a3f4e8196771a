import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { Connection, ConnectionError } from './connection.js';

async function silentServer() {
  const sockets = [];
  const server = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    server: { host: '127.0.0.1', port, text: `127.0.0.1:${port}` },
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

test('a reply that never comes fails the request after the wait, and later requests too', async () => {
  const silent = await silentServer();
  const connection = await Connection.open(silent.server, 200);
  const frame = Buffer.alloc(256);
  frame.writeUInt32LE(256, 48);
  const started = Date.now();
  await assert.rejects(connection.roundTrip(frame),
    (e) => e instanceof ConnectionError && /no reply from server 127.0.0.1:\d+ within 0.2 s/.test(e.message));
  assert.ok(Date.now() - started < 5000);
  await assert.rejects(connection.roundTrip(frame), /no reply from server/);
  connection.close();
  await silent.close();
});
