/** `invalidateUserCache`: every connection resolves its user's roles and privileges again. */
import type { CommandDefinition } from '../types.js';

/** The `invalidateUserCache` command. */
export const invalidateUserCache: CommandDefinition = {
  name: 'invalidateUserCache',
  adminOnly: true,
  args: {},
  help: 'Invalidates the in-memory cache of user information',
  run(ctx) {
    ctx.server.auth.invalidate();
    return {};
  },
};
