/**
 * `$out` (document_source_out.cpp): the pipeline's documents replace those of the target
 * collection (of this database or another), atomically: they are written into a temporary
 * collection with the target's options and indexes, which then takes the target's place, so a
 * failure (a duplicate key, a document validation error) leaves the target as it was
 * (`src/storage/write/out.ts`). Not to a capped collection (17152), a view (166), an internal
 * database (31321), a system collection (17385). `timeseries: {...}` (its IDL and bucketing
 * rules checked) creates the target as a time-series collection, or must match the existing one.
 */
import { CommandError } from '../../../errors/command_error.js';
import type { Document } from '../../../bson/library.js';
import { parseTimeseriesDocument, settleBucketing, timeseriesDocument } from '../../timeseries/options.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';
import { checkTarget, readAll } from './_internal.js';

/** The fields of `$out`'s document form. */
const FIELDS = new Set(['db', 'coll', 'timeseries']);

/** The `{db, coll}` of `$out`: a string names a collection of `defaultDb`; the document form needs both (null is absent). */
function outTarget(spec: string | Document, defaultDb: string): { db: string; coll: string } {
  if (typeof spec === 'string') return { db: defaultDb, coll: spec };
  for (const key of Object.keys(spec)) {
    if (!FIELDS.has(key)) throw new CommandError('IDLUnknownField', `BSON field '$out.${key}' is an unknown field.`);
  }
  const field = (name: 'db' | 'coll'): string => {
    const value = spec[name];
    if (value === undefined || value === null) throw new CommandError('IDLFailedToParse', `BSON field '$out.${name}' is missing but a required field`);
    if (typeof value !== 'string') throw new CommandError('TypeMismatch', `BSON field '$out.${name}' is the wrong type '${bsonTypeOf(value)}', expected type 'string'`);
    return value;
  };
  const coll = field('coll');
  const db = field('db');
  return { db, coll };
}

/** `NamespaceString::isValid` for the target's collection name: 20 otherwise. */
function checkOutNamespace(db: string, coll: string): void {
  const ns = `${db}.${coll}`;
  if (coll.includes('$') || Buffer.byteLength(ns) > 255) throw new CommandError('IllegalOperation', `Invalid $out target namespace, ${ns}`);
}

/** `{$out: "<coll>"}` or `{$out: {db, coll}}`. */
export const out: StageDefinition = {
  name: '$out',
  constraints: { stream: 'blocking', position: 'last', input: 'documents', target: 'collection', allowedIn: {}, writes: true, readConcern: 'notLinearizable' },
  parse(spec, ctx) {
    if (typeof spec !== 'string' && !isDocument(spec)) {
      throw new CommandError(16990, `$out only supports a string or object argument, but found ${bsonTypeOf(spec)}`);
    }
    const { db, coll } = outTarget(spec, ctx.runtime.db);
    let timeseries: Document | undefined;
    if (isDocument(spec) && spec.timeseries !== undefined && spec.timeseries !== null) {
      // The IDL and the bucketing rules; not create's field-name checks (`$out` accepts a metaField `_id`).
      timeseries = timeseriesDocument(settleBucketing(parseTimeseriesDocument('$out.timeseries', spec.timeseries)));
    }
    if (coll.length > 0 && db.length > 0) checkOutNamespace(db, coll);
    checkTarget('$out', db, coll);
    const { output, collections } = ctx.runtime;
    return {
      *run(input) {
        const docs = readAll(input);
        const target = collections.describe(db, coll);
        if (target?.capped) throw new CommandError(17152, `namespace '${target.ns}' is capped so it can't be used for $out`);
        // Explain runs the pipeline without a writer: nothing is written.
        output?.replace(db, coll, docs, timeseries);
      },
    };
  },
};
