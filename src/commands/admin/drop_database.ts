/**
 * `dropDatabase`: removes every collection (and view) of the database, as mongod 8.2
 * (drop_database.idl, drop_database_cmd): the command's value is a `safeInt64` that must be 1
 * (5255100 otherwise; 14 for a non-number; null is missing, 40414); the `admin` database cannot
 * be dropped (20). The reply is `{ ok: 1 }`, whether the database existed or not.
 */
import { CommandError } from '../../errors/command_error.js';
import { safeNumberLong } from '../../storage/values/numeric.js';
import { checkSafeInt64 } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `dropDatabase` command. */
export const dropDatabase: CommandDefinition = {
  name: 'dropDatabase',
  target: {
    type: 'number',
    parse(value) {
      if (value === null) throw new CommandError('IDLFailedToParse', "BSON field 'dropDatabase.dropDatabase' is missing but a required field");
      checkSafeInt64('dropDatabase.dropDatabase', 'dropDatabase', value);
    },
  },
  args: {},
  concerns: { readConcern: 'localOnly', writeConcern: true },
  help: 'drop (delete) this database',
  run(ctx, cmd) {
    if (safeNumberLong(cmd.dropDatabase) !== 1n) throw new CommandError(5255100, 'have to pass 1 as db parameter');
    if (ctx.db === 'admin') throw new CommandError('IllegalOperation', "Dropping the 'admin' database is prohibited.");
    for (const coll of ctx.server.catalog.collections(ctx.db)) ctx.server.cursors.killNamespace(coll.ns);
    ctx.server.catalog.dropDatabase(ctx.db);
    return {};
  },
};
