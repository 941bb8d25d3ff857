/** `fsyncUnlock`: releases one of the server-global fsync locks, whoever took it. */
import { Long } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';
import { adminState } from './_internal/admin_state.js';

/** The `fsyncUnlock` command. */
export const fsyncUnlock: CommandDefinition = {
  name: 'fsyncUnlock',
  adminOnly: true,
  args: 'lenient',
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'releases one fsync lock; writes resume once every lock is released',
  run(ctx) {
    const state = adminState(ctx.server);
    if (state.fsyncLockCount === 0) throw new CommandError('IllegalOperation', 'fsyncUnlock called when not locked');
    state.fsyncLockCount--;
    return { info: 'fsyncUnlock completed', lockCount: Long.fromNumber(state.fsyncLockCount) };
  },
};
