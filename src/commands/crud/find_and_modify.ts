/**
 * `findAndModify`: update, replace, upsert or remove one document and return it (before or
 * after, projected by `fields`). Options as mongod 8.2 (find_and_modify.cpp, the IDL of
 * `FindAndModifyCommandRequest`): `query`, `sort`, `remove`, `update` (document or pipeline),
 * `new`, `fields` (with the positional `a.$`), `upsert`, `arrayFilters`, `let`, `hint`,
 * `collation` (else the collection's default), `bypassDocumentValidation`. Errors raised while modifying the
 * document carry "Plan executor error during findAndModify :: caused by ::".
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compileSort } from '../../storage/query/sort.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { checkHintType, collectionArg, docArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { commandVariables, orderedRecords, queryCollator } from './query_exec.js';
import {
  checkArrayOfObjects,
  checkCollation,
  checkUpdateModification,
  executorError,
  parseUpdateRequest,
  upsertDocument,
  type UpdateSpec,
} from './update.js';
import { bypassArg, enforceValidation } from './document_validation.js';

/** A `safeBool` field of findAndModify: a bool or any number (null reads as absent). */
function safeBool(cmd: Document, field: string): boolean | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (isNumber(value)) return toDouble(value) !== 0;
  throw new CommandError(
    'TypeMismatch',
    `BSON field 'findAndModify.${field}' is the wrong type '${bsonTypeOf(value)}', expected types '[int, decimal, long, bool, double]'`,
  );
}

/** The `findAndModify` command. */
export const findAndModify: CommandDefinition = {
  name: 'findAndModify',
  aliases: ['findandmodify'],
  target: { type: 'string' },
  args: {
    query: { type: 'object' },
    sort: { type: 'object' },
    remove: { type: 'any' },
    update: { type: 'any' },
    new: { type: 'any' },
    fields: { type: 'object' },
    upsert: { type: 'any' },
    arrayFilters: { type: 'any' },
    bypassDocumentValidation: { type: 'any' },
    collation: { type: 'object' },
    hint: { type: 'any' },
    let: { type: 'object' },
  },
  help: '{ findAndModify: "collection", query: {processed:false}, update: {$set: {processed:true}}, new: true}',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'findAndModify', ctx.db);
    // The IDL, field by field.
    const remove = safeBool(cmd, 'remove') ?? false;
    const returnNew = safeBool(cmd, 'new') ?? false;
    const upsert = safeBool(cmd, 'upsert') ?? false;
    safeBool(cmd, 'bypassDocumentValidation');
    const updateMod = cmd.update === undefined ? undefined : checkUpdateModification(cmd.update);
    const arrayFilters = checkArrayOfObjects('findAndModify.arrayFilters', cmd.arrayFilters);
    const hint = checkHintType(cmd.hint);
    // find_and_modify.cpp validate().
    if (!remove && updateMod === undefined) throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
    if (remove) {
      if (updateMod !== undefined) throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
      if (upsert) throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true ');
      if (returnNew) {
        throw new CommandError('FailedToParse', "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document");
      }
      if (arrayFilters !== undefined) throw new CommandError('FailedToParse', 'Cannot specify arrayFilters and remove=true');
    }
    if (Array.isArray(updateMod) && arrayFilters !== undefined) {
      throw new CommandError('FailedToParse', 'Cannot specify arrayFilters and a pipeline update');
    }
    const vars = commandVariables(cmd, ctx.now());
    const filter = docArg(cmd, 'query') ?? {};
    const sort = docArg(cmd, 'sort');
    const collation = docArg(cmd, 'collation');
    const nowMs = ctx.now();
    const now = new Date(nowMs);
    const fields = docArg(cmd, 'fields');
    const catalog = ctx.server.catalog;
    let coll = catalog.get(ctx.db, name);
    // The projection's $elemMatch, positional match and expressions compare under the collation.
    const project =
      fields && Object.keys(fields).length > 0
        ? compileProjection(fields, { now, query: filter, collator: queryCollator(coll, checkCollation(collation)) })
        : (d: Document) => d;
    if (sort) compileSort(sort);
    if (!coll) catalog.assertNotView(ctx.db, name);
    const bypass = bypassArg(cmd);

    if (remove) {
      const collator = queryCollator(coll, checkCollation(collation));
      const predicate = compileQuery(filter, nowMs, vars, collator);
      const matches = coll ? orderedRecords(coll, { filter, predicate, sort, limit: 1, hint, collator }, ctx.now) : undefined;
      ctx.server.counters.opcounters.delete++;
      const rec = matches?.next().value;
      if (!rec || !coll) return { lastErrorObject: { n: 0 }, value: null };
      let value: Document;
      try {
        value = project(rec.doc);
        coll.remove(rec);
      } catch (err) {
        executorError(err, 'findAndModify');
      }
      return { lastErrorObject: { n: 1 }, value };
    }

    const spec: UpdateSpec = {
      q: filter,
      u: updateMod!,
      arrayFilters,
      hint,
      multi: false,
      upsert,
      upsertSupplied: false,
      collation,
      sort,
    };
    const parsed = parseUpdateRequest(spec, vars, nowMs, coll);
    // The plan (and the hinted index: 2 BadValue when there is none) is chosen before executing.
    const matches = coll ? orderedRecords(coll, { filter, predicate: parsed.predicate, sort, limit: 1, hint, collator: parsed.collator }, ctx.now) : undefined;
    ctx.server.counters.opcounters.update++;
    try {
      const rec = matches?.next().value;
      if (rec && coll) {
        const before = rec.doc;
        const matchedField = parsed.matchKey ? parsed.matchKey(before) : undefined;
        const result = parsed.update.apply(before, { now, isUpsertInsert: false, matchedField });
        if (result.modified) {
          enforceValidation(ctx, coll, result.doc, before, bypass);
          coll.update(rec, result.doc, nowMs, parsed.update.changedFields, before);
        }
        return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? result.doc : before) };
      }
      if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
      const doc = upsertDocument(parsed, now);
      coll ??= catalog.getOrCreate(ctx.db, name).coll;
      enforceValidation(ctx, coll, doc, null, bypass);
      coll.insert(doc, nowMs);
      return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id }, value: returnNew ? project(doc) : null };
    } catch (err) {
      executorError(err, 'findAndModify');
    }
  },
};
