// Message IDs are u128 on the wire, little-endian. serializeMessageId turns what a caller may hold
// (number, bigint, decimal string or 16 bytes) into those 16 bytes, or throws: never a truncated value.

const U64_MASK = (1n << 64n) - 1n;
const BOUND = '0 <= id < 2^128';

export const MESSAGE_ID_BYTES = 16;

export class MessageIdError extends Error {
  /** @param {'negative'|'too_large'|'not_integer'|'invalid'} kind */
  constructor(kind, input, reason) {
    super(`message id ${describe(input)} ${reason}`);
    this.name = 'MessageIdError';
    this.kind = kind;
  }
}

/** @returns {Buffer} 16 bytes, little-endian */
export function serializeMessageId(input) {
  if (input instanceof Uint8Array) return copyOfBytes(input);
  const value = toBigInt(input);
  if (value < 0n) throw new MessageIdError('negative', input, `is negative: must be ${BOUND}`);
  if (value >> 128n !== 0n) throw new MessageIdError('too_large', input, `is too large: must be ${BOUND}`);
  const bytes = Buffer.alloc(MESSAGE_ID_BYTES);
  bytes.writeBigUInt64LE(value & U64_MASK, 0);
  bytes.writeBigUInt64LE(value >> 64n, 8);
  return bytes;
}

function copyOfBytes(input) {
  if (input.length !== MESSAGE_ID_BYTES) {
    throw new MessageIdError('invalid', input, `has ${input.length} bytes: must be exactly ${MESSAGE_ID_BYTES}`);
  }
  return Buffer.from(input);
}

function toBigInt(input) {
  switch (typeof input) {
    case 'bigint':
      return input;
    case 'number':
      return numberToBigInt(input);
    case 'string':
      return decimalToBigInt(input);
    default:
      throw new MessageIdError('invalid', input, 'is not a number, bigint, decimal string or 16 bytes');
  }
}

// A number above 2^53 - 1 may already have been rounded, so it is refused rather than trusted.
function numberToBigInt(input) {
  if (Number.isNaN(input)) throw new MessageIdError('invalid', input, 'is not a number');
  if (input < 0) throw new MessageIdError('negative', input, `is negative: must be ${BOUND}`);
  if (Number.isFinite(input) && !Number.isInteger(input)) {
    throw new MessageIdError('not_integer', input, `is not an integer: must be ${BOUND}`);
  }
  if (!Number.isSafeInteger(input)) {
    throw new MessageIdError('too_large', input,
      'is above Number.MAX_SAFE_INTEGER (2^53 - 1), where numbers lose digits: pass a bigint or decimal string');
  }
  return BigInt(input);
}

// Only plain digits are a decimal ID: no sign, spaces, fraction or exponent, as in the Rust reference.
function decimalToBigInt(input) {
  if (/^[0-9]+$/.test(input)) return BigInt(input);
  if (/^-[0-9]+$/.test(input)) throw new MessageIdError('negative', input, `is negative: must be ${BOUND}`);
  throw new MessageIdError('invalid', input, `is not a decimal integer: must be digits only, ${BOUND}`);
}

function describe(input) {
  if (input instanceof Uint8Array) return `<${input.length} bytes>`;
  if (typeof input === 'string') return JSON.stringify(input.length > 60 ? `${input.slice(0, 60)}...` : input);
  if (typeof input === 'bigint') return `${input}n`;
  return String(input);
}
