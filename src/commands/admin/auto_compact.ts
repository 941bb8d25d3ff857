/**
 * `autoCompact`: enables or disables the background compaction task (auto_compact.cpp). An
 * in-memory store has no free space to reclaim, so the task has nothing to do; the command keeps
 * its configuration and mongod's checks: `freeSpaceTargetMB` >= 1 (safeInt64), its byte size
 * within Int64 on the enabling path, and a running task reconfigured differently is 23
 * AlreadyInitialized. `runOnce` runs the pass immediately and leaves the task disabled.
 */
import { CommandError } from '../../errors/command_error.js';
import { NUMBER_TYPE_NAMES, typeMismatch } from '../idl_errors.js';
import { isNumber, safeNumberLong } from '../../storage/values/numeric.js';
import type { CommandDefinition } from '../types.js';
import { adminState } from './_internal/admin_state.js';
import { requiredBoolTarget, strictBoolRule } from './_internal/admin_args.js';

const BYTES_PER_MB = 1024n * 1024n;

/** The `autoCompact` command. */
export const autoCompact: CommandDefinition = {
  name: 'autoCompact',
  adminOnly: true,
  target: requiredBoolTarget,
  args: {
    freeSpaceTargetMB: {
      type: 'number',
      parse(value, field, idl) {
        if (value === null) return;
        if (!isNumber(value)) throw typeMismatch(`${idl}.${field}`, value, NUMBER_TYPE_NAMES);
      },
    },
    runOnce: strictBoolRule,
  },
  concerns: { writeConcern: false },
  help: 'enables or disables background compaction',
  run(ctx, cmd) {
    const enable = cmd.autoCompact === true;
    const runOnce = cmd.runOnce === true;
    const raw = cmd.freeSpaceTargetMB;
    const mb = raw === undefined || raw === null ? undefined : safeNumberLong(raw)!;
    if (mb !== undefined) {
      if (mb < 1n) throw new CommandError('BadValue', `freeSpaceTargetMB must be at least 1, actual value '${mb}'`);
      if (enable && BigInt.asIntN(64, mb * BYTES_PER_MB) < BYTES_PER_MB) {
        throw new CommandError('BadValue', `freeSpaceTargetMB is too large, actual value '${mb}'`);
      }
    }
    const state = adminState(ctx.server);
    if (!enable) {
      state.autoCompact = undefined;
      return {};
    }
    const running = state.autoCompact;
    if (running !== undefined && (running.freeSpaceTargetMB !== mb || running.runOnce !== runOnce)) {
      throw new CommandError('AlreadyInitialized', 'autoCompact is already running with a different configuration; disable it first');
    }
    // A single pass finishes at once here: nothing stays enabled after it.
    state.autoCompact = runOnce ? undefined : { freeSpaceTargetMB: mb, runOnce };
    return {};
  },
};
