/**
 * Reading a `$text` query (in a find, count, distinct, update, delete, findAndModify or an
 * aggregation's first `$match`): the collection's text index, which the query is bound to before
 * any document is read (none: 27 IndexNotFound), the equalities a compound text index needs on
 * its prefix fields, and the matches with their text scores. Mayfly's text index keeps no
 * entries: the matches are found by testing every candidate (the plan's records) and scored from
 * the document itself, as mongod's index keys would score it.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../collection.js';
import { IndexKinds } from '../indexes/key_pattern.js';
import { textIndexRequired, type TextQuery } from '../query/operators/text.js';
import type { StoredDocument } from '../record.js';
import { textIndexSpec } from '../text/text_index_spec.js';
import { setMetadata } from '../values/metadata.js';
import { isDocument } from '../values/paths.js';

/** Binds `query` to `coll`'s text index (27 without one; 2 without the prefix equalities `filter` must give). */
export function bindTextQuery(coll: Collection, query: TextQuery): void {
  const filter = query.filter;
  const indexes = coll.allIndexes().filter((index) => index.kind === IndexKinds.text);
  if (indexes.length === 0) throw textIndexRequired();
  const index = indexes[0]!;
  const spec = textIndexSpec(index.spec, index.keyPattern, index.name);
  if (filter !== undefined && spec.prefixFields.some((field) => !hasEquality(filter, field))) {
    throw new CommandError(
      'BadValue',
      'error processing query: planner returned error :: caused by :: failed to use text index to satisfy $text query (if text index is compound, are equality predicates given for all prefix fields?)',
    );
  }
  const unindexed = query.orSiblings?.some((branch) => !answeredByIndex(coll, branch)) ?? false;
  if (unindexed) {
    throw new CommandError(
      'NoQueryExecutionPlans',
      'error processing query: planner returned error :: caused by :: Failed to produce a solution for TEXT under OR - other non-TEXT clauses under OR have to be indexed as well.',
    );
  }
  query.bind(spec);
}

/** True when a visible B-tree index has a field of `branch` (an `$or` branch beside `$text`) first. */
function answeredByIndex(coll: Collection, branch: Document): boolean {
  const fields = Object.keys(branch).filter((f) => !f.startsWith('$'));
  return coll.allIndexes().some((index) => !index.hidden && index.kind === IndexKinds.btree && fields.includes(index.fields[0]!));
}

/** True when `filter` (or its top-level `$and`) pins `field` to one value. */
function hasEquality(filter: Document, field: string): boolean {
  if (Object.hasOwn(filter, field)) {
    const value = filter[field];
    if (!isDocument(value)) return true;
    const keys = Object.keys(value);
    if (keys.length === 0 || !keys[0]!.startsWith('$')) return true;
    if (Object.hasOwn(value, '$eq')) return true;
  }
  const and = filter.$and;
  return Array.isArray(and) && and.some((clause) => isDocument(clause) && hasEquality(clause, field));
}

/** Notes the text score of `rec`, a match of `query` (false when it does not match after all). */
export function scoreRecord(rec: StoredDocument, query: TextQuery): boolean {
  const score = query.score(rec.doc);
  if (score === null) return false;
  query.scores.set(rec, score);
  return true;
}

/**
 * The document of `rec`, a match of `query`, with its text score as metadata (`{$meta:
 * "textScore"}`): a document of its own (a record with bytes decodes a fresh one; any other's is
 * copied, its document being the stored one).
 */
export function scoredDocument(rec: StoredDocument, query: TextQuery): Document {
  const doc = rec.bson === undefined ? { ...rec.doc } : rec.doc;
  const score = query.scores.get(rec);
  if (score !== undefined) setMetadata(doc, { textScore: score });
  return doc;
}

/** True when `filter` has a `$text` query at its top level (or in its top-level `$and`). */
export function filterHasText(filter: Document | undefined): boolean {
  if (filter === undefined) return false;
  if (Object.hasOwn(filter, '$text')) return true;
  const and = filter.$and;
  return Array.isArray(and) && and.some((clause) => isDocument(clause) && filterHasText(clause));
}

/** CanonicalQuery::isValid for a `$text` query: no `$natural` sort, no hint (2 BadValue). */
export function checkTextRequest(sort: Document | undefined, hint: unknown): void {
  if (sort !== undefined && Object.hasOwn(sort, '$natural')) throw new CommandError('BadValue', 'text expression not allowed with $natural sort order');
  if (hint !== undefined && hint !== null && !(isDocument(hint) && Object.keys(hint).length === 0)) {
    throw new CommandError('BadValue', 'text and hint not allowed in same query');
  }
}
