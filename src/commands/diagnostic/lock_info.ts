/**
 * `lockInfo` (lock_info.cpp): the locks held and awaited, one entry per resource. Mayfly runs
 * one operation at a time and takes no locks of its own; the one lock that outlives an
 * operation is fsync's (`fsync: 1, lock: true`), which holds the global resource in S mode.
 */
import { Long, type Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';
import { adminState } from '../admin/_internal/admin_state.js';

/** The `lockInfo` command. */
export const lockInfo: CommandDefinition = {
  name: 'lockInfo',
  adminOnly: true,
  args: { includeStorageEngineDump: { type: 'bool' } },
  help: 'show all lock info on the server',
  run(ctx) {
    const entries: Document[] = [];
    const locks = adminState(ctx.server).fsyncLockCount;
    if (locks > 0) {
      entries.push({
        resourceId: '{1: Global, 1}',
        granted: [{ mode: 'S', convertMode: 'NONE', enqueueAtFront: false, compatibleFirst: false, debugInfo: '', lockCount: Long.fromNumber(locks), desc: 'fsyncLockWorker' }],
        pending: [],
      });
    }
    return { lockInfo: entries };
  },
};
