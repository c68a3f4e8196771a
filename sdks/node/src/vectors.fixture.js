// The shared test vectors generated from the Rust reference encoder (sdks/vectors.json).

import { readFileSync } from 'node:fs';

export const vectors = JSON.parse(readFileSync(new URL('../../vectors.json', import.meta.url), 'utf8'));

export const hex = (bytes) => Buffer.from(bytes).toString('hex');
