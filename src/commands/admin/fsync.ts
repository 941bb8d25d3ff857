/**
 * `fsync`: flushes (nothing to flush in memory: `numFiles: 1`), or with a truthy `lock` takes
 * one more of the server-global fsync locks (fsync.cpp: nested, held until as many fsyncUnlock).
 */
import { Long } from '../../bson/library.js';
import { IdlRules, boolArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { adminState } from './_internal/admin_state.js';
import { int32Rule } from './_internal/admin_args.js';

/** The `fsync` command. */
export const fsync: CommandDefinition = {
  name: 'fsync',
  adminOnly: true,
  args: {
    lock: IdlRules.safeBool,
    fsyncLockAcquisitionTimeoutMillis: int32Rule,
  },
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'invoke fsync on all files, and optionally lock the server against writes (lock: true)',
  run(ctx, cmd) {
    if (!boolArg(cmd, 'lock', false)) return { numFiles: 1 };
    const state = adminState(ctx.server);
    state.fsyncLockCount++;
    return {
      info: 'now locked against writes, use db.fsyncUnlock() to unlock',
      lockCount: Long.fromNumber(state.fsyncLockCount),
      seeAlso: 'http://dochub.mongodb.org/core/fsynccommand',
    };
  },
};
