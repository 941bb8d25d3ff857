/** `find`: filter, projection, sort, skip, limit, batchSize, singleBatch; returns a cursor. */
import type { Document } from '../../bson.js';
import { boolArg, collectionArg, docArg, intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import { DEFAULT_FIRST_BATCH_DOCS } from '../../storage/cursors.js';
import type { CommandDefinition } from '../types.js';
import { checkCollation, checkHint, checkNonNegative, commandVariables, readDocuments } from './query_exec.js';
import { findOnView, viewFor } from './view_reads.js';

/** The `find` command. */
export const find: CommandDefinition = {
  name: 'find',
  idlName: 'FindCommandRequest',
  target: { type: 'string' },
  args: {
    filter: { type: 'object' },
    projection: { type: 'object' },
    sort: { type: 'object' },
    hint: { type: ['object', 'string'] },
    skip: { type: 'number' },
    limit: { type: 'number' },
    batchSize: { type: 'number' },
    singleBatch: { type: 'bool' },
    let: { type: 'object' },
    max: { type: 'object' },
    min: { type: 'object' },
    returnKey: { type: 'bool' },
    showRecordId: { type: 'bool' },
    tailable: { type: 'bool' },
    oplogReplay: { type: 'bool' },
    noCursorTimeout: { type: 'bool' },
    awaitData: { type: 'bool' },
    allowPartialResults: { type: 'bool' },
    collation: { type: 'object' },
    allowDiskUse: { type: 'bool' },
    readOnce: { type: 'bool' },
    term: { type: 'number' },
  },
  help: 'query for documents',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'find', ctx.db);
    const skip = intArg(cmd, 'skip');
    const limit = intArg(cmd, 'limit');
    const batchSize = intArg(cmd, 'batchSize');
    checkNonNegative('skip', skip);
    checkNonNegative('limit', limit);
    checkNonNegative('batchSize', batchSize);
    const view = viewFor(ctx, name);
    if (view) return findOnView(ctx, cmd, name, view); // a view reads as an aggregation
    checkCollation(cmd.collation);
    const variables = commandVariables(cmd, ctx.now());
    ctx.server.counters.opcounters.query++;
    const coll = ctx.server.catalog.get(ctx.db, name);
    checkHint(coll, cmd.hint);
    const source = readDocuments(
      coll,
      {
        filter: docArg(cmd, 'filter'),
        projection: docArg(cmd, 'projection'),
        sort: docArg(cmd, 'sort') as Document | undefined,
        skip: skip ?? 0,
        limit: limit ?? 0,
        variables,
        hint: cmd.hint,
        min: docArg(cmd, 'min'),
        max: docArg(cmd, 'max'),
      },
      ctx.now,
    );
    let firstBatchSize = batchSize ?? DEFAULT_FIRST_BATCH_DOCS;
    if (limit && firstBatchSize > limit) firstBatchSize = limit;
    return firstBatchReply(ctx, `${ctx.db}.${name}`, source, {
      batchSize: firstBatchSize,
      singleBatch: boolArg(cmd, 'singleBatch', false),
      noCursorTimeout: boolArg(cmd, 'noCursorTimeout', false),
    });
  },
};
