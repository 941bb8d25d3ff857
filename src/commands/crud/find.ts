/** `find`: filter, projection, sort, skip, limit, batchSize, singleBatch; returns a cursor. */
import { cosmosCheckSort, cosmosIndexKeys } from '../../cosmos/rules/sort_needs_index.js';
import { findOplog, readsOplog } from './oplog_find.js';
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, boolArg, checkNonNegative, collectionArg, docArg, intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import { DEFAULT_FIRST_BATCH_DOCS } from '../../storage/cursors.js';
import type { ArgRule, CommandDefinition } from '../types.js';
import { checkCollation, checkHint, commandVariables, queryCollator, readDocuments } from './query_exec.js';
import { findOnView, viewFor } from './view_reads.js';
import { expressFind } from './express.js';
import { findShape } from '../../storage/planner/command_shape.js';
import { checkNotRejected } from '../query_settings/_internal.js';
import { checkTailableOptions, findTailable } from './tailable_find.js';
import { commandTimeLimit } from './time_limit.js';

/** `boolNoOpSerializer` (`oplogReplay`): a boolean, with mongod's message (which names 'object'). */
const noOpBool: ArgRule = {
  type: 'any',
  parse(value, field) {
    if (typeof value !== 'boolean') throw new CommandError('TypeMismatch', `Expected field ${field}to be of type object`);
  },
};

/**
 * A `safeInt64` count that must be >= 0 (skip, limit, batchSize): mongod 8.2 answers a negative
 * one with 2 BadValue (null reads as absent).
 */
const nonNegativeCount: ArgRule = {
  type: 'any',
  parse(value, field, idl) {
    if (value !== null) checkNonNegative(`${idl}.${field}`, field, value);
  },
};

/** The `find` command (`FindCommandRequest` in find_command.idl). */
export const find: CommandDefinition = {
  name: 'find',
  idlName: 'FindCommandRequest',
  target: { type: 'string' },
  args: {
    filter: IdlRules.ownedObject,
    projection: IdlRules.ownedObject,
    sort: IdlRules.ownedObject,
    hint: IdlRules.indexHint,
    collation: IdlRules.ownedObject,
    skip: nonNegativeCount,
    limit: nonNegativeCount,
    batchSize: nonNegativeCount,
    singleBatch: IdlRules.optionalBool,
    allowDiskUse: IdlRules.optionalBool,
    min: IdlRules.ownedObject,
    max: IdlRules.ownedObject,
    returnKey: IdlRules.optionalBool,
    showRecordId: IdlRules.optionalBool,
    tailable: IdlRules.optionalBool,
    oplogReplay: noOpBool,
    noCursorTimeout: IdlRules.optionalBool,
    awaitData: IdlRules.optionalBool,
    allowPartialResults: IdlRules.optionalBool,
    let: { type: 'object' },
    term: IdlRules.safeInt64(),
    readOnce: IdlRules.optionalBool,
    allowSpeculativeMajorityRead: IdlRules.optionalBool,
    readConcern: { type: 'object' },
  },
  help: 'query for documents',
  // Every level (snapshot outside transactions: sessions/snapshot_read.ts); a standalone refuses snapshot and linearizable.
  concerns: { readConcern: 'all' },
  express: expressFind,
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'find', ctx.db);
    const skip = intArg(cmd, 'skip');
    const limit = intArg(cmd, 'limit');
    const batchSize = intArg(cmd, 'batchSize');
    checkTailableOptions(cmd);
    if (readsOplog(ctx, name)) return findOplog(ctx, cmd, batchSize === 0 ? 0 : batchSize);
    const view = viewFor(ctx, name);
    if (view) return findOnView(ctx, cmd, name, view); // a view reads as an aggregation
    if (cmd.tailable === true) return findTailable(ctx, cmd, name);
    const collation = checkCollation(cmd.collation);
    const variables = commandVariables(cmd, ctx.now());
    checkNotRejected(ctx.server, () => findShape({ db: ctx.db, coll: name }, cmd));
    ctx.server.counters.opcounters.query++;
    const coll = ctx.server.catalog.get(ctx.db, name);
    checkHint(coll, cmd.hint);
    const cosmos = ctx.server.settings.cosmos;
    if (cosmos?.rules.sortNeedsIndex) cosmosCheckSort(docArg(cmd, 'sort'), cosmosIndexKeys(coll));
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
        collator: queryCollator(coll, collation),
      },
      ctx.now,
    );
    let firstBatchSize = batchSize ?? DEFAULT_FIRST_BATCH_DOCS;
    if (limit && firstBatchSize > limit) firstBatchSize = limit;
    // Cosmos DB mode's 60 s per request (maxTimeMS itself is not applied to find here).
    const timeLimit = cosmos?.rules.requestTimeLimit ? commandTimeLimit(ctx, 0) : undefined;
    return firstBatchReply(ctx, `${ctx.db}.${name}`, timeLimit ? timeLimit.timedSource(source) : source, {
      batchSize: firstBatchSize,
      singleBatch: boolArg(cmd, 'singleBatch', false),
      noCursorTimeout: boolArg(cmd, 'noCursorTimeout', false),
    });
  },
};
