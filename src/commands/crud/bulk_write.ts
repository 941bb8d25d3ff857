/**
 * `bulkWrite` (MongoDB 8.0, what the drivers' `client.bulkWrite()` sends): inserts, updates and
 * deletes across namespaces, run against `admin` (bulk_write.cpp, bulk_write_common.cpp,
 * bulk_write_parser.cpp, bulk_write.idl).
 *
 *   - `ops` entries are `{insert: <nsInfo index>, document}`, `{update: <i>, filter, updateMods,
 *     multi, upsert, arrayFilters, hint, collation, sort, constants, upsertSupplied}` or
 *     `{delete: <i>, filter, multi, hint, collation}`; the first field names the kind;
 *   - the whole request is checked first (IDL errors, batch size, namespaces, indexes into
 *     `nsInfo`: command errors); each op then fails on its own, reported in the results;
 *   - results come back as a cursor (`admin.$cmd.bulkWrite`) of
 *     `{ok, idx, [code, errmsg, ...], n, nModified?, upserted?: {_id}}`, successes left out
 *     with `errorsOnly`, plus the counts `nErrors nInserted nMatched nModified nUpserted
 *     nDeleted`; `ordered` stops at the first error.
 */
import { Double, Long, type Document } from '../../bson/library.js';
import { CommandError, toCommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { validateCollectionName, validateDbName } from '../../storage/values/namespace.js';
import type { CommandVariables } from '../../storage/expression/let.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { checkOptionalBool } from '../args.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import { commandVariables } from './query_exec.js';
import {
  UPDATE_OPTION_FIELDS,
  checkBoolField,
  checkCollation,
  checkObjectField,
  completeUpdateSpec,
  executeUpdate,
  ignoreField,
  missingField,
  parseConstantsField,
  parseModificationField,
  parseStatementFields,
  unknownField,
  type FieldParser,
  type StatementFields,
  type UpdateSpec,
} from './update.js';
import { DELETE_OPTION_FIELDS, deleteSelection, type DeleteSpec } from './delete.js';
import { checkBatchSize } from './write_batch.js';
import { bypassArg, writeEnv } from './document_validation.js';
import { executeDelete } from '../../storage/write/delete.js';
import { insertDocument } from '../../storage/write/insert.js';

/** The namespace of the results cursor. */
const CURSOR_NS = 'admin.$cmd.bulkWrite';

const OK = new Double(1);
const NOT_OK = new Double(0);

interface InsertOp {
  readonly kind: 'insert';
  readonly nsIndex: number;
  readonly document: Document;
}

interface UpdateOp {
  readonly kind: 'update';
  readonly nsIndex: number;
  readonly spec: UpdateSpec;
  /** The op as mongod serialises it in messages. */
  readonly raw: Document;
}

interface DeleteOp {
  readonly kind: 'delete';
  readonly nsIndex: number;
  readonly spec: DeleteSpec;
}

type BulkOp = InsertOp | UpdateOp | DeleteOp;

interface Namespace {
  readonly db: string;
  readonly coll: string;
}

/** A `safeInt` namespace index (`insert`/`update`/`delete`), validated `>= 0`. */
function nsIndexOf(kind: string, value: unknown): number {
  if (!isNumber(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'bulkWrite.ops.${kind}' is the wrong type '${bsonTypeOf(value)}', expected types '[long, int, decimal, double]'`,
    );
  }
  const n = Math.trunc(toDouble(value));
  if (n < 0) throw new CommandError('BadValue', `BSON field '${kind}' value must be >= 0, actual value '${n}'`);
  return n;
}

function requireObject(path: string, value: unknown): Document {
  const doc = checkObjectField(path, value);
  if (doc === undefined) throw missingField(path);
  return doc;
}

function parseInsertOp(op: Document): InsertOp {
  let document: Document | undefined;
  const nsIndex = nsIndexOf('insert', op.insert);
  for (const key of Object.keys(op)) {
    if (key === 'insert') continue;
    if (key === 'document') document = requireObject('bulkWrite.ops.document', op.document);
    else throw unknownField(`bulkWrite.ops.${key}`);
  }
  if (document === undefined) throw missingField('bulkWrite.ops.document');
  return { kind: 'insert', nsIndex, document };
}

/** An op's `filter`: a required object (null reads as absent). */
function filterField<T extends { q: Document }>(): FieldParser<T> {
  return (draft, value, path) => {
    draft.q = requireObject(path, value) as T['q'];
  };
}

/** `BulkWriteUpdateOp`: the update statement's fields under bulkWrite's names. */
const UPDATE_OP_FIELDS: StatementFields<UpdateSpec> = {
  update: ignoreField,
  filter: filterField<UpdateSpec>(),
  updateMods: parseModificationField,
  constants: parseConstantsField,
  ...UPDATE_OPTION_FIELDS,
};

/** `BulkWriteDeleteOp`: the delete statement's fields, with `multi` for `limit`. */
const DELETE_OP_FIELDS: StatementFields<DeleteSpec> = {
  delete: ignoreField,
  filter: filterField<DeleteSpec>(),
  multi: (draft, value, path) => {
    draft.multi = checkBoolField(path, value);
  },
  ...DELETE_OPTION_FIELDS,
};

function parseUpdateOp(op: Document): UpdateOp {
  const nsIndex = nsIndexOf('update', op.update);
  const spec = parseStatementFields(op, 'bulkWrite.ops', UPDATE_OP_FIELDS);
  const full = completeUpdateSpec(spec, 'bulkWrite.ops.filter', 'bulkWrite.ops.updateMods');
  const raw: Document = { update: nsIndex, filter: full.q };
  if (full.sort) raw.sort = full.sort;
  raw.multi = full.multi;
  raw.updateMods = full.u;
  raw.upsert = full.upsert;
  if (spec.upsertSupplied !== undefined) raw.upsertSupplied = spec.upsertSupplied;
  if (full.arrayFilters) raw.arrayFilters = full.arrayFilters;
  raw.hint = full.hint ?? {};
  if (full.c) raw.constants = full.c;
  if (full.collation) raw.collation = full.collation;
  return { kind: 'update', nsIndex, spec: full, raw };
}

function parseDeleteOp(op: Document): DeleteOp {
  const nsIndex = nsIndexOf('delete', op.delete);
  const draft = parseStatementFields(op, 'bulkWrite.ops', DELETE_OP_FIELDS);
  if (draft.q === undefined) throw missingField('bulkWrite.ops.filter');
  return { kind: 'delete', nsIndex, spec: { q: draft.q, multi: draft.multi ?? false, hint: draft.hint, collation: draft.collation } };
}

function parseOps(value: unknown): BulkOp[] {
  if (!Array.isArray(value)) {
    throw new CommandError('TypeMismatch', `BSON field 'bulkWrite.ops' is the wrong type '${bsonTypeOf(value)}', expected type 'array'`);
  }
  return value.map((op, i) => {
    if (!isDocument(op)) {
      throw new CommandError('TypeMismatch', `BSON field 'bulkWrite.ops.${i}' is the wrong type '${bsonTypeOf(op)}', expected type 'object'`);
    }
    const first = Object.keys(op)[0] ?? '';
    switch (first) {
      case 'insert':
        return parseInsertOp(op);
      case 'update':
        return parseUpdateOp(op);
      case 'delete':
        return parseDeleteOp(op);
      default:
        throw unknownField(`bulkWrite.${first}`);
    }
  });
}

const NS_INFO_FIELDS = new Set(['ns', 'collectionUUID', 'encryptionInformation', 'isTimeseriesNamespace', 'shardVersion', 'databaseVersion']);

function parseNsInfo(value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new CommandError('TypeMismatch', `BSON field 'bulkWrite.nsInfo' is the wrong type '${bsonTypeOf(value)}', expected type 'array'`);
  }
  return value.map((entry, i) => {
    if (!isDocument(entry)) {
      throw new CommandError('TypeMismatch', `BSON field 'bulkWrite.nsInfo.${i}' is the wrong type '${bsonTypeOf(entry)}', expected type 'object'`);
    }
    for (const key of Object.keys(entry)) if (!NS_INFO_FIELDS.has(key)) throw unknownField(`bulkWrite.nsInfo.${key}`);
    if (entry.ns === undefined) throw missingField('bulkWrite.nsInfo.ns');
    if (typeof entry.ns !== 'string') {
      throw new CommandError('TypeMismatch', `BSON field 'bulkWrite.nsInfo.ns' is the wrong type '${bsonTypeOf(entry.ns)}', expected type 'string'`);
    }
    return entry.ns;
  });
}

/** `NamespaceString::isValid` for a bulkWrite namespace (73 otherwise). */
function parseNamespace(ns: string): Namespace {
  const dot = ns.indexOf('.');
  const db = dot < 0 ? ns : ns.slice(0, dot);
  const coll = dot < 0 ? '' : ns.slice(dot + 1);
  let valid = coll.length > 0;
  if (valid) {
    try {
      validateDbName(db);
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw new CommandError('InvalidNamespace', `Invalid namespace specified for bulkWrite: '${coll.length > 0 ? ns : db}'`);
  }
  return { db, coll };
}

function opAsBson(op: BulkOp): Document {
  switch (op.kind) {
    case 'insert':
      return { insert: op.nsIndex, document: op.document };
    case 'update':
      return op.raw;
    case 'delete': {
      const out: Document = { delete: op.nsIndex, filter: op.spec.q, multi: op.spec.multi, hint: op.spec.hint ?? {} };
      if (op.spec.collation) out.collation = op.spec.collation;
      return out;
    }
  }
}

function parseCursorBatchSize(cursor: unknown): number | undefined {
  if (!isDocument(cursor)) return undefined;
  let batchSize: number | undefined;
  for (const key of Object.keys(cursor)) {
    if (key !== 'batchSize') throw unknownField(`bulkWrite.cursor.${key}`);
    const value = cursor.batchSize;
    if (!isNumber(value)) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field 'bulkWrite.cursor.batchSize' is the wrong type '${bsonTypeOf(value)}', expected types '[long, int, decimal, double]'`,
      );
    }
    batchSize = Math.trunc(toDouble(value));
    if (batchSize < 0) throw new CommandError('BadValue', `BSON field 'batchSize' value must be >= 0, actual value '${batchSize}'`);
  }
  return batchSize;
}

interface Summary {
  nErrors: number;
  nInserted: number;
  nMatched: number;
  nModified: number;
  nUpserted: number;
  nDeleted: number;
}

function errorItem(idx: number, err: unknown, tail: Document): Document {
  const e = toCommandError(err);
  if (e.code === 1) throw err;
  return { ok: NOT_OK, idx, code: e.code, errmsg: e.message, ...e.extra, ...tail };
}

/** One delete op: the same executor as the delete command's statements, with the command's `let` and `$$NOW`. */
function runDelete(ctx: CommandContext, ns: Namespace, op: DeleteOp, vars: CommandVariables, nowMs: number): number {
  const { spec } = op;
  validateCollectionName(ns.db, ns.coll, true);
  checkCollation(spec.collation);
  const coll = ctx.server.catalog.get(ns.db, ns.coll);
  if (!coll) ctx.server.catalog.assertNotView(ns.db, ns.coll);
  const selection = deleteSelection(coll, spec, vars, nowMs);
  ctx.server.counters.opcounters.delete++;
  return executeDelete(coll, selection, ctx.now).n;
}

/** The `bulkWrite` command. */
export const bulkWrite: CommandDefinition = {
  name: 'bulkWrite',
  adminOnly: true,
  args: {
    ops: { type: 'any' },
    nsInfo: { type: 'any' },
    cursor: { type: 'object' },
    bypassDocumentValidation: { type: 'bool' },
    ordered: { type: 'any' },
    stmtIds: { type: 'array' },
    let: { type: 'object' },
    errorsOnly: { type: 'any' },
    bypassEmptyTsReplacement: { type: 'any' },
  },
  help: 'command to apply inserts, updates and deletes in bulk',
  run(ctx, cmd) {
    // The IDL, in the order the fields arrive.
    let ops: BulkOp[] | undefined;
    let nsInfo: string[] | undefined;
    for (const key of Object.keys(cmd)) {
      if (key === 'ops' && cmd.ops !== null) ops = parseOps(cmd.ops);
      else if (key === 'nsInfo' && cmd.nsInfo !== null) nsInfo = parseNsInfo(cmd.nsInfo);
    }
    const ordered = checkBoolField('bulkWrite.ordered', cmd.ordered) ?? true;
    const errorsOnly = checkBoolField('bulkWrite.errorsOnly', cmd.errorsOnly) ?? false;
    checkOptionalBool('bypassEmptyTsReplacement', cmd.bypassEmptyTsReplacement);
    const batchSize = parseCursorBatchSize(cmd.cursor);
    if (ops === undefined) throw missingField('bulkWrite.ops');
    if (nsInfo === undefined) throw missingField('bulkWrite.nsInfo');
    // bulk_write_common::validateRequest.
    checkBatchSize(ops.length);
    const namespaces = nsInfo.map(parseNamespace);
    for (const op of ops) {
      if (op.nsIndex >= namespaces.length) {
        throw new CommandError('BadValue', `BulkWrite ops entry ${formatValue(opAsBson(op))} has an invalid nsInfo index.`);
      }
    }
    // One time for the whole command: $$NOW is the same in every operation.
    const nowMs = ctx.now();
    const vars = commandVariables(cmd, nowMs);
    const bypass = bypassArg(cmd);
    const env = writeEnv(ctx, bypass);

    const summary: Summary = { nErrors: 0, nInserted: 0, nMatched: 0, nModified: 0, nUpserted: 0, nDeleted: 0 };
    const replies: Document[] = [];
    const add = (item: Document, isError: boolean): void => {
      if (isError) summary.nErrors++;
      if (isError || !errorsOnly) replies.push(item);
    };
    for (let idx = 0; idx < ops.length; idx++) {
      const op = ops[idx]!;
      const ns = namespaces[op.nsIndex]!;
      let failed = false;
      switch (op.kind) {
        case 'insert':
          try {
            const { coll } = ctx.server.catalog.getOrCreate(ns.db, ns.coll);
            ctx.server.counters.opcounters.insert++;
            insertDocument(env, coll, op.document, ctx.now());
            summary.nInserted++;
            add({ ok: OK, idx, n: 1 }, false);
          } catch (err) {
            add(errorItem(idx, err, { n: 0 }), true);
            failed = true;
          }
          break;
        case 'update':
          try {
            validateCollectionName(ns.db, ns.coll, true);
            if (op.spec.sort !== undefined && op.spec.multi) throw new CommandError('FailedToParse', 'Cannot specify sort with multi=true');
            const outcome = executeUpdate(ctx, ns.db, ns.coll, op.spec, vars, nowMs, bypass);
            summary.nModified += outcome.modified;
            if (outcome.upsertedId !== undefined) {
              summary.nUpserted++;
              add({ ok: OK, idx, n: 1, nModified: outcome.modified, upserted: { _id: outcome.upsertedId } }, false);
            } else {
              summary.nMatched += outcome.matched;
              add({ ok: OK, idx, n: outcome.matched, nModified: outcome.modified }, false);
            }
          } catch (err) {
            add(errorItem(idx, err, { n: 0, nModified: 0 }), true);
            failed = true;
          }
          break;
        case 'delete':
          try {
            const n = runDelete(ctx, ns, op, vars, nowMs);
            summary.nDeleted += n;
            add({ ok: OK, idx, n }, false);
          } catch (err) {
            add(errorItem(idx, err, { n: 0 }), true);
            failed = true;
          }
          break;
      }
      if (failed && ordered) break;
    }

    let firstBatch = replies;
    let id = Long.ZERO;
    if (batchSize !== undefined && batchSize < replies.length) {
      const cursor = ctx.server.cursors.open(CURSOR_NS, replies[Symbol.iterator](), ctx.now());
      firstBatch = cursor.nextBatch(batchSize);
      if (cursor.exhausted) ctx.server.cursors.kill(cursor.id);
      else id = cursor.id;
    }
    return { cursor: { id, firstBatch, ns: CURSOR_NS }, ...summary };
  },
};
