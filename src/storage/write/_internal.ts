/**
 * What the write executors share: how a write statement finds its records (the planner's
 * chosen plan, as reads do), the ports a command fills in (document validation, the clock), and
 * the wrapping of errors raised while executing.
 */
import type { Document } from '../../bson/library.js';
import { CommandError, toCommandError } from '../../errors/command_error.js';
import type { Collection } from '../collection.js';
import type { StoredDocument } from '../record.js';
import type { Predicate } from '../query/compile_filter.js';
import type { Collator } from '../values/collator.js';
import { executePlan } from '../planner/execute.js';
import { planQuery } from '../planner/plan.js';

/** What a write statement selects: its filter (compiled), sort, limit (0: all), hint and collation. */
export interface WriteSelection {
  readonly filter: Document;
  readonly predicate: Predicate;
  readonly sort?: Document;
  /** 0: every match; 1: the first. */
  readonly limit: number;
  readonly hint?: unknown;
  readonly collator: Collator | null;
}

/**
 * What the executors ask of the command that runs them: the clock (visibility is read live) and
 * document validation of what is about to be stored (the command decides about bypassing and logging).
 */
export interface WriteEnv {
  /** The server's now (ms), read live. */
  readonly now: () => number;
  /** Checks `next`, about to be stored in `coll` (`previous`: the document it replaces; null for an insert). Throws 121. */
  readonly validate: (coll: Collection, next: Document, previous: Document | null) => void;
  /** `validate` for an insert: returns the document to insert (its `_id` placed first when checked). */
  readonly validateInsert: (coll: Collection, doc: Document) => Document;
  /** True when no document needs to be validated (`bypassDocumentValidation`). */
  readonly bypassValidation: boolean;
}

/**
 * The records `selection` picks in `coll`, in the plan's order. Planning happens at once (a
 * missing hint index fails here, before anything is written); the records come lazily.
 */
export function selectRecords(coll: Collection, selection: WriteSelection, now: () => number): IterableIterator<StoredDocument> {
  const plan = planQuery(coll, { filter: selection.filter, sort: selection.sort, hint: selection.hint, limit: selection.limit, collator: selection.collator });
  return executePlan(plan, { coll, predicate: selection.predicate, now });
}

/** Rethrows an error raised while executing, with mongod's executor context ("Plan executor error during …"). */
export function executorError(err: unknown, command: 'update' | 'findAndModify' | 'delete'): never {
  const e = toCommandError(err);
  if (e.code === 1) throw err;
  throw new CommandError(e.code, `Plan executor error during ${command} :: caused by :: ${e.message}`, e.extra);
}
