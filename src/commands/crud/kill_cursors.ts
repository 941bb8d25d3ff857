/** `killCursors`: closes cursors by id. */
import { Long, Timestamp } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, collectionArg, typeMismatch } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `killCursors` command (`KillCursorsCommandRequest` in kill_cursors.idl, killcursors_common.h). */
export const killCursors: CommandDefinition = {
  name: 'killCursors',
  // The collection: a string (73 InvalidNamespace otherwise).
  target: IdlRules.collectionName,
  args: {
    // array<cursorId>: Int64s (a Timestamp is not one); null elements are passed over, and a
    // null array reads as missing (40414).
    cursors: {
      type: 'any',
      required: true,
      parse(value, field, idl) {
        if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
        if (!Array.isArray(value)) throw typeMismatch(`${idl}.${field}`, value, ['array']);
        value.forEach((id: unknown, i) => {
          if (id !== null && (!(id instanceof Long) || id instanceof Timestamp)) throw typeMismatch(`${idl}.${field}.${i}`, id, ['long']);
        });
      },
    },
  },
  // No write concern; the read concern `local` only, and no cluster time to read after.
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'Kill a list of cursor ids',
  run(ctx, cmd) {
    collectionArg(cmd, 'killCursors', ctx.db);
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    for (const id of cmd.cursors as (Long | null)[]) {
      if (id === null) continue;
      // A cursor is found by its id alone, whatever collection the command names (mongod 8.2);
      // one killed by a drop or rename of its collection is still there to kill.
      (ctx.server.cursors.kill(id) ? cursorsKilled : cursorsNotFound).push(id);
    }
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  },
};
