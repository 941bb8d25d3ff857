/** `killCursors`: closes cursors by id. */
import { Long } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `killCursors` command. */
export const killCursors: CommandDefinition = {
  name: 'killCursors',
  target: { type: 'string' },
  args: { cursors: { type: 'array', required: true } },
  help: 'Kill a list of cursor ids',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'killCursors', ctx.db);
    const ns = `${ctx.db}.${name}`;
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    (cmd.cursors as unknown[]).forEach((id, i) => {
      if (!(id instanceof Long)) {
        throw new CommandError('TypeMismatch', `BSON field 'killCursors.cursors.${i}' is the wrong type '${bsonTypeOf(id)}', expected type 'long'`);
      }
    });
    for (const id of cmd.cursors as Long[]) {
      let found = false;
      try {
        const cursor = ctx.server.cursors.get(id, ctx.now());
        found = cursor.ns === ns && ctx.server.cursors.kill(id);
      } catch {
        found = false;
      }
      (found ? cursorsKilled : cursorsNotFound).push(id);
    }
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  },
};
