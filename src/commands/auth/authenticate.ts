/**
 * `authenticate`: the one-step mechanisms (src/auth/mechanisms.ts `AUTHENTICATE_MECHANISMS`);
 * SCRAM is SASL only and answers 18 "Authentication failed." here, as mongod.
 */
import { authenticate as run } from '../../auth/mechanisms.js';
import type { CommandDefinition } from '../types.js';

/** The `authenticate` command. */
export const authenticate: CommandDefinition = {
  name: 'authenticate',
  args: { mechanism: { type: 'any' }, user: { type: 'any' }, pwd: { type: 'any' }, key: { type: 'any' }, nonce: { type: 'any' } },
  help: 'internal',
  run: (ctx, cmd) => run(ctx.connection.auth, ctx.db, cmd),
};
