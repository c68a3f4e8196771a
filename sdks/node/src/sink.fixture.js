// A throw-away sink for the producer tests: it answers login, send and logout requests like the
// real sink and records what it received, and can be told to reject or to hang up.

import { once } from 'node:events';
import { createServer } from 'node:net';

const SESSION = 0x0102030405n;

function reply(request, operation, status, body = Buffer.alloc(0)) {
  const header = Buffer.alloc(256);
  header.writeUInt32LE(256 + body.length, 48);
  header[60] = 8;
  header.writeBigUInt64LE(request, 200);
  header[208] = operation;
  header.writeUInt32LE(status, 216);
  return Buffer.concat([header, body]);
}

function loginBody() {
  const body = Buffer.alloc(4 + 4 + 8 + 4 + 1 + 4);
  body.writeUInt32LE(1, 4); // user_id
  body.writeBigUInt64LE(SESSION, 8);
  body.writeUInt32LE(0x3002, 16);
  body[20] = 4;
  body.write('fake', 21);
  return body;
}

/**
 * @param {{ sendStatus?: number, closeAfterSends?: number }} behaviour
 * @returns {Promise<{ address: string, requests: Buffer[], close: () => Promise<void> }>}
 */
export async function startSink({ sendStatus = 0, closeAfterSends = Infinity } = {}) {
  const requests = [];
  const server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    let sends = 0;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 256 && buffered.length >= buffered.readUInt32LE(48)) {
        const frame = buffered.subarray(0, buffered.readUInt32LE(48));
        buffered = buffered.subarray(frame.length);
        requests.push(frame);
        const request = frame.readBigUInt64LE(168);
        const operation = frame[176];
        if (operation === 1) {
          socket.write(reply(request, operation, 0, loginBody()));
        } else if (operation === 160 && ++sends > closeAfterSends) {
          socket.destroy();
          return;
        } else {
          socket.write(reply(request, operation, operation === 160 ? sendStatus : 0));
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    address: `127.0.0.1:${server.address().port}`,
    session: SESSION,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
