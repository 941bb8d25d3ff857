/** `replSetGetConfig`: the one-node config (`rs.conf()`). */
import type { CommandDefinition } from '../types.js';
import { replSetConfig, requireReplSet } from './repl_set.js';

/** The `replSetGetConfig` command. */
export const replSetGetConfig: CommandDefinition = {
  name: 'replSetGetConfig',
  adminOnly: true,
  args: { commitmentStatus: { type: 'bool' }, includeNewlyAddedMembers: { type: 'bool' } },
  help: 'Returns the current replica set configuration',
  run(ctx, cmd) {
    const name = requireReplSet(ctx);
    const reply: { config: unknown; commitmentStatus?: boolean } = { config: replSetConfig(ctx, name) };
    if (cmd.commitmentStatus === true) reply.commitmentStatus = true;
    return reply;
  },
};
