/**
 * `find` with `tailable` (and `awaitData`): the option rules mongod checks when it parses a find
 * (query_request_helper.cpp `validateFindCommandRequest`, tailable_mode.cpp), and the tailable
 * read of a capped collection (storage/capped_tail.ts): the cursor stays open at the end of the
 * collection, and a later getMore returns the documents inserted since.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { CappedTailCursor } from '../../storage/capped_tail.js';
import { DEFAULT_FIRST_BATCH_DOCS, recordDocument } from '../../storage/cursors.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { recordMatcher } from '../../storage/planner/execute.js';
import { collectionSignals } from '../../storage/waitable.js';
import { formatValue } from '../../storage/values/format.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { boolArg, docArg, intArg } from '../args.js';
import { cursorReply } from '../cursor_reply.js';
import type { CommandContext } from '../types.js';
import { checkCollation, checkHint, commandVariables, queryCollator, readDocuments } from './query_exec.js';

/**
 * The rules on `tailable` and `awaitData` that a find's parse applies, whatever it reads:
 * `awaitData` needs `tailable` (9), a tailable find takes no sort but `{$natural: 1}` and no
 * `singleBatch` (2).
 */
export function checkTailableOptions(cmd: Document): void {
  const tailable = boolArg(cmd, 'tailable', false);
  if (boolArg(cmd, 'awaitData', false) && !tailable) {
    throw new CommandError('FailedToParse', "Cannot set 'awaitData' without also setting 'tailable'");
  }
  if (!tailable) return;
  const sort = docArg(cmd, 'sort');
  if (sort !== undefined && !isForwardNaturalSort(sort)) {
    throw new CommandError('BadValue', 'cannot use tailable option with a sort other than {$natural: 1}');
  }
  if (boolArg(cmd, 'singleBatch', false)) {
    throw new CommandError('BadValue', "cannot use tailable option with the 'singleBatch' option");
  }
}

/** True for `{}` and `{$natural: 1}` (any number type equal to 1, as mongod's BSON comparison). */
function isForwardNaturalSort(sort: Document): boolean {
  const keys = Object.keys(sort);
  if (keys.length === 0) return true;
  if (keys.length !== 1 || keys[0] !== '$natural') return false;
  const value = sort.$natural;
  return isNumber(value) && toDouble(value) === 1;
}

/**
 * The reply of a tailable find on `name` (neither a view nor the oplog): on a capped collection
 * a tailable cursor, open while it has a position to tail from; a collection that does not exist
 * gives a dead cursor (id 0, no documents); any other collection is refused as mongod does.
 */
export function findTailable(ctx: CommandContext, cmd: Document, name: string): Document {
  const ns = `${ctx.db}.${name}`;
  const coll = ctx.server.catalog.get(ctx.db, name);
  const collation = checkCollation(cmd.collation);
  const variables = commandVariables(cmd, ctx.now());
  const filter = docArg(cmd, 'filter') ?? {};
  const projection = docArg(cmd, 'projection');
  const collator = queryCollator(coll, collation);
  checkHint(coll, cmd.hint);
  // Every argument checked as an ordinary find checks it (the plan is made, nothing is read).
  readDocuments(
    coll,
    { filter, projection, skip: intArg(cmd, 'skip') ?? 0, limit: intArg(cmd, 'limit') ?? 0, variables, hint: cmd.hint, min: docArg(cmd, 'min'), max: docArg(cmd, 'max'), collator },
    ctx.now,
  );
  ctx.server.counters.opcounters.query++;
  if (coll === undefined) return cursorReply(ns, []);
  if (coll.options.timeseries !== undefined) {
    // A time-series collection reads as an aggregation over its buckets, which cannot tail.
    throw new CommandError('InvalidPipelineOperator', 'Tailable cursors are not supported in aggregation.');
  }
  if (coll.capped === null) {
    throw new CommandError('BadValue', `error processing query: ${queryDescription(ns, filter, cmd.sort, projection)} tailable cursor requested on non capped collection`);
  }
  const predicate = compileQuery(filter, ctx.now(), variables, collator);
  const project = projection && Object.keys(projection).length > 0 ? compileProjection(projection, { now: new Date(ctx.now()), query: filter, collator }) : null;
  const cursor = new CappedTailCursor(ns, ctx.now(), {
    coll,
    matches: recordMatcher(predicate),
    docOf: recordDocument(project),
    skip: intArg(cmd, 'skip') ?? 0,
    limit: intArg(cmd, 'limit') ?? 0,
    awaitData: boolArg(cmd, 'awaitData', false),
    noTimeout: boolArg(cmd, 'noCursorTimeout', false),
    inserts: collectionSignals(ctx.server.catalog).of(coll),
    now: ctx.now,
  });
  const batchSize = intArg(cmd, 'batchSize') ?? DEFAULT_FIRST_BATCH_DOCS;
  // A first batch of 0 documents reads nothing: the cursor is open, with no position yet.
  const firstBatch = batchSize === 0 ? [] : cursor.nextBatch(batchSize);
  if (cursor.exhausted) {
    cursor.close();
    return cursorReply(ns, firstBatch);
  }
  return cursorReply(ns, firstBatch, ctx.server.cursors.register(cursor));
}

/**
 * The canonical query as mongod's error messages print it (`toStringForErrorMsg`): its
 * namespace, then the filter, sort and projection. The filter is printed as a document, not as
 * mongod's match-expression tree (`$and` for an empty filter, as mongod prints it).
 */
function queryDescription(ns: string, filter: Document, sort: unknown, projection: Document | undefined): string {
  const tree = Object.keys(filter).length === 0 ? '$and' : formatValue(filter);
  return `ns=${ns}Tree: ${tree}\nSort: ${formatValue(sort ?? {})}\nProj: ${formatValue(projection ?? {})}\n`;
}
