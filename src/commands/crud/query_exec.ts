/**
 * The read path shared by find, count, distinct, the write commands and aggregate: candidate
 * records, the compiled filter, sort, skip, limit and projection, all as lazy iterators that
 * re-check visibility when a document is handed out (so an open cursor never returns a document
 * that expired after the query started). Reads compare strings under the query's collation: the
 * command's `collation` argument, else the collection's default collation.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../../storage/collection.js';
import type { StoredDocument } from '../../storage/record.js';
import { normaliseCollation } from '../../storage/indexes/collation.js';
import { Collator } from '../../storage/values/collator.js';
import { predicateText, type Predicate } from '../../storage/query/compile_filter.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { evaluateCommandLet, NO_VARIABLES, type CommandVariables } from '../../storage/expression/let.js';
import { compileSort, noTextScore, wantsTextScore } from '../../storage/query/sort.js';
import { scoredDocument } from '../../storage/planner/text.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { recordSource, RevalidatingSource } from '../../storage/cursors.js';
import { candidateRecords } from '../../storage/planner/read_plan.js';
import { executePlan, recordMatcher } from '../../storage/planner/execute.js';
import { naturalDirection, planQuery, resolveHint } from '../../storage/planner/plan.js';

/** What a read asks for. */
export interface ReadSpec {
  /** The filter document (used to pick candidates: an _id or index lookup). */
  filter?: Document;
  /** The compiled filter; compiled from `filter` when absent. */
  predicate?: Predicate;
  sort?: Document;
  projection?: Document;
  skip?: number;
  /** 0 = no limit. */
  limit?: number;
  /** The command's `let` variables (for `$expr`). */
  variables?: CommandVariables;
  /** An index name or key pattern the plan must use, or `{ $natural: ±1 }`. */
  hint?: unknown;
  /** `min`/`max` index key bounds (a hint is then required). */
  min?: Document;
  max?: Document;
  /** The query's collation (`queryCollator`; null or absent: simple). */
  collator?: Collator | null;
}

/** Records of `coll` matching `predicate`, lazily. */
export function* matchingRecords(coll: Collection, filter: Document, predicate: Predicate, now: () => number): Generator<StoredDocument> {
  const matches = recordMatcher(predicate);
  for (const rec of candidateRecords(coll, filter, now)) if (matches(rec)) yield rec;
}

/**
 * Matching records in the order `sort` asks for, skipped and limited, as the planner's chosen
 * plan produces them (`src/storage/planner/`). Planning happens at once (a missing hint index or
 * bad min/max fails here); the records come lazily.
 */
export function orderedRecords(coll: Collection, spec: ReadSpec, now: () => number): IterableIterator<StoredDocument> {
  return plannedRecords(coll, spec, spec.predicate ?? compileQuery(spec.filter ?? {}, now(), spec.variables, spec.collator), now);
}

/** `orderedRecords` with the compiled filter given apart (no copy of `spec` to carry it). */
function plannedRecords(coll: Collection, spec: ReadSpec, predicate: Predicate, now: () => number): IterableIterator<StoredDocument> {
  const filter = spec.filter ?? {};
  const plan = planQuery(coll, { filter, sort: spec.sort, hint: spec.hint, min: spec.min, max: spec.max, skip: spec.skip, limit: spec.limit, collator: spec.collator, shapeProjection: spec.projection });
  return executePlan(plan, { coll, predicate, now });
}

/** The documents a find returns, projected. Compiles everything before the first document. */
export function readDocuments(coll: Collection | undefined, spec: ReadSpec, now: () => number): Iterator<Document> {
  // Compile eagerly so that bad filters/sorts/projections fail the command, not a later getMore.
  const predicate = spec.predicate ?? compileQuery(spec.filter ?? {}, now(), spec.variables, spec.collator);
  if (spec.sort && naturalDirection(spec.sort) === null) compileSort(spec.sort);
  const project = spec.projection && Object.keys(spec.projection).length > 0 ? compileProjection(spec.projection, { now: new Date(now()), query: spec.filter, collator: spec.collator }) : null;
  const text = predicateText(predicate);
  if (text === null && (wantsTextScore(spec.sort) || wantsTextScore(spec.projection))) throw noTextScore();
  if (!coll) return [][Symbol.iterator]();
  const records = plannedRecords(coll, spec, predicate, now);
  const isLive = (rec: StoredDocument): boolean => coll.isLive(rec, now());
  // A text query's projection reads the document with its text score (`{$meta: "textScore"}`).
  if (text !== null && project !== null) return new RevalidatingSource(records, (rec) => project(scoredDocument(rec, text)), (rec) => rec, isLive);
  return recordSource(records, project, isLive);
}

/** Throws mongod's error when `hint` names no (visible) index of `coll`; a missing collection has no error. */
export function checkHint(coll: Collection | undefined, hint: unknown): void {
  if (!coll) return;
  resolveHint(coll, hint);
}

/** Throws 51024 unless `value` (a count argument) is ≥ 0. */
export function checkNonNegative(field: string, value: number | undefined): void {
  if (value !== undefined && value < 0) {
    throw new CommandError(51024, `BSON field '${field}' value must be >= 0, actual value '${value}'`);
  }
}

/** A command's checked `collation` argument: undefined when absent, null for the simple collation, else spelled out. */
export type CollationArg = Document | null | undefined;

/** Checks a `collation` argument (mongod's errors: `normaliseCollation`). */
export function checkCollation(collation: unknown): CollationArg {
  if (collation === undefined || collation === null) return undefined;
  // An empty collation is none given: the collection's default applies (mongod's `{}` collation).
  if (Object.keys(collation as Document).length === 0) return undefined;
  return normaliseCollation(collation as Document);
}

/**
 * The collation a command on `coll` runs under: its `collation` argument, else the collection's
 * default collation (null: simple). A fresh collator per command (its hashing keys are its own).
 */
export function queryCollator(coll: Collection | undefined, arg: CollationArg): Collator | null {
  if (arg === undefined) {
    const fallback = coll?.defaultCollation;
    return fallback ? new Collator(fallback) : null;
  }
  return arg === null ? null : new Collator(arg);
}

/**
 * The command's `let` variables, evaluated once before any document is read: the one reading of
 * `let` that find, aggregate, count, distinct, update, delete, findAndModify, bulkWrite and
 * explain share (`evaluateCommandLet`).
 */
export function commandVariables(cmd: Document, nowMs: number): CommandVariables {
  const letDoc = cmd.let;
  if (letDoc === undefined || letDoc === null) return NO_VARIABLES; // the common case: nothing to build
  return evaluateCommandLet(letDoc, { now: new Date(nowMs), collator: null });
}
