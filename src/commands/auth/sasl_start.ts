/** `saslStart`: the first step of a SASL conversation (SCRAM-SHA-1, SCRAM-SHA-256). */
import { saslStart as start } from '../../auth/mechanisms.js';
import type { CommandDefinition } from '../types.js';

/** The `saslStart` command. */
export const saslStart: CommandDefinition = {
  name: 'saslStart',
  args: { mechanism: { type: 'string', required: true }, payload: { type: 'any', required: true }, autoAuthorize: { type: 'any' }, options: { type: 'object' } },
  help: 'First step in a SASL authentication conversation.',
  run: (ctx, cmd) => start(ctx.connection.auth, ctx.db, cmd),
};
