// The send paths a producer has (SEND_PATH): each with its MSG_ID names, how an arm mints, and the
// encoder that builds its SEND_MESSAGES requests. Both encoders give the same bytes for the same IDs.

import { createFaithfulMinter, FaithfulEncoder, FAITHFUL_STRATEGIES } from './faithful.js';
import { SendMessagesEncoder } from './frames.js';
import { createMinter, STRATEGIES } from './mint.js';

export const SEND_PATHS = Object.freeze({
  // Our producer: only the ID path is the SDK's; frames built in place in one reused buffer.
  lean: { strategies: STRATEGIES, createMinter, Encoder: SendMessagesEncoder },
  // The real SDK's per-message work (src/faithful.js).
  faithful: { strategies: FAITHFUL_STRATEGIES, createMinter: createFaithfulMinter, Encoder: FaithfulEncoder },
});
