/**
 * `mayflyRunTtlPass`: runs one TTL reaper pass now (after the one in progress, if any) and
 * replies with what it deleted: `{ deleted: Int64, subPasses: Int64 }`. Runs whether or not
 * `ttlMonitorEnabled` is true (that parameter governs the background monitor). Admin only.
 */
import type { CommandDefinition } from '../types.js';

/** The `mayflyRunTtlPass` command: `db.adminCommand({ mayflyRunTtlPass: 1 })`. */
export const mayflyRunTtlPass: CommandDefinition = {
  name: 'mayflyRunTtlPass',
  adminOnly: true,
  args: {},
  help: 'test clock: runs one TTL reaper pass now; replies { deleted, subPasses }',
  async run(ctx) {
    return ctx.server.ttl.runPass();
  },
};
