/**
 * `drop`: removes a collection and its indexes, or a view (its definition); a missing
 * namespace is not an error (7.0+).
 */
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `drop` command. */
export const drop: CommandDefinition = {
  name: 'drop',
  target: IdlRules.collectionName,
  args: {},
  concerns: { readConcern: 'localOnly', writeConcern: true },
  help: 'drop a collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'drop', ctx.db);
    // A namespace mongod cannot form (NamespaceString's checks): 73.
    if (name.includes('\0') || name.startsWith('.')) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.${name}'`);
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (!coll) return ctx.server.catalog.dropView(ctx.db, name) ? { ns: `${ctx.db}.${name}` } : {};
    const nIndexesWas = coll.indexSpecs().length;
    ctx.server.cursors.killNamespace(coll.ns);
    ctx.server.catalog.drop(ctx.db, name);
    return { nIndexesWas, ns: `${ctx.db}.${name}` };
  },
};
