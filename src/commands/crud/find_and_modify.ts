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
import { commandVariables, queryCollator } from './query_exec.js';
import { checkArrayOfObjects, checkCollation, checkUpdateModification, executableUpdate, parseUpdateRequest, type UpdateSpec } from './update.js';
import { bypassArg, writeEnv } from './document_validation.js';
import { findAndRemove, findAndUpdate } from '../../storage/write/find_and_modify.js';
import { executorError } from '../../storage/write/_internal.js';

/** The returned document, projected; a projection error is an executor error, as mongod reports it. */
function projected(project: () => Document): Document {
  try {
    return project();
  } catch (err) {
    executorError(err, 'findAndModify');
  }
}

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
    const coll = catalog.get(ctx.db, name);
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
      ctx.server.counters.opcounters.delete++;
      const outcome = findAndRemove(coll, { filter, predicate, sort, limit: 1, hint, collator }, ctx.now, project);
      if (outcome.kind !== 'removed') return { lastErrorObject: { n: 0 }, value: null };
      return { lastErrorObject: { n: 1 }, value: outcome.before };
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
    ctx.server.counters.opcounters.update++;
    const outcome = findAndUpdate(writeEnv(ctx, bypass), { catalog, db: ctx.db, name }, executableUpdate(parsed), nowMs);
    switch (outcome.kind) {
      case 'updated':
        return { lastErrorObject: { n: 1, updatedExisting: true }, value: projected(() => project(returnNew ? outcome.after : outcome.before)) };
      case 'upserted':
        return { lastErrorObject: { n: 1, updatedExisting: false, upserted: outcome.after._id }, value: returnNew ? projected(() => project(outcome.after)) : null };
      default:
        return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
    }
  },
};
