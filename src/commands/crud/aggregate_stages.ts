/**
 * The parts of an aggregation the `aggregate` command runs itself, around the pipeline engine:
 * the sources of a collectionless `{aggregate: 1}` (`$documents`, `$listLocalSessions`) and the
 * final write stages `$out` (replace a collection) and `$merge` (merge into one), following
 * mongo/src/mongo/db/pipeline/document_source_{documents,list_local_sessions,out,merge}.cpp.
 */
import { ObjectId, UUID, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { ExpressionContext } from '../../storage/expression/context.js';
import type { CommandVariables } from '../../storage/expression/let.js';
import { MISSING } from '../../storage/values/missing.js';
import type { Catalog } from '../../storage/catalog.js';
import { Collection } from '../../storage/collection.js';
import { validateCollectionName, validateDbName } from '../../storage/namespace.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { candidateRecords } from '../../storage/read_plan.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { getField, isDocument } from '../../storage/values/paths.js';
import { formatValue } from '../../storage/values/format.js';
import { localSessionRecords } from './local_sessions.js';

/** Stages that only a collectionless aggregate may start with (and only as its first stage). */
const FIRST_ONLY_STAGES = new Set(['$documents', '$listLocalSessions']);

/** The name of a stage document (already checked to be a one-field object). */
export function nameOfStage(stage: Document): string {
  return Object.keys(stage)[0] ?? '';
}

/** Throws mongod's errors for source stages that are not first (40602) or need `{aggregate: 1}`. */
export function checkSourcePositions(stages: readonly Document[], collectionless: boolean): void {
  stages.forEach((stage, i) => {
    const name = nameOfStage(stage);
    if (i > 0 && FIRST_ONLY_STAGES.has(name)) throw new CommandError(40602, `${name} is only valid as the first stage in a pipeline`);
    if (name === '$listLocalSessions' && !collectionless) {
      throw new CommandError('InvalidNamespace', '$listLocalSessions must be run against the database with {aggregate: 1}, not a collection');
    }
  });
}

/**
 * The documents a collectionless aggregate starts from, and the stages left to run on them.
 * Throws 73 when the first stage needs a collection.
 */
export function collectionlessSource(
  stages: readonly Document[],
  server: object,
  nowMs: number,
  variables: CommandVariables,
): { source: Document[]; rest: Document[] } {
  const first = stages[0];
  const name = first ? nameOfStage(first) : '';
  if (name === '$documents') return { source: documentsStage(first!.$documents, nowMs, variables), rest: stages.slice(1) };
  if (name === '$listLocalSessions') return { source: listLocalSessionsStage(first!.$listLocalSessions, server, nowMs), rest: stages.slice(1) };
  if (name === '$currentOp' || name === '$changeStream' || name === '$queryStats' || name === '$listSessions') {
    throw new CommandError('NotImplemented', `${name} is not supported by Mayfly yet`);
  }
  throw new CommandError('InvalidNamespace', `{aggregate: 1} is not valid for '${name || '$match'}'; a collection is required.`);
}

/** `$documents: <expression>`: the expression's documents (an array; a single value counts as one). */
function documentsStage(spec: unknown, nowMs: number, variables: CommandVariables): Document[] {
  const expressions = new ExpressionContext({ now: new Date(nowMs), variables });
  const value = expressions.parse(spec)(expressions.frame({}));
  if (value === MISSING || value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (!isDocument(item)) {
      throw new CommandError(
        40228,
        `'newRoot' expression must evaluate to an object, but resulting value was: ${formatValue(item)}. Type of resulting value: '${bsonTypeOf(item)}'.`,
      );
    }
    return item;
  });
}

/** `$listLocalSessions: {}`, `{allUsers: true}` or `{users: [...]}`. */
function listLocalSessionsStage(spec: unknown, server: object, nowMs: number): Document[] {
  if (!isDocument(spec)) {
    throw new CommandError('TypeMismatch', `$listLocalSessions options must be specified in an object, but found: ${bsonTypeOf(spec)}`);
  }
  for (const key of Object.keys(spec)) {
    if (key !== 'allUsers' && key !== 'users') throw new CommandError('IDLUnknownField', `BSON field '$listLocalSessions.${key}' is an unknown field.`);
  }
  const allUsers = spec.allUsers === true;
  const users = Array.isArray(spec.users) ? (spec.users as Document[]) : undefined;
  if (allUsers && users && users.length > 0) {
    throw new CommandError('UnsupportedFormat', '$listLocalSessions may not specify {allUsers:true} and {users:[...]} at the same time');
  }
  const records = localSessionRecords(server, nowMs);
  if (allUsers || !users || users.length === 0) return records;
  // Without authentication every session belongs to the user "" of database "".
  return users.some((u) => isDocument(u) && u.user === '' && u.db === '') ? records : [];
}

// ---- $out and $merge --------------------------------------------------------------------

/** A parsed final write stage. */
export type OutputStage =
  | { kind: '$out'; db: string; coll: string }
  | {
      kind: '$merge';
      db: string;
      coll: string;
      on: string[];
      whenMatched: 'replace' | 'keepExisting' | 'merge' | 'fail';
      whenNotMatched: 'insert' | 'discard' | 'fail';
    };

const INTERNAL_DBS = new Set(['admin', 'local', 'config']);

function targetNamespace(stageName: string, spec: unknown, defaultDb: string, dbField: string, collField: string): { db: string; coll: string } {
  if (typeof spec === 'string') return { db: defaultDb, coll: spec };
  const doc = spec as Document;
  const db = doc[dbField] === undefined ? defaultDb : doc[dbField];
  const coll = doc[collField];
  if (typeof db !== 'string') throw new CommandError('TypeMismatch', `BSON field '${stageName}.${dbField}' is the wrong type '${bsonTypeOf(db)}', expected type 'string'`);
  if (typeof coll !== 'string') {
    throw new CommandError(
      coll === undefined ? 'IDLFailedToParse' : 'TypeMismatch',
      coll === undefined
        ? `BSON field '${stageName}.${collField}' is missing but a required field`
        : `BSON field '${stageName}.${collField}' is the wrong type '${bsonTypeOf(coll)}', expected type 'string'`,
    );
  }
  return { db, coll };
}

function checkTarget(kind: string, db: string, coll: string): void {
  validateDbName(db);
  if (INTERNAL_DBS.has(db)) throw new CommandError(31321, `Can't ${kind} to internal database: ${db}`);
  if (coll.startsWith('system.')) throw new CommandError(17385, `Can't ${kind} to special collection: ${coll}`);
  validateCollectionName(db, coll, true);
}

const MERGE_MODES = new Set([
  'replace/insert',
  'replace/fail',
  'replace/discard',
  'keepExisting/insert',
  'merge/insert',
  'merge/fail',
  'merge/discard',
  'fail/insert',
]);

/**
 * Splits off a final `$out`/`$merge` stage (parsed) from the stages before it. Throws 40601
 * when a write stage is not last.
 */
export function splitOutputStage(stages: readonly Document[], db: string): { inner: Document[]; output: OutputStage | undefined } {
  stages.forEach((stage, i) => {
    const name = nameOfStage(stage);
    if ((name === '$out' || name === '$merge') && i !== stages.length - 1) {
      throw new CommandError(40601, `${name} can only be the final stage in the pipeline`);
    }
  });
  const last = stages[stages.length - 1];
  const name = last ? nameOfStage(last) : '';
  if (name !== '$out' && name !== '$merge') return { inner: [...stages], output: undefined };
  const spec = last![name];
  const inner = stages.slice(0, -1);
  if (name === '$out') {
    if (typeof spec !== 'string' && !isDocument(spec)) {
      throw new CommandError(16990, `$out only supports a string or object argument, but found ${bsonTypeOf(spec)}`);
    }
    if (isDocument(spec) && spec.timeseries !== undefined) throw new CommandError('NotImplemented', '$out to a time-series collection is not supported by Mayfly yet');
    const target = targetNamespace('$out', spec, db, 'db', 'coll');
    checkTarget('$out', target.db, target.coll);
    return { inner, output: { kind: '$out', ...target } };
  }
  if (typeof spec !== 'string' && !isDocument(spec)) {
    throw new CommandError('TypeMismatch', `$merge requires a string or object argument, but found ${bsonTypeOf(spec)}`);
  }
  let target: { db: string; coll: string };
  let on = ['_id'];
  let whenMatched: string = 'merge';
  let whenNotMatched: string = 'insert';
  if (typeof spec === 'string') {
    target = { db, coll: spec };
  } else {
    for (const key of Object.keys(spec)) {
      if (!['into', 'on', 'whenMatched', 'whenNotMatched', 'let', 'targetCollectionVersion'].includes(key)) {
        throw new CommandError('IDLUnknownField', `BSON field '$merge.${key}' is an unknown field.`);
      }
    }
    const into = spec.into;
    if (into === undefined) throw new CommandError('IDLFailedToParse', "BSON field '$merge.into' is missing but a required field");
    if (typeof into !== 'string' && !isDocument(into)) {
      throw new CommandError('TypeMismatch', `BSON field '$merge.into' is the wrong type '${bsonTypeOf(into)}', expected types '[string, object]'`);
    }
    target = targetNamespace('$merge.into', into, db, 'db', 'coll');
    if (spec.on !== undefined) {
      const raw = typeof spec.on === 'string' ? [spec.on] : spec.on;
      if (!Array.isArray(raw) || raw.length === 0 || raw.some((f) => typeof f !== 'string')) {
        throw new CommandError(51186, "$merge 'on' field must be either a string or an array of strings");
      }
      const seen = new Set<string>();
      for (const f of raw as string[]) {
        if (seen.has(f)) throw new CommandError(31465, `Found a duplicate field '${f}'`);
        seen.add(f);
      }
      on = raw as string[];
    }
    if (spec.whenMatched !== undefined) {
      if (Array.isArray(spec.whenMatched)) throw new CommandError('NotImplemented', "$merge with a 'whenMatched' pipeline is not supported by Mayfly yet");
      whenMatched = String(spec.whenMatched);
      if (!['replace', 'keepExisting', 'merge', 'fail'].includes(whenMatched)) {
        throw new CommandError('BadValue', `Enumeration value '${whenMatched}' for field '$merge.whenMatched' is not a valid value.`);
      }
    }
    if (spec.whenNotMatched !== undefined) {
      whenNotMatched = String(spec.whenNotMatched);
      if (!['insert', 'discard', 'fail'].includes(whenNotMatched)) {
        throw new CommandError('BadValue', `Enumeration value '${whenNotMatched}' for field '$merge.whenNotMatched' is not a valid value.`);
      }
    }
    if (spec.let !== undefined) throw new CommandError(51199, `Cannot use 'let' variables with 'whenMatched: ${whenMatched}' mode`);
  }
  if (!MERGE_MODES.has(`${whenMatched}/${whenNotMatched}`)) {
    throw new CommandError(51181, `Combination of $merge modes 'whenMatched: ${whenMatched}' and 'whenNotMatched: ${whenNotMatched}' is not supported`);
  }
  checkTarget('$merge', target.db, target.coll);
  return {
    inner,
    output: {
      kind: '$merge',
      ...target,
      on,
      whenMatched: whenMatched as 'merge',
      whenNotMatched: whenNotMatched as 'insert',
    },
  };
}

/**
 * Checks, before anything runs, what mongod checks when it parses the stage: `$merge` on fields
 * other than `_id` needs a unique index on exactly those fields (51183).
 */
export function checkOutputTarget(output: OutputStage, catalog: Catalog): void {
  if (output.kind !== '$merge') return;
  if (output.on.length === 1 && output.on[0] === '_id') return;
  const coll = catalog.get(output.db, output.coll);
  const wanted = [...output.on].sort().join('\u0000');
  const ok = coll?.indexes.some((index) => index.unique && !index.partialFilter && [...index.fields].sort().join('\u0000') === wanted) ?? false;
  if (!ok) throw new CommandError(51183, 'Cannot find index to verify that $merge fields will be unique');
}

/**
 * Checks a document a write stage is about to store in `coll` (document validation;
 * `previous` is the document a `$merge` update replaces) and returns the document to store.
 */
export type OutputCheck = (coll: Collection, next: Document, previous: Document | null) => Document;

const NO_CHECK: OutputCheck = (_coll, next) => next;

/** Writes the pipeline's output documents as the stage says. */
export function writeOutput(output: OutputStage, docs: Iterable<Document>, catalog: Catalog, nowMs: number, check: OutputCheck = NO_CHECK): void {
  // The whole output is read before the first write: the target may be the source collection.
  const all = [...docs];
  if (output.kind === '$out') writeOut(output, all, catalog, nowMs, check);
  else writeMerge(output, all, catalog, nowMs, check);
}

/** `$out`: the output replaces the target's documents, atomically, keeping its indexes. */
function writeOut(output: { db: string; coll: string }, docs: Iterable<Document>, catalog: Catalog, nowMs: number, check: OutputCheck): void {
  const existing = catalog.get(output.db, output.coll);
  if (existing?.capped) throw new CommandError(17152, `namespace '${existing.ns}' is capped so it can't be used for $out`);
  // Like mongod, fill a temporary collection (with the target's indexes) first: a duplicate key
  // fails the stage and leaves the target untouched.
  const temp = new Collection(output.db, `tmp.agg_out.${new UUID().toHexString(true)}`, existing?.options ?? {});
  for (const spec of existing?.indexSpecs().slice(1) ?? []) temp.addIndex(spec, nowMs);
  for (const doc of docs) temp.insert(check(temp, doc, null), nowMs);
  const target = existing ?? catalog.getOrCreate(output.db, output.coll).coll;
  target.clear();
  for (const rec of temp.allRecords()) target.insert(rec.doc, nowMs);
}

/** `$merge`: each output document is matched on the `on` fields, then merged as the modes say. */
function writeMerge(output: Extract<OutputStage, { kind: '$merge' }>, docs: Iterable<Document>, catalog: Catalog, nowMs: number, check: OutputCheck): void {
  const onId = output.on.length === 1 && output.on[0] === '_id';
  for (const raw of docs) {
    let doc = raw;
    if (output.on.includes('_id') && doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
    const filter: Document = {};
    for (const field of output.on) {
      const value = getField(doc, field);
      if (value === undefined || value === null || Array.isArray(value) || bsonTypeOf(value) === 'undefined') {
        throw new CommandError(51132, `$merge write error: 'on' field '${field}' cannot be missing, null, undefined or an array`);
      }
      filter[field] = { $eq: value };
    }
    const existingColl = catalog.get(output.db, output.coll);
    const predicate = compileQuery(filter, nowMs);
    let match: ReturnType<Collection['getById']>;
    if (existingColl) {
      for (const rec of candidateRecords(existingColl, onId ? { _id: doc._id } : filter, () => nowMs)) {
        if (predicate(rec.doc)) {
          match = rec;
          break;
        }
      }
    }
    if (match && existingColl) {
      switch (output.whenMatched) {
        case 'keepExisting':
          break;
        case 'fail':
          existingColl.insert(doc, nowMs); // the duplicate key error mongod reports
          break;
        case 'replace': {
          const next = doc._id === undefined ? { _id: match.doc._id, ...doc } : doc;
          existingColl.update(match, check(existingColl, next, match.doc), nowMs);
          break;
        }
        case 'merge': {
          const next: Document = { ...match.doc };
          for (const [k, v] of Object.entries(doc)) next[k] = v;
          existingColl.update(match, check(existingColl, next, match.doc), nowMs);
          break;
        }
      }
      continue;
    }
    if (output.whenNotMatched === 'discard') continue;
    if (output.whenNotMatched === 'fail') {
      throw new CommandError(13113, '$merge could not find a matching document in the target collection for at least one document in the source collection');
    }
    const coll = existingColl ?? catalog.getOrCreate(output.db, output.coll).coll;
    coll.insert(check(coll, doc, null), nowMs);
  }
}
