/**
 * The insert executor (WRITE_PATH.md): the `insert` command's documents, bulkWrite's insert ops
 * and upserts' inserted documents reach the collection here, validated (unless bypassed). An
 * insert command's documents are one write unit (mongod inserts a batch in one unit of work);
 * each document that fails is reported by its index, and an ordered batch stops at it.
 */
import type { Document } from '../../bson/library.js';
import { toCommandError, type CommandError } from '../../errors/command_error.js';
import type { Collection } from '../collection.js';
import type { WriteEnv } from './_internal.js';

/** A statement that failed: its index and its error. */
export interface StatementError {
  readonly index: number;
  readonly error: CommandError;
}

/** The outcome of an insert batch. */
export interface InsertOutcome {
  /** Documents inserted. */
  readonly n: number;
  /** The documents that failed, in order. */
  readonly errors: readonly StatementError[];
}

/** What an insert batch needs besides its documents. */
export interface InsertBatch {
  /** The target collection, or a function that throws the error each statement gets (a view: 166). */
  readonly target: Collection | (() => never);
  readonly documents: readonly Document[];
  readonly ordered: boolean;
  /** The command's time: one for all its documents. */
  readonly nowMs: number;
  /** The size of the message the documents arrived in (small ones need not be measured). */
  readonly maxBytes?: number;
  /** Called for each statement as it starts (opcounters). */
  readonly onStatement?: () => void;
}

/** Inserts one validated document into `coll`, in the open write unit (or one of its own). */
export function insertDocument(env: WriteEnv, coll: Collection, doc: Document, nowMs: number, maxBytes?: number): void {
  coll.insert(env.bypassValidation ? doc : env.validateInsert(coll, doc), nowMs, maxBytes);
}

/** Inserts `batch.documents` in one write unit; an error of the server itself (code 1) is rethrown. */
export function executeInsert(env: WriteEnv, batch: InsertBatch): InsertOutcome {
  const { target, documents } = batch;
  const errors: StatementError[] = [];
  let n = 0;
  const run = (): void => {
    for (let i = 0; i < documents.length; i++) {
      try {
        batch.onStatement?.();
        if (typeof target === 'function') target();
        else insertDocument(env, target, documents[i]!, batch.nowMs, batch.maxBytes);
        n++;
      } catch (err) {
        const error = toCommandError(err);
        if (error.code === 1) throw err;
        errors.push({ index: i, error });
        if (batch.ordered) break;
      }
    }
  };
  if (typeof target === 'function') run();
  else target.writes.run(run);
  return { n, errors };
}

/** The insert of an upsert's document (update, findAndModify, `$merge`): validated as a new document (unless bypassed), then inserted as it is. */
export function insertDocumentChecked(env: WriteEnv, coll: Collection, doc: Document, nowMs: number): void {
  if (!env.bypassValidation) env.validate(coll, doc, null);
  coll.insert(doc, nowMs);
}
