/** `findAndModify`: update, replace, upsert or remove one document and return it. */
import { ObjectId, type Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compileUpdate, buildUpsertDocument } from '../../storage/update/compile_update.js';
import { compileSort } from '../../storage/sort.js';
import { boolArg, collectionArg, docArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkHint, orderedRecords } from './query_exec.js';
import { rejectArrayFilters } from './update.js';

/** The `findAndModify` command. */
export const findAndModify: CommandDefinition = {
  name: 'findAndModify',
  aliases: ['findandmodify'],
  target: { type: 'string' },
  args: {
    query: { type: 'object' },
    sort: { type: 'object' },
    remove: { type: 'bool' },
    update: { type: ['object', 'array'] },
    new: { type: 'bool' },
    fields: { type: 'object' },
    upsert: { type: 'bool' },
    arrayFilters: { type: 'array' },
    bypassDocumentValidation: { type: 'bool' },
    collation: { type: 'object' },
    hint: { type: ['object', 'string'] },
    let: { type: 'object' },
  },
  help: '{ findAndModify: "collection", query: {processed:false}, update: {$set: {processed:true}}, new: true}',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'findAndModify', ctx.db);
    const remove = boolArg(cmd, 'remove', false);
    const returnNew = boolArg(cmd, 'new', false);
    const upsert = boolArg(cmd, 'upsert', false);
    const hasUpdate = cmd.update !== undefined && cmd.update !== null;
    if (remove && hasUpdate) throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
    if (!remove && !hasUpdate) throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
    if (remove && upsert) throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true ');
    if (remove && returnNew) {
      throw new CommandError('FailedToParse', "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document");
    }
    const filter = docArg(cmd, 'query') ?? {};
    const predicate = compileQuery(filter, ctx.now());
    const sort = docArg(cmd, 'sort');
    if (sort) compileSort(sort);
    const fields = docArg(cmd, 'fields');
    const project = fields && Object.keys(fields).length > 0 ? compileProjection(fields, { now: new Date(ctx.now()) }) : (d: Document) => d;
    rejectArrayFilters(cmd.arrayFilters);
    const update = hasUpdate ? compileUpdate(cmd.update as Document | Document[]) : null;
    const catalog = ctx.server.catalog;
    let coll = catalog.get(ctx.db, name);
    checkHint(coll, cmd.hint);
    const nowMs = ctx.now();
    const rec = coll ? orderedRecords(coll, { filter, predicate, sort, limit: 1 }, ctx.now).next().value : undefined;
    if (remove) {
      ctx.server.counters.opcounters.delete++;
      if (!rec || !coll) return { lastErrorObject: { n: 0 }, value: null };
      coll.remove(rec);
      return { lastErrorObject: { n: 1 }, value: project(rec.doc) };
    }
    ctx.server.counters.opcounters.update++;
    if (rec && coll) {
      const before = rec.doc;
      const result = update!.apply(before, { now: new Date(nowMs), isUpsertInsert: false });
      if (result.modified) coll.update(rec, result.doc, nowMs);
      return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? result.doc : before) };
    }
    if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
    const doc = buildUpsertDocument(filter, update!, { now: new Date(nowMs), isUpsertInsert: true }, () => new ObjectId());
    coll ??= catalog.getOrCreate(ctx.db, name).coll;
    coll.insert(doc, nowMs);
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id }, value: returnNew ? project(doc) : null };
  },
};
