/** `update`: replacement and operator updates, `multi`, `upsert`, per-statement write errors. */
import { ObjectId, type Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compileUpdate, buildUpsertDocument } from '../../storage/update/compile_update.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { boolArg, collectionArg } from '../args.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import { checkHint, orderedRecords } from './query_exec.js';
import { checkBatchSize, runBatch } from './write_batch.js';
import type { Collection } from '../../storage/collection.js';

const STATEMENT_FIELDS = new Set(['q', 'u', 'multi', 'upsert', 'arrayFilters', 'hint', 'collation', 'c', 'sort', 'upsertSupplied']);

/** The outcome of one update statement. */
export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
}

/** `arrayFilters` (for `$[<id>]`) are not implemented: refused rather than ignored. */
export function rejectArrayFilters(arrayFilters: unknown): void {
  if (Array.isArray(arrayFilters) && arrayFilters.length > 0) {
    throw new CommandError('NotImplemented', 'arrayFilters are not supported by Mayfly yet');
  }
}

/** Applies one update statement to `coll` (created when an upsert inserts). */
export function applyUpdateStatement(ctx: CommandContext, db: string, name: string, stmt: Document): UpdateOutcome {
  for (const key of Object.keys(stmt)) {
    if (!STATEMENT_FIELDS.has(key)) throw new CommandError('IDLUnknownField', `BSON field 'update.updates.${key}' is an unknown field.`);
  }
  if (bsonTypeOf(stmt.q) !== 'object') {
    throw new CommandError(stmt.q === undefined ? 'IDLFailedToParse' : 'TypeMismatch', stmt.q === undefined ? "BSON field 'update.updates.q' is missing but a required field" : `BSON field 'update.updates.q' is the wrong type '${bsonTypeOf(stmt.q)}', expected type 'object'`);
  }
  if (stmt.u === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'update.updates.u' is missing but a required field");
  const filter = stmt.q as Document;
  const predicate = compileQuery(filter, ctx.now()); // a bad filter fails the statement even on a missing collection
  rejectArrayFilters(stmt.arrayFilters);
  const update = compileUpdate(stmt.u as Document | Document[]);
  const multi = stmt.multi === true;
  const upsert = stmt.upsert === true;
  if (multi && update.kind === 'replacement') {
    throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
  }
  const catalog = ctx.server.catalog;
  let coll: Collection | undefined = catalog.get(db, name);
  checkHint(coll, stmt.hint);
  ctx.server.counters.opcounters.update++;
  const outcome: UpdateOutcome = { matched: 0, modified: 0 };
  const nowMs = ctx.now();
  if (coll) {
    const records = [...orderedRecords(coll, { filter, predicate, sort: stmt.sort as Document | undefined, limit: multi ? 0 : 1 }, ctx.now)];
    for (const rec of records) {
      outcome.matched++;
      const result = update.apply(rec.doc, { now: new Date(nowMs), isUpsertInsert: false });
      if (result.modified) {
        coll.update(rec, result.doc, nowMs);
        outcome.modified++;
      }
    }
  }
  if (outcome.matched === 0 && upsert) {
    const doc = buildUpsertDocument(filter, update, { now: new Date(nowMs), isUpsertInsert: true }, () => new ObjectId());
    coll ??= catalog.getOrCreate(db, name).coll;
    coll.insert(doc, nowMs);
    outcome.upsertedId = doc._id;
  }
  return outcome;
}

/** The `update` command. */
export const update: CommandDefinition = {
  name: 'update',
  target: { type: 'string' },
  args: {
    updates: { type: 'array', required: true },
    ordered: { type: 'bool' },
    bypassDocumentValidation: { type: 'bool' },
    let: { type: 'object' },
  },
  help: 'update documents',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'update', ctx.db);
    const updates = cmd.updates as unknown[];
    checkBatchSize(updates.length);
    let n = 0;
    let nModified = 0;
    const upserted: Document[] = [];
    const writeErrors = runBatch(updates, boolArg(cmd, 'ordered', true), (stmt, index) => {
      if (bsonTypeOf(stmt) !== 'object') {
        throw new CommandError('TypeMismatch', `BSON field 'update.updates.${index}' is the wrong type '${bsonTypeOf(stmt)}', expected type 'object'`);
      }
      const outcome = applyUpdateStatement(ctx, ctx.db, name, stmt as Document);
      n += outcome.matched;
      nModified += outcome.modified;
      if (outcome.upsertedId !== undefined) {
        n++;
        upserted.push({ index, _id: outcome.upsertedId });
      }
    });
    const reply: Document = { n, nModified };
    if (upserted.length > 0) reply.upserted = upserted;
    if (writeErrors.length > 0) reply.writeErrors = writeErrors;
    return reply;
  },
};
