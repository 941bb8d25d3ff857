/** `replSetGetRBID`: the member's rollback id; a member that never rolled back keeps its first one. */
import type { CommandDefinition } from '../types.js';
import { election, requireReplSet } from './repl_set.js';

/** The `replSetGetRBID` command. */
export const replSetGetRBID: CommandDefinition = {
  name: 'replSetGetRBID',
  adminOnly: true,
  args: {},
  help: 'internal',
  run(ctx) {
    requireReplSet(ctx);
    // mongod starts its rollback id from the clock; this member's never changes (no rollback).
    return { rbid: election(ctx).electionDateMs % 2147483647 | 0 };
  },
};
