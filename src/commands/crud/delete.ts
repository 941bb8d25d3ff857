/**
 * `delete`: statements `{q, limit, hint, collation}` with `limit` 0 (all matches) or 1 (the
 * first). As mongod does, every statement is checked against the IDL first (a bad one fails the
 * whole command, nothing deleted); each then runs on its own (its errors are write errors).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { formatDoubleShort } from '../../storage/values/format.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { IdlRules, checkHintType, collectionArg, typeMismatch } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkCollation, commandVariables, queryCollator } from './query_exec.js';
import { checkObjectField, ignoreField, missingField, parseStatementFields, type StatementFields } from './update.js';
import { checkBatchSize, runBatch } from './write_batch.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { executeDelete } from '../../storage/write/delete.js';
import type { WriteSelection } from '../../storage/write/_internal.js';
import type { Collection } from '../../storage/collection.js';
import type { CommandVariables } from '../../storage/expression/let.js';

/** One `deletes` entry, checked against the IDL (`DeleteOpEntry`). */
export interface DeleteSpec {
  readonly q: Document;
  /** `limit: 0`. */
  readonly multi: boolean;
  readonly hint?: unknown;
  readonly collation?: Document;
}

/**
 * `limit` (`readMultiDeleteProperty`): the value as a double (0 for a non-number), which must be
 * 0 (multi) or 1 (9 FailedToParse otherwise).
 */
function readMultiDelete(value: unknown): boolean {
  const limit = isNumber(value) ? toDouble(value) : 0;
  if (limit !== 0 && limit !== 1) {
    throw new CommandError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${formatDoubleShort(limit)}`);
  }
  return limit === 0;
}

/** The fields a delete statement and bulkWrite's delete op share, spelled alike. */
export const DELETE_OPTION_FIELDS: StatementFields<DeleteSpec> = {
  hint: (draft, value) => {
    draft.hint = checkHintType(value);
  },
  collation: (draft, value, path) => {
    draft.collation = checkObjectField(path, value);
  },
  sampleId: ignoreField,
};

/** `DeleteOpEntry`: `q`, `limit` and the shared options. */
const DELETE_STATEMENT_FIELDS: StatementFields<DeleteSpec> = {
  q: (draft, value, path) => {
    if (!isDocument(value)) throw typeMismatch(path, value, ['object']);
    draft.q = value;
  },
  limit: (draft, value) => {
    draft.multi = readMultiDelete(value);
  },
  ...DELETE_OPTION_FIELDS,
};

/** Checks one `deletes` entry against mongod's IDL (fields in order, then the missing ones). */
export function parseDeleteStatement(raw: unknown, index: number): DeleteSpec {
  const base = 'delete.deletes';
  if (!isDocument(raw)) throw typeMismatch(`${base}.${index}`, raw, ['object']);
  const draft = parseStatementFields(raw, base, DELETE_STATEMENT_FIELDS);
  if (draft.q === undefined) throw missingField(`${base}.q`);
  if (draft.multi === undefined) throw missingField(`${base}.limit`);
  return { q: draft.q, multi: draft.multi, hint: draft.hint, collation: draft.collation };
}

/**
 * What a delete statement selects in `coll` (undefined: it does not exist): its filter compiled
 * with the command's `let` variables and `$$NOW` (`nowMs`), under its collation (else the
 * collection's default). A bad filter is an error even with nothing to delete. The delete
 * command and bulkWrite's delete ops both come here.
 */
export function deleteSelection(coll: Collection | undefined, stmt: DeleteSpec, vars: CommandVariables, nowMs: number): WriteSelection {
  const collator = queryCollator(coll, checkCollation(stmt.collation));
  const predicate = compileQuery(stmt.q, nowMs, vars, collator);
  return { filter: stmt.q, predicate, limit: stmt.multi ? 0 : 1, hint: stmt.hint, collator };
}

/** The `delete` command (`DeleteCommandRequest` in write_ops.idl). */
export const del: CommandDefinition = {
  name: 'delete',
  target: { type: 'string' },
  args: {
    deletes: IdlRules.arrayOf((stmt, i) => parseDeleteStatement(stmt, i), true),
    ordered: IdlRules.bool,
    bypassDocumentValidation: IdlRules.safeBool,
    let: { type: 'object' },
  },
  help: 'delete documents',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'delete', ctx.db);
    const statements = (cmd.deletes as unknown[]).map((stmt, i) => parseDeleteStatement(stmt, i));
    checkBatchSize(statements.length);
    const coll = ctx.server.catalog.get(ctx.db, name);
    const onView = !coll && ctx.server.catalog.view(ctx.db, name) !== undefined;
    const nowMs = ctx.now(); // $$NOW: one for every statement of the command
    const variables = commandVariables(cmd, nowMs);
    let n = 0;
    const writeErrors = runBatch(statements, cmd.ordered !== false, (stmt) => {
      if (stmt.collation !== undefined) checkCollation(stmt.collation);
      ctx.server.counters.opcounters.delete++;
      const selection = deleteSelection(coll, stmt, variables, nowMs);
      if (!coll && onView) throw viewNotCollectionError(ctx.db, name); // a view takes no writes
      n += executeDelete(coll, selection, ctx.now).n;
    });
    return writeErrors.length > 0 ? { n, writeErrors } : { n };
  },
};
