/** `isMaster` / `ismaster`: the legacy handshake (older drivers, OP_QUERY). */
import type { CommandDefinition } from '../types.js';
import { helloReply } from './hello_reply.js';

/** The `isMaster` command. */
export const isMaster: CommandDefinition = {
  name: 'isMaster',
  aliases: ['ismaster'],
  args: 'lenient',
  help: 'Check if this server is primary for a replica set (legacy name of hello)',
  run: (ctx, cmd) => helloReply(ctx, cmd, 'ismaster'),
};
