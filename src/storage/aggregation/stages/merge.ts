/**
 * `$merge` (document_source_merge.cpp): each document of the pipeline is matched in the target
 * collection on its `on` fields (`_id` by default; other fields need a unique index on exactly
 * them, 51183, checked when parsed), then merged as `whenMatched` (`merge`, `replace`,
 * `keepExisting`, `fail`) and `whenNotMatched` (`insert`, `discard`, `fail`) say. A `whenMatched`
 * pipeline and `let` answer 238 and 51199 for now.
 */
import { ObjectId, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { getField, isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';
import { checkTarget, readAll, targetNamespace } from './_internal.js';

type WhenMatched = 'replace' | 'keepExisting' | 'merge' | 'fail';
type WhenNotMatched = 'insert' | 'discard' | 'fail';

const FIELDS = new Set(['into', 'on', 'whenMatched', 'whenNotMatched', 'let', 'targetCollectionVersion']);
const WHEN_MATCHED = new Set(['replace', 'keepExisting', 'merge', 'fail']);
const WHEN_NOT_MATCHED = new Set(['insert', 'discard', 'fail']);
const MODES = new Set(['replace/insert', 'replace/fail', 'replace/discard', 'keepExisting/insert', 'merge/insert', 'merge/fail', 'merge/discard', 'fail/insert']);

interface MergeSpec {
  readonly db: string;
  readonly coll: string;
  readonly on: readonly string[];
  readonly whenMatched: WhenMatched;
  readonly whenNotMatched: WhenNotMatched;
}

function parseSpec(spec: unknown, defaultDb: string): MergeSpec {
  if (typeof spec !== 'string' && !isDocument(spec)) {
    throw new CommandError('TypeMismatch', `$merge requires a string or object argument, but found ${bsonTypeOf(spec)}`);
  }
  if (typeof spec === 'string') return { db: defaultDb, coll: spec, on: ['_id'], whenMatched: 'merge', whenNotMatched: 'insert' };
  for (const key of Object.keys(spec)) {
    if (!FIELDS.has(key)) throw new CommandError('IDLUnknownField', `BSON field '$merge.${key}' is an unknown field.`);
  }
  const into = spec.into;
  if (into === undefined) throw new CommandError('IDLFailedToParse', "BSON field '$merge.into' is missing but a required field");
  if (typeof into !== 'string' && !isDocument(into)) {
    throw new CommandError('TypeMismatch', `BSON field '$merge.into' is the wrong type '${bsonTypeOf(into)}', expected types '[string, object]'`);
  }
  const target = targetNamespace('$merge.into', into, defaultDb, 'db', 'coll');
  let on: string[] = ['_id'];
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
  let whenMatched = 'merge';
  let whenNotMatched = 'insert';
  if (spec.whenMatched !== undefined) {
    if (Array.isArray(spec.whenMatched)) throw new CommandError('NotImplemented', "$merge with a 'whenMatched' pipeline is not supported by Mayfly yet");
    whenMatched = String(spec.whenMatched);
    if (!WHEN_MATCHED.has(whenMatched)) {
      throw new CommandError('BadValue', `Enumeration value '${whenMatched}' for field '$merge.whenMatched' is not a valid value.`);
    }
  }
  if (spec.whenNotMatched !== undefined) {
    whenNotMatched = String(spec.whenNotMatched);
    if (!WHEN_NOT_MATCHED.has(whenNotMatched)) {
      throw new CommandError('BadValue', `Enumeration value '${whenNotMatched}' for field '$merge.whenNotMatched' is not a valid value.`);
    }
  }
  if (spec.let !== undefined) throw new CommandError(51199, `Cannot use 'let' variables with 'whenMatched: ${whenMatched}' mode`);
  return { ...target, on, whenMatched: whenMatched as WhenMatched, whenNotMatched: whenNotMatched as WhenNotMatched };
}

/** `{$merge: "<coll>"}` or `{$merge: {into, on?, whenMatched?, whenNotMatched?}}`. */
export const merge: StageDefinition = {
  name: '$merge',
  constraints: { stream: 'blocking', position: 'last', input: 'documents', target: 'collection', allowedIn: {}, writes: true, readConcern: 'notLinearizable' },
  parse(raw, ctx) {
    const spec = parseSpec(raw, ctx.runtime.db);
    if (!MODES.has(`${spec.whenMatched}/${spec.whenNotMatched}`)) {
      throw new CommandError(51181, `Combination of $merge modes 'whenMatched: ${spec.whenMatched}' and 'whenNotMatched: ${spec.whenNotMatched}' is not supported`);
    }
    checkTarget('$merge', spec.db, spec.coll);
    const { output, collections } = ctx.runtime;
    if (spec.on.length !== 1 || spec.on[0] !== '_id') {
      // 51183 when the target has no unique index on exactly the `on` fields.
      const wanted = [...spec.on].sort().join('\u0000');
      const unique = collections.describe(spec.db, spec.coll)?.uniqueKeys.some((keys) => [...keys].sort().join('\u0000') === wanted) ?? false;
      if (!unique) throw new CommandError(51183, 'Cannot find index to verify that $merge fields will be unique');
    }
    return {
      *run(input) {
        const docs = readAll(input);
        // Explain runs the pipeline without a writer: nothing is written.
        if (output === undefined) return;
        for (const raw of docs) {
          let doc = raw;
          if (spec.on.includes('_id') && doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
          const filter: Document = {};
          for (const field of spec.on) {
            const value = getField(doc, field);
            if (value === undefined || value === null || Array.isArray(value) || bsonTypeOf(value) === 'undefined') {
              throw new CommandError(51132, `$merge write error: 'on' field '${field}' cannot be missing, null, undefined or an array`);
            }
            filter[field] = { $eq: value };
          }
          const match = output.findOne(spec.db, spec.coll, filter);
          if (match) {
            switch (spec.whenMatched) {
              case 'keepExisting':
                break;
              case 'fail':
                output.insert(spec.db, spec.coll, doc); // the duplicate key error mongod reports
                break;
              case 'replace':
                match.replace(doc._id === undefined ? { _id: match.doc._id, ...doc } : doc);
                break;
              case 'merge': {
                const next: Document = { ...match.doc };
                for (const [k, v] of Object.entries(doc)) next[k] = v;
                match.replace(next);
                break;
              }
            }
            continue;
          }
          if (spec.whenNotMatched === 'discard') continue;
          if (spec.whenNotMatched === 'fail') {
            throw new CommandError(13113, '$merge could not find a matching document in the target collection for at least one document in the source collection');
          }
          output.insert(spec.db, spec.coll, doc);
        }
      },
    };
  },
};
