/**
 * `$merge` (document_source_merge.cpp, document_source_merge_spec.cpp): each document of the
 * pipeline is matched in the target collection on its `on` fields (`_id` by default; other
 * fields need a unique index on exactly them, 51183, checked when parsed), then merged as
 * `whenMatched` (`merge`, `replace`, `keepExisting`, `fail`, or a pipeline run on the matched
 * document with `$$new` and the `let` variables, evaluated on the source document) and
 * `whenNotMatched` (`insert`, `discard`, `fail`) say. The writes go through the write path
 * (`src/storage/write/merge.ts`, reached through the runtime's `OutputWriter`).
 */
import { type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import { validateDbName } from '../../values/namespace.js';
import { parseFieldPath } from '../../expression/field_path.js';
import { validateNameForUserWrite } from '../../expression/grammar.js';
import type { StageDefinition } from '../stage.js';
import type { MergeItemSpec, MergeWriteSpec } from '../runtime.js';
import { readAll } from './_internal.js';

type WhenMatched = 'replace' | 'keepExisting' | 'merge' | 'fail' | 'pipeline';
type WhenNotMatched = 'insert' | 'discard' | 'fail';

const FIELDS = new Set(['into', 'on', 'let', 'whenMatched', 'whenNotMatched', 'targetCollectionVersion', 'allowMergeOnNullishValues']);
const INTO_FIELDS = new Set(['db', 'coll']);
const WHEN_MATCHED = new Set(['replace', 'keepExisting', 'merge', 'fail']);
const WHEN_NOT_MATCHED = new Set(['insert', 'discard', 'fail']);
const MODES = new Set([
  'replace/insert',
  'replace/fail',
  'replace/discard',
  'keepExisting/insert',
  'merge/insert',
  'merge/fail',
  'merge/discard',
  'fail/insert',
  'pipeline/insert',
  'pipeline/fail',
  'pipeline/discard',
]);
/** The databases `$merge` may not write to (31320). */
const INTERNAL_DBS = new Set(['admin', 'local', 'config']);

interface MergeSpec extends MergeWriteSpec {
  /** `let` as given (absent: none). */
  readonly let?: Document;
  /** `on` was given. */
  readonly onGiven: boolean;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;

function wrongType(field: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

/** `mergeTargetNssParseFromBSON`: `into` as a collection name or `{db, coll}`. */
function parseInto(into: unknown, defaultDb: string): { db: string; coll: string } {
  if (typeof into !== 'string' && !isDocument(into)) {
    throw new CommandError(51178, `$merge 'into' field  must be either a string or an object, but found ${bsonTypeOf(into)}`);
  }
  if (typeof into === 'string') {
    if (into.length === 0) throw new CommandError(5786800, "$merge 'into' field cannot be an empty string");
    return { db: defaultDb, coll: into };
  }
  for (const key of Object.keys(into)) if (!INTO_FIELDS.has(key)) throw new CommandError('IDLUnknownField', `BSON field 'into.${key}' is an unknown field.`);
  const db = into.db;
  const coll = into.coll;
  if (present(db) && typeof db !== 'string') throw wrongType('into.db', db, 'string');
  if (present(coll) && typeof coll !== 'string') throw wrongType('into.coll', coll, 'string');
  if (typeof coll !== 'string' || coll.length === 0) {
    throw new CommandError(5786801, "$merge 'into' field must specify a 'coll' that is not empty, null or undefined");
  }
  return { db: typeof db === 'string' && db.length > 0 ? db : defaultDb, coll };
}

/** `mergeOnFieldsParseFromBSON`, then each a valid FieldPath, once (`convertToFieldPaths`). */
function parseOn(on: unknown): string[] {
  if (typeof on !== 'string' && !Array.isArray(on)) {
    throw new CommandError(51186, `$merge 'on' field  must be either a string or an array of strings, but found ${bsonTypeOf(on)}`);
  }
  const fields: string[] = [];
  if (typeof on === 'string') fields.push(on);
  else {
    for (const element of on) {
      if (typeof element !== 'string') throw new CommandError(51134, `$merge 'on' array elements must be strings, but found ${bsonTypeOf(element)}`);
      fields.push(element);
    }
  }
  if (fields.length === 0) throw new CommandError(51187, "If explicitly specifying $merge 'on', must include at least one field");
  return fields;
}

/** `mergeWhenMatchedParseFromBSON`: a mode name or a pipeline. */
function parseWhenMatched(value: unknown): { mode: WhenMatched; pipeline?: Document[] } {
  if (typeof value !== 'string' && !Array.isArray(value)) {
    throw new CommandError(51191, `$merge 'whenMatched' field  must be either a string or an array, but found ${bsonTypeOf(value)}`);
  }
  if (Array.isArray(value)) {
    value.forEach((stage, i) => {
      if (!isDocument(stage)) throw wrongType(`$merge.whenMatched.${i}`, stage, 'object');
    });
    return { mode: 'pipeline', pipeline: value as Document[] };
  }
  if (!WHEN_MATCHED.has(value)) throw new CommandError('BadValue', `Enumeration value '${value}' for field 'whenMatched' is not a valid value.`);
  return { mode: value as WhenMatched };
}

/** `DocumentSourceMergeSpec::parse` and the target's resolution. */
function parseSpec(spec: unknown, defaultDb: string): MergeSpec {
  if (typeof spec !== 'string' && !isDocument(spec)) {
    throw new CommandError('TypeMismatch', `$merge requires a string or object argument, but found ${bsonTypeOf(spec)}`);
  }
  if (typeof spec === 'string') {
    return { db: defaultDb, coll: spec, on: ['_id'], onGiven: false, whenMatched: 'merge', whenNotMatched: 'insert' };
  }
  let target: { db: string; coll: string } | undefined;
  let on: string[] | undefined;
  let letDoc: Document | undefined;
  let whenMatched: { mode: WhenMatched; pipeline?: Document[] } | undefined;
  let whenNotMatched: WhenNotMatched | undefined;
  for (const key of Object.keys(spec)) {
    if (!FIELDS.has(key)) throw new CommandError('IDLUnknownField', `BSON field '$merge.${key}' is an unknown field.`);
    const value = spec[key];
    switch (key) {
      case 'into':
        target = parseInto(value, defaultDb);
        break;
      case 'on':
        if (value !== undefined) on = parseOn(value);
        break;
      case 'let':
        if (present(value)) {
          if (!isDocument(value)) throw wrongType('$merge.let', value, 'object');
          letDoc = value;
        }
        break;
      case 'whenMatched':
        whenMatched = parseWhenMatched(value);
        break;
      case 'whenNotMatched':
        if (present(value)) {
          if (typeof value !== 'string') throw wrongType('$merge.whenNotMatched', value, 'string');
          if (!WHEN_NOT_MATCHED.has(value)) throw new CommandError('BadValue', `Enumeration value '${value}' for field '$merge.whenNotMatched' is not a valid value.`);
          whenNotMatched = value as WhenNotMatched;
        }
        break;
    }
  }
  if (target === undefined) throw new CommandError('IDLFailedToParse', "BSON field '$merge.into' is missing but a required field");
  return {
    ...target,
    on: on ?? ['_id'],
    onGiven: on !== undefined,
    whenMatched: whenMatched?.mode ?? 'merge',
    pipeline: whenMatched?.pipeline,
    whenNotMatched: whenNotMatched ?? 'insert',
    let: letDoc,
  };
}

/** `NamespaceString::isValid` for the target (73 otherwise). */
function checkNamespace(db: string, coll: string): void {
  let valid = coll.length > 0 && !coll.includes('\0') && !coll.startsWith('.') && !coll.includes('$');
  if (valid) {
    try {
      validateDbName(db);
    } catch {
      valid = false;
    }
  }
  if (!valid) throw new CommandError('InvalidNamespace', `Invalid $merge target namespace: '${db}.${coll}'`);
}

/** `{$merge: "<coll>"}` or `{$merge: {into, on?, let?, whenMatched?, whenNotMatched?}}`. */
export const merge: StageDefinition = {
  name: '$merge',
  constraints: { stream: 'blocking', position: 'last', input: 'documents', target: 'collection', allowedIn: {}, writes: true, readConcern: 'notLinearizable' },
  parse(raw, ctx) {
    const spec = parseSpec(raw, ctx.runtime.db);
    checkNamespace(spec.db, spec.coll);
    if (!MODES.has(`${spec.whenMatched}/${spec.whenNotMatched}`)) {
      const matched = spec.whenMatched === 'pipeline' ? '[pipeline]' : spec.whenMatched;
      throw new CommandError(51181, `Combination of $merge modes 'whenMatched: ${matched}' and 'whenNotMatched: ${spec.whenNotMatched}' is not supported`);
    }
    const { output, collections } = ctx.runtime;
    // The `on` fields: valid paths, once each, and a unique index on exactly them (the target's).
    if (spec.onGiven) {
      const seen = new Set<string>();
      for (const field of spec.on) {
        parseFieldPath(field);
        if (seen.has(field)) throw new CommandError(31465, `Found a duplicate field '${field}'`);
        seen.add(field);
      }
    }
    if (spec.on.length !== 1 || spec.on[0] !== '_id') {
      const wanted = [...spec.on].sort().join('\u0000');
      const unique = collections.describe(spec.db, spec.coll)?.uniqueKeys.some((keys) => [...keys].sort().join('\u0000') === wanted) ?? false;
      if (!unique) throw new CommandError(51183, 'Cannot find index to verify that $merge fields will be unique');
    }
    if (spec.coll.startsWith('system.')) throw new CommandError(31319, `Cannot $merge to special collection: ${spec.coll}`);
    if (INTERNAL_DBS.has(spec.db)) throw new CommandError(31320, `Cannot $merge to internal database: ${spec.db}`);
    // `let`: only with a pipeline, whose `new` is the source document (`$$ROOT` and nothing else).
    let letNames: string[] = [];
    let letValues: Array<(doc: Document) => unknown> = [];
    let withNew = false;
    if (spec.whenMatched === 'pipeline') {
      const letDoc = spec.let ?? { new: '$$ROOT' };
      if ('new' in letDoc && letDoc.new !== '$$ROOT') {
        throw new CommandError(51273, "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'");
      }
      withNew = 'new' in letDoc || spec.whenNotMatched === 'insert';
      letNames = Object.keys(letDoc).filter((name) => name !== 'new');
      for (const name of letNames) validateNameForUserWrite(name);
      letValues = letNames.map((name) => ctx.expressions.compile(letDoc[name]));
    } else if (spec.let !== undefined) {
      throw new CommandError(51199, `Cannot use 'let' variables with 'whenMatched: ${spec.whenMatched}' mode`);
    }
    const write: MergeWriteSpec = { db: spec.db, coll: spec.coll, on: spec.on, whenMatched: spec.whenMatched, pipeline: spec.pipeline, whenNotMatched: spec.whenNotMatched };
    return {
      *run(input) {
        const docs = readAll(input);
        // Explain runs the pipeline without a writer: nothing is written.
        if (output === undefined) return;
        const items: MergeItemSpec[] = docs.map((doc) => {
          if (spec.whenMatched !== 'pipeline') return { doc };
          // The let values, evaluated on the source document; a missing one is left out (then undefined in the pipeline).
          const constants: Document = {};
          letNames.forEach((name, i) => {
            const value = letValues[i]!(doc);
            if (value !== undefined) constants[name] = value;
          });
          if (withNew) constants.new = doc;
          return { doc, constants };
        });
        output.merge(write, items);
      },
    };
  },
};
