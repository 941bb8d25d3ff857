/**
 * `update`: replacement, operator and pipeline updates; `multi`, `upsert`, `arrayFilters`
 * (`$[<id>]`), the positional `$`, `sort` (8.0's updateOne), `hint`, `collation` (of the
 * matching, its sort, the operators, array filters and positional match; else the collection's
 * default), statement constants `c` and the command's `let` variables.
 *
 * As mongod does (write_ops_exec.cpp, parsed_update.cpp): every statement is checked against
 * the IDL first (a bad statement fails the whole command, nothing written); then each statement
 * is parsed (array filters, update, query: errors are that statement's write error) and run.
 * Errors raised while updating a document carry "Plan executor error during update :: caused
 * by ::". The statement runner is shared with findAndModify and bulkWrite.
 */
import { ObjectId, type Document } from '../../bson/library.js';
import { CommandError, toCommandError } from '../../errors/command_error.js';
import type { Collection } from '../../storage/collection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { buildUpsertDocument, compileUpdate } from '../../storage/update/compile_update.js';
import type { CompiledUpdate } from '../../storage/update/update_context.js';
import { compilePositionalMatcher } from '../../storage/query/positional_match.js';
import type { CommandVariables } from '../../storage/expression/let.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isDocument } from '../../storage/values/paths.js';
import { IdlRules, checkHintType, checkOptionalBool, collectionArg } from '../args.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import type { Collator } from '../../storage/values/collator.js';
import { checkCollation as checkCollationArg, commandVariables, queryCollator } from './query_exec.js';
import { checkBatchSize } from './write_batch.js';
import { bypassArg, writeEnv } from './document_validation.js';
import { expressUpdate } from './express.js';
import { executeUpdate as runUpdate, type ParsedUpdate, type UpdateOutcome } from '../../storage/write/update.js';

export { executorError } from '../../storage/write/_internal.js';
export type { UpdateOutcome };

/** One update statement, checked against the IDL (field names as in the `update` command). */
export interface UpdateSpec {
  readonly q: Document;
  readonly u: Document | Document[];
  readonly c?: Document;
  readonly arrayFilters?: Document[];
  readonly hint?: unknown;
  readonly multi: boolean;
  readonly upsert: boolean;
  readonly upsertSupplied: boolean;
  readonly collation?: Document;
  readonly sort?: Document;
}

/** A statement-level IDL error that fails the whole command. */
function typeError(path: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

/** `BSON field '<path>' is missing but a required field` (40414). */
export function missingField(path: string): CommandError {
  return new CommandError('IDLFailedToParse', `BSON field '${path}' is missing but a required field`);
}

/** `BSON field '<path>' is an unknown field.` (40415). */
export function unknownField(path: string): CommandError {
  return new CommandError('IDLUnknownField', `BSON field '${path}' is an unknown field.`);
}

function isNullish(v: unknown): boolean {
  return v === undefined || v === null;
}

/** An optional `object` IDL field (null reads as absent). */
export function checkObjectField(path: string, value: unknown): Document | undefined {
  if (isNullish(value)) return undefined;
  if (!isDocument(value)) throw typeError(path, value, 'object');
  return value;
}

/** An optional strict `bool` IDL field (null reads as absent). */
export function checkBoolField(path: string, value: unknown): boolean | undefined {
  if (isNullish(value)) return undefined;
  if (typeof value !== 'boolean') throw typeError(path, value, 'bool');
  return value;
}

/** An `array<object>` field such as `arrayFilters` (null reads as absent). */
export function checkArrayOfObjects(path: string, value: unknown): Document[] | undefined {
  if (isNullish(value)) return undefined;
  if (!Array.isArray(value)) throw typeError(path, value, 'array');
  value.forEach((item, i) => {
    if (!isDocument(item)) throw typeError(`${path}.${i}`, item, 'object');
  });
  return value as Document[];
}

/** An `update_modification`: an object or an array (9 otherwise). */
export function checkUpdateModification(value: unknown): Document | Document[] {
  if (!isDocument(value) && !Array.isArray(value)) {
    throw new CommandError('FailedToParse', 'Update argument must be either an object or an array');
  }
  return value as Document | Document[];
}

/** Checks a statement's `collation` (mongod's errors); see `query_exec.ts`. */
export const checkCollation = checkCollationArg;

/** A statement being parsed: the fields seen so far. */
export type StatementDraft<T> = { -readonly [K in keyof T]?: T[K] };

/** Checks one field of a statement and records it in the draft (mongod's IDL error otherwise). */
export type FieldParser<T> = (draft: StatementDraft<T>, value: unknown, path: string, name: string) => void;

/** A statement's fields by name, each with its parser. */
export type StatementFields<T> = Readonly<Record<string, FieldParser<T>>>;

/**
 * Parses a write statement (update, delete, bulkWrite op) as mongod's generated IDL parser does:
 * its fields in the order they arrive, each by its entry in `fields`, 40415 for any other.
 */
export function parseStatementFields<T>(raw: Document, base: string, fields: StatementFields<T>): StatementDraft<T> {
  const draft: StatementDraft<T> = {};
  for (const key of Object.keys(raw)) {
    const parse = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!parse) throw unknownField(`${base}.${key}`);
    parse(draft, raw[key], `${base}.${key}`, key);
  }
  return draft;
}

/** A field accepted without being looked at (`sampleId`, a bulkWrite op's kind). */
export const ignoreField = (): void => undefined;

/** An update's modification (`u`, bulkWrite's `updateMods`). */
export const parseModificationField: FieldParser<UpdateSpec> = (draft, value) => {
  draft.u = checkUpdateModification(value);
};

/** An update's constants (`c`, bulkWrite's `constants`). */
export const parseConstantsField: FieldParser<UpdateSpec> = (draft, value, path) => {
  draft.c = checkObjectField(path, value);
};

/** The fields an update statement and bulkWrite's update op share, spelled alike. */
export const UPDATE_OPTION_FIELDS: StatementFields<UpdateSpec> = {
  sort: (draft, value, path) => {
    draft.sort = checkObjectField(path, value);
  },
  multi: (draft, value, path) => {
    draft.multi = checkBoolField(path, value);
  },
  upsert: (draft, value, path) => {
    draft.upsert = checkBoolField(path, value);
  },
  upsertSupplied: (draft, value, _path, name) => {
    draft.upsertSupplied = checkOptionalBool(name, value);
  },
  arrayFilters: (draft, value, path) => {
    draft.arrayFilters = checkArrayOfObjects(path, value);
  },
  hint: (draft, value) => {
    draft.hint = checkHintType(value);
  },
  collation: (draft, value, path) => {
    draft.collation = checkObjectField(path, value);
  },
  sampleId: ignoreField,
  $_allowShardKeyUpdatesWithoutFullShardKeyInQuery: (_draft, value, _path, name) => {
    checkOptionalBool(name, value);
  },
};

/** `UpdateOpEntry`: `q`, `u`, `c` and the shared options. */
const UPDATE_STATEMENT_FIELDS: StatementFields<UpdateSpec> = {
  q: (draft, value, path) => {
    if (!isDocument(value)) throw typeError(path, value, 'object');
    draft.q = value;
  },
  u: parseModificationField,
  c: parseConstantsField,
  ...UPDATE_OPTION_FIELDS,
};

/** A parsed update statement with its defaults, once the required query and update are there. */
export function completeUpdateSpec(draft: StatementDraft<UpdateSpec>, qPath: string, uPath: string): UpdateSpec {
  if (draft.q === undefined) throw missingField(qPath);
  if (draft.u === undefined) throw missingField(uPath);
  return {
    q: draft.q,
    u: draft.u,
    c: draft.c,
    arrayFilters: draft.arrayFilters,
    hint: draft.hint,
    multi: draft.multi ?? false,
    upsert: draft.upsert ?? false,
    upsertSupplied: draft.upsertSupplied ?? false,
    collation: draft.collation,
    sort: draft.sort,
  };
}

/** Checks one `updates` entry against mongod's IDL (`UpdateOpEntry`). */
export function parseUpdateStatement(raw: unknown, index: number): UpdateSpec {
  const base = 'update.updates';
  if (!isDocument(raw)) throw typeError(`${base}.${index}`, raw, 'object');
  const draft = parseStatementFields(raw, base, UPDATE_STATEMENT_FIELDS);
  return completeUpdateSpec(draft, `${base}.q`, `${base}.u`);
}

/** True when a filter uses `$expr` (top level or inside $and/$or/$nor). */
function usesExpr(filter: Document): boolean {
  for (const key of Object.keys(filter)) {
    if (key === '$expr') return true;
    const value = filter[key];
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      if (value.some((sub) => isDocument(sub) && usesExpr(sub))) return true;
    }
  }
  return false;
}

/** A statement ready to run: everything parsed, mongod's parse errors raised. */
export interface ParsedUpdateStatement {
  readonly spec: UpdateSpec;
  readonly filter: Document;
  readonly predicate: (doc: Document) => boolean;
  readonly update: CompiledUpdate;
  readonly matchKey: ((doc: Document) => string | undefined) | null;
  /** The document an `upsertSupplied` upsert inserts (`c.new`). */
  readonly supplied?: CompiledUpdate;
  /** The collation the statement matches (and sorts) under (null: simple). */
  readonly collator: Collator | null;
}

/**
 * `ParsedUpdate::parseRequest`: upsertSupplied, collation, array filters, update, query. `coll`
 * (undefined when it does not exist yet) gives the default collation.
 */
export function parseUpdateRequest(spec: UpdateSpec, vars: CommandVariables, nowMs: number, coll: Collection | undefined): ParsedUpdateStatement {
  let supplied: CompiledUpdate | undefined;
  if (spec.upsertSupplied) {
    if (!spec.upsert) throw new CommandError('FailedToParse', "cannot specify 'upsertSupplied: true' for a non-upsert operation");
    const doc = spec.c?.new;
    if (!isDocument(doc)) {
      throw new CommandError('FailedToParse', "the parameter 'upsertSupplied' is set to 'true', but no document was supplied");
    }
    supplied = compileUpdate(doc);
  }
  const collator = queryCollator(coll, checkCollation(spec.collation));
  const update = compileUpdate(spec.u, { arrayFilters: spec.arrayFilters, constants: spec.c, variables: vars, multi: spec.multi, collator });
  if (spec.upsert && usesExpr(spec.q)) {
    throw new CommandError('QueryFeatureNotAllowed', '$expr is not allowed in the query predicate for an upsert');
  }
  const filter = spec.q;
  const predicate = compileQuery(filter, nowMs, vars, collator);
  const matchKey = update.positional ? compilePositionalMatcher(filter, collator) : null;
  return { spec, filter, predicate, update, matchKey, supplied, collator };
}

/** Builds the document an upsert inserts (the statement's query seeds it). */
export function upsertDocument(parsed: ParsedUpdateStatement, now: Date): Document {
  const update = parsed.supplied ?? parsed.update;
  return buildUpsertDocument(parsed.filter, update, { now, isUpsertInsert: true }, () => new ObjectId());
}

/** A parsed statement as the write path's executors run it (`src/storage/write/update.ts`). */
export function executableUpdate(parsed: ParsedUpdateStatement): ParsedUpdate {
  const { spec } = parsed;
  return {
    selection: { filter: parsed.filter, predicate: parsed.predicate, sort: spec.sort, limit: spec.multi ? 0 : 1, hint: spec.hint, collator: parsed.collator },
    update: parsed.update,
    matchKey: parsed.matchKey,
    upsert: spec.upsert,
    upsertDocument: (now) => upsertDocument(parsed, now),
  };
}

/**
 * Runs one update statement on `db.name` (created when an upsert inserts); every document it
 * stores is validated unless `bypassDocumentValidation`. A view is refused (166). `nowMs` is the
 * command's time: `$$NOW` and `$currentDate` are the same for every statement of one command.
 */
export function executeUpdate(ctx: CommandContext, db: string, name: string, spec: UpdateSpec, vars: CommandVariables, nowMs: number, bypassDocumentValidation = false): UpdateOutcome {
  const catalog = ctx.server.catalog;
  const coll: Collection | undefined = catalog.get(db, name);
  if (!coll) catalog.assertNotView(db, name);
  const parsed = parseUpdateRequest(spec, vars, nowMs, coll);
  ctx.server.counters.opcounters.update++;
  return runUpdate(writeEnv(ctx, bypassDocumentValidation), { catalog, db, name }, executableUpdate(parsed), nowMs);
}

/** The `update` command. */
export const update: CommandDefinition = {
  name: 'update',
  target: { type: 'string' },
  args: {
    updates: IdlRules.arrayOf((stmt, i) => parseUpdateStatement(stmt, i), true),
    ordered: IdlRules.bool,
    bypassDocumentValidation: IdlRules.safeBool,
    let: { type: 'object' },
  },
  help: 'update documents',
  express: expressUpdate,
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'update', ctx.db);
    const ordered = cmd.ordered !== false;
    const raw = cmd.updates as unknown[];
    const statements = raw.map((stmt, i) => parseUpdateStatement(stmt, i));
    checkBatchSize(statements.length);
    const nowMs = ctx.now();
    const vars = commandVariables(cmd, nowMs);
    const bypass = bypassArg(cmd);
    let n = 0;
    let nModified = 0;
    const upserted: Document[] = [];
    const writeErrors: Document[] = [];
    for (let index = 0; index < statements.length; index++) {
      const spec = statements[index]!;
      if (spec.sort !== undefined && spec.multi) throw new CommandError('FailedToParse', 'Cannot specify sort with multi=true');
      try {
        const outcome = executeUpdate(ctx, ctx.db, name, spec, vars, nowMs, bypass);
        n += outcome.matched;
        nModified += outcome.modified;
        if (outcome.upsertedId !== undefined) {
          n++;
          upserted.push({ index, _id: outcome.upsertedId });
        }
      } catch (err) {
        const error = toCommandError(err);
        if (error.code === 1) throw err;
        writeErrors.push(error.toWriteError(index));
        if (ordered) break;
      }
    }
    // UpdateCommandReply's field order: n, writeErrors, upserted, nModified.
    const reply: Document = { n };
    if (writeErrors.length > 0) reply.writeErrors = writeErrors;
    if (upserted.length > 0) reply.upserted = upserted;
    reply.nModified = nModified;
    return reply;
  },
};
