/**
 * `compact`: mongod 8.2 rewrites a collection's storage to release free space. Mayfly keeps
 * documents in memory with nothing to release, so it checks the request as mongod does
 * (compact.idl, strict: `dryRun` and `force` booleans, `freeSpaceTargetMB` an integer of at
 * least 1; no writeConcern; only the local read concern) and answers that nothing was freed:
 * `{ bytesFreed: 0 }`, or `{ estimatedBytesFreed: 0 }` for a dry run. A view is 166, a missing
 * collection 26.
 */
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, checkSafeInt64, collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `compact` command. */
export const compact: CommandDefinition = {
  name: 'compact',
  target: IdlRules.collectionName,
  args: {
    dryRun: IdlRules.bool,
    force: IdlRules.bool,
    freeSpaceTargetMB: {
      type: 'number',
      parse(value, field, idl) {
        if (value === null) return;
        const mb = checkSafeInt64(`${idl}.${field}`, field, value);
        if (mb < 1n) throw new CommandError('BadValue', `BSON field '${field}' value must be >= 1, actual value '${mb}'`);
      },
    },
  },
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'compact collection\nwarning: this operation locks the database and is slow. you can cancel with killOp()\n{ compact : <collection_name>, [force:<bool>], [freeSpaceTargetMB:<int64_t>], [dryRun:<bool>] }',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'compact', ctx.db);
    if (name.includes('\0') || name.startsWith('.')) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.${name}'`);
    const catalog = ctx.server.catalog;
    if (!catalog.get(ctx.db, name)) {
      if (catalog.view(ctx.db, name)) throw new CommandError('CommandNotSupportedOnView', `can't compact a view`);
      throw new CommandError('NamespaceNotFound', 'collection does not exist');
    }
    return cmd.dryRun === true ? { estimatedBytesFreed: 0 } : { bytesFreed: 0 };
  },
};
