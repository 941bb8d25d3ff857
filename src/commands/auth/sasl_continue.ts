/** `saslContinue`: the next step of the SASL conversation under way on this connection. */
import { saslContinue as next } from '../../auth/mechanisms.js';
import type { CommandDefinition } from '../types.js';

/** The `saslContinue` command. */
export const saslContinue: CommandDefinition = {
  name: 'saslContinue',
  args: { conversationId: { type: 'number', required: true }, payload: { type: 'any', required: true } },
  help: 'Subsequent steps in a SASL authentication conversation.',
  run: (ctx, cmd) => next(ctx.connection.auth, cmd),
};
