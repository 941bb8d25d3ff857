/**
 * The findAndModify path (WRITE_PATH.md): remove, update, replace or upsert the first document a
 * selection picks, in one write unit, and hand back the documents before and after for the
 * command to project. Errors raised while modifying carry mongod's "Plan executor error during
 * findAndModify :: caused by ::".
 */
import type { Document } from '../../bson/library.js';
import type { Collection } from '../collection.js';
import { executorError, selectRecords, type WriteEnv, type WriteSelection } from './_internal.js';
import { insertDocumentChecked } from './insert.js';
import type { ParsedUpdate, UpdateTarget } from './update.js';

/** What findAndModify did (a plain value: retryable writes keep it). */
export type FindAndModifyOutcome =
  /** Nothing matched (and nothing was upserted). */
  | { readonly kind: 'none' }
  /** `doc` was removed. */
  | { readonly kind: 'removed'; readonly before: Document }
  /** A document was updated (or matched and left as it was). */
  | { readonly kind: 'updated'; readonly before: Document; readonly after: Document }
  /** Nothing matched and `after` was inserted. */
  | { readonly kind: 'upserted'; readonly after: Document };

/**
 * Removes the first record `selection` picks in `coll`; `project` shapes the removed document
 * before it goes (its errors are executor errors, and nothing is removed).
 */
export function findAndRemove(coll: Collection | undefined, selection: WriteSelection, now: () => number, project: (doc: Document) => Document): FindAndModifyOutcome {
  const matches = coll ? selectRecords(coll, { ...selection, limit: 1 }, now) : undefined;
  const rec = matches?.next().value;
  if (!rec || !coll) return { kind: 'none' };
  let before: Document;
  coll.writes.run(() => {
    try {
      before = project(rec.doc);
      coll.remove(rec);
    } catch (err) {
      executorError(err, 'findAndModify');
    }
  });
  return { kind: 'removed', before: before! };
}

/** Updates (or upserts) the first record `parsed` picks in `target`, in one write unit. */
export function findAndUpdate(env: WriteEnv, target: UpdateTarget, parsed: ParsedUpdate, nowMs: number): FindAndModifyOutcome {
  const { catalog } = target;
  let coll = catalog.get(target.db, target.name);
  coll?.kind?.checkUpdate(parsed.update, false, parsed.upsert); // time-series rules (timeseries/kind.ts)
  // The plan (and the hinted index: 2 BadValue when there is none) is chosen before executing.
  const matches = coll ? selectRecords(coll, { ...parsed.selection, limit: 1 }, env.now) : undefined;
  const now = new Date(nowMs);
  return catalog.writes.run((): FindAndModifyOutcome => {
    try {
      const rec = matches?.next().value;
      if (rec && coll) {
        const before = rec.doc;
        const matchedField = parsed.matchKey ? parsed.matchKey(before) : undefined;
        const result = parsed.update.apply(before, { now, isUpsertInsert: false, matchedField });
        if (result.modified) {
          if (!env.bypassValidation) env.validate(coll, result.doc, before);
          coll.update(rec, result.doc, nowMs, parsed.update.changedFields, before, parsed.update.kind === 'replacement' ? 'replace' : 'update');
        }
        return { kind: 'updated', before, after: result.doc };
      }
      if (!parsed.upsert) return { kind: 'none' };
      const doc = parsed.upsertDocument(now);
      coll ??= catalog.getOrCreate(target.db, target.name).coll;
      insertDocumentChecked(env, coll, doc, nowMs);
      return { kind: 'upserted', after: doc };
    } catch (err) {
      executorError(err, 'findAndModify');
    }
  });
}
