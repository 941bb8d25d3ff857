/** `count`: number of matching documents, with skip and limit. */
import { collectionArg, docArg, intArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkCollation, checkHint, checkNonNegative, orderedRecords } from './query_exec.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { countOnView, viewFor } from './view_reads.js';

/** The `count` command. */
export const count: CommandDefinition = {
  name: 'count',
  target: { type: 'string' },
  args: {
    query: { type: 'object' },
    limit: { type: 'number' },
    skip: { type: 'number' },
    hint: { type: ['object', 'string'] },
    collation: { type: 'object' },
    fields: { type: 'object' },
  },
  help: 'count objects in collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'count', ctx.db);
    const view = viewFor(ctx, name);
    if (view) return countOnView(ctx, cmd, view); // a view reads as an aggregation
    checkCollation(cmd.collation);
    const filter = docArg(cmd, 'query') ?? {};
    const predicate = compileQuery(filter, ctx.now());
    const skip = intArg(cmd, 'skip', 0);
    checkNonNegative('skip', skip);
    const limit = Math.abs(intArg(cmd, 'limit', 0));
    ctx.server.counters.opcounters.command++;
    const coll = ctx.server.catalog.get(ctx.db, name);
    checkHint(coll, cmd.hint);
    if (!coll) return { n: 0 };
    let n = 0;
    for (const _ of orderedRecords(coll, { filter, predicate, skip, limit }, ctx.now)) n++;
    return { n };
  },
};
