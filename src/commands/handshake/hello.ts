/** `hello`: the handshake and topology probe of current drivers. */
import type { CommandDefinition } from '../types.js';
import { helloReply } from './hello_reply.js';

/** The `hello` command. */
export const hello: CommandDefinition = {
  name: 'hello',
  args: 'lenient',
  help: 'Check if this server is primary for a replica set',
  run: (ctx, cmd) => helloReply(ctx, cmd, 'isWritablePrimary'),
};
