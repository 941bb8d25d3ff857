/** `startSession`: a new logical session id (used by some shells). */
import { UUID } from '../../bson/library.js';
import { LOGICAL_SESSION_TIMEOUT_MINUTES } from '../handshake/hello_reply.js';
import type { CommandDefinition } from '../types.js';

/** The `startSession` command. */
export const startSession: CommandDefinition = {
  name: 'startSession',
  args: 'lenient',
  help: 'start a logical session',
  run: () => ({ id: { id: new UUID() }, timeoutMinutes: LOGICAL_SESSION_TIMEOUT_MINUTES }),
};
