/** `killCursors`: closes cursors by id. */
import { Long } from '../../bson/library.js';
import { IdlRules, collectionArg, typeMismatch } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `killCursors` command (`KillCursorsCommandRequest` in kill_cursors.idl). */
export const killCursors: CommandDefinition = {
  name: 'killCursors',
  target: { type: 'string' },
  args: {
    // array<cursorId>: an array of Int64s.
    cursors: IdlRules.arrayOf((id, _i, path) => {
      if (!(id instanceof Long)) throw typeMismatch(path, id, ['long']);
    }, true),
  },
  help: 'Kill a list of cursor ids',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'killCursors', ctx.db);
    const ns = `${ctx.db}.${name}`;
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
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
