// One TCP connection to the sink with exactly one request in flight. Connecting and every reply
// wait are bounded, and a closed or failing socket fails the pending request: nothing hangs.

import { connect } from 'node:net';
import { HEADER_BYTES } from './frames.js';

export const WAIT_MS = 10_000;

const REPLY_COMMAND = 8;

export class ConnectionError extends Error {}

export class Connection {
  /** @param {{ host: string, port: number, text: string }} server */
  static open(server, waitMs = WAIT_MS) {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: server.host, port: server.port, noDelay: true });
      const fail = (reason) => {
        socket.destroy();
        reject(new ConnectionError(`cannot connect to server ${server.text}: ${reason}`));
      };
      const timer = setTimeout(() => fail(`no connection within ${waitMs / 1000} s`), waitMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        fail(error.message);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new Connection(socket, server.text, waitMs));
      });
    });
  }

  constructor(socket, serverText, waitMs) {
    this.socket = socket;
    this.serverText = serverText;
    this.buffered = Buffer.alloc(0);
    this.pending = null;
    this.failure = null;
    socket.setNoDelay(true);
    // An idle timeout fires only while the socket is silent, so it bounds the reply wait for free.
    socket.setTimeout(waitMs, () => {
      if (this.pending) this.fail(`no reply from server ${serverText} within ${waitMs / 1000} s`);
    });
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', (error) => this.fail(`connection to server ${serverText} lost: ${error.message}`));
    socket.on('close', () => this.fail(`server ${serverText} closed the connection`));
  }

  /**
   * Sends one request frame and resolves with the reply's body once its status is 0.
   * @returns {Promise<Buffer>}
   */
  roundTrip(frame) {
    if (this.pending) throw new Error('a request is already in flight');
    if (this.failure) return Promise.reject(new ConnectionError(this.failure));
    const request = frame.readBigUInt64LE(168);
    const operation = frame[176];
    return new Promise((resolve, reject) => {
      this.pending = { request, operation, resolve, reject };
      this.socket.write(frame);
    });
  }

  close() {
    this.failure ??= 'connection closed';
    this.pending = null;
    this.socket.destroy();
  }

  receive(chunk) {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= HEADER_BYTES) {
      const size = this.buffered.readUInt32LE(48);
      if (size < HEADER_BYTES) return this.fail(`server ${this.serverText} sent a reply of size ${size}`);
      if (this.buffered.length < size) return;
      const reply = this.buffered.subarray(0, size);
      this.buffered = this.buffered.subarray(size);
      this.settle(reply);
    }
  }

  settle(reply) {
    const pending = this.pending;
    if (!pending) return this.fail(`server ${this.serverText} sent a reply to no request`);
    const request = reply.readBigUInt64LE(200);
    const operation = reply[208];
    const status = reply.readUInt32LE(216);
    if (reply[60] !== REPLY_COMMAND || request !== pending.request || operation !== pending.operation) {
      return this.fail(`server ${this.serverText} sent a reply (command ${reply[60]}, request ${request}, `
        + `operation ${operation}) that does not answer request ${pending.request}, operation ${pending.operation}`);
    }
    this.pending = null;
    if (status !== 0) {
      pending.reject(new ConnectionError(`server ${this.serverText} rejected request ${request} `
        + `(operation ${operation}) with status ${status}`));
    } else {
      pending.resolve(reply.subarray(HEADER_BYTES));
    }
  }

  fail(reason) {
    this.failure ??= reason;
    const pending = this.pending;
    this.pending = null;
    this.socket.destroy();
    pending?.reject(new ConnectionError(reason));
  }
}
