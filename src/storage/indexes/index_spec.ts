/**
 * Validation of `createIndexes` specs as mongod 8.2 does it, and the text mongod quotes specs
 * with in its errors. TTL options are validated by the TTL engine (src/ttl).
 */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import type { ErrorCodeName } from '../../errors/codes.js';
import { bsonToString } from '../../errors/bson_to_string.js';
import { bsonTypeOf, isNumber, toDouble } from '../values/bson_type.js';
import { valuesEqual } from '../values/compare.js';
import { compileFilter } from '../query/compile_filter.js';

/** Index options mongod accepts in a spec. */
const KNOWN_OPTIONS = new Set([
  'v', 'key', 'name', 'ns', 'unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'hidden',
  'collation', 'background', 'weights', 'default_language', 'language_override', 'textIndexVersion',
  '2dsphereIndexVersion', 'bits', 'min', 'max', 'bucketSize', 'wildcardProjection', 'storageEngine',
  'dropDups', 'prepareUnique', 'clustered', 'coarsestIndexedLevel', 'finestIndexedLevel',
]);

/** Index key plugins mongod knows. */
const PLUGINS = new Set(['2d', '2dsphere', 'text', 'hashed', 'geoHaystack']);

function specError(code: number | ErrorCodeName, spec: Document, why: string): CommandError {
  return new CommandError(code, `Error in specification ${bsonToString(spec)} :: caused by :: ${why}`);
}

/** Checks one spec of `createIndexes` and returns it normalised: `{ v: 2, key, name, ...options }`. */
export function normaliseIndexSpec(raw: unknown): Document {
  if (bsonTypeOf(raw) !== 'object') {
    throw new CommandError('TypeMismatch', `Expected an index specification object, found ${bsonTypeOf(raw)}`);
  }
  const spec = raw as Document;
  const key = spec.key;
  if (key === undefined) throw specError('FailedToParse', spec, "The 'key' field is a required property of an index specification");
  if (bsonTypeOf(key) !== 'object') {
    throw specError('TypeMismatch', spec, `The field 'key' must be an object, but got ${bsonTypeOf(key)}`);
  }
  const keyDoc = key as Document;
  const fields = Object.keys(keyDoc);
  if (fields.length === 0) throw specError('CannotCreateIndex', spec, 'Index keys cannot be empty.');
  if (fields.length > 32) throw new CommandError(13103, 'too many compound keys');
  for (const field of fields) {
    const value = keyDoc[field];
    if (field === '') throw specError('CannotCreateIndex', spec, 'Index keys cannot be an empty field.');
    if (field.startsWith('$') && field !== '$**') {
      throw specError('CannotCreateIndex', spec, "Index key contains an illegal field name: field name starts with '$'.");
    }
    if (typeof value === 'boolean') {
      throw specError('CannotCreateIndex', spec, 'Values in v:2 index key pattern cannot be of type bool. Only numbers > 0, numbers < 0, and strings are allowed.');
    }
    if (isNumber(value)) {
      if (toDouble(value) === 0 || Number.isNaN(toDouble(value))) throw specError('CannotCreateIndex', spec, 'Values in the index key pattern cannot be 0.');
    } else if (typeof value === 'string') {
      if (!PLUGINS.has(value)) throw specError('CannotCreateIndex', spec, `Unknown index plugin '${value}'`);
    } else {
      throw specError('CannotCreateIndex', spec, `Values in v:2 index key pattern cannot be of type ${bsonTypeOf(value)}. Only numbers > 0, numbers < 0, and strings are allowed.`);
    }
  }
  const name = spec.name;
  if (name === undefined) throw specError('FailedToParse', spec, "The 'name' field is a required property of an index specification");
  if (typeof name !== 'string') throw specError('TypeMismatch', spec, `The field 'name' must be a string, but got ${bsonTypeOf(name)}`);
  if (name === '') throw specError('CannotCreateIndex', spec, 'index name cannot be empty');
  if (name === '*') throw new CommandError('BadValue', "The index name '*' is not valid.");
  const isIdIndex = fields.length === 1 && fields[0] === '_id';
  for (const option of Object.keys(spec)) {
    if (!KNOWN_OPTIONS.has(option)) {
      throw new CommandError('InvalidIndexSpecificationOption', `The field '${option}' is not valid for an index specification. Specification: ${bsonToString(spec)}`);
    }
    if (isIdIndex && !['key', 'name', 'v', 'ns', 'collation'].includes(option)) {
      throw new CommandError(
        'InvalidIndexSpecificationOption',
        `The field '${option}' is not valid for an _id index specification. Specification: ${bsonToString({ v: 2, ...spec })}`,
      );
    }
  }
  if (spec.v !== undefined) {
    const v = isNumber(spec.v) ? toDouble(spec.v) : NaN;
    if (v !== 1 && v !== 2) throw specError('CannotCreateIndex', spec, `Invalid index specification ${bsonToString(spec)}; cannot create an index with v=${bsonToString(spec.v)}`);
  }
  for (const boolOption of ['unique', 'sparse', 'hidden', 'background']) {
    const value = spec[boolOption];
    if (value !== undefined && typeof value !== 'boolean' && !isNumber(value)) {
      throw specError('TypeMismatch', spec, `The field '${boolOption}' must be a boolean, but got ${bsonTypeOf(value)}`);
    }
  }
  if (spec.partialFilterExpression !== undefined) {
    if (bsonTypeOf(spec.partialFilterExpression) !== 'object') {
      throw specError('TypeMismatch', spec, `The field 'partialFilterExpression' must be an object, but got ${bsonTypeOf(spec.partialFilterExpression)}`);
    }
    if (spec.sparse === true) throw specError('CannotCreateIndex', spec, 'cannot mix "partialFilterExpression" and "sparse" options');
    compileFilter(spec.partialFilterExpression as Document);
  }
  if (spec.hidden === true && isIdIndex) throw new CommandError('BadValue', "can't hide _id index");
  const out: Document = { v: 2, key: keyDoc, name };
  for (const [option, value] of Object.entries(spec)) {
    if (option === 'v' || option === 'key' || option === 'name' || option === 'ns' || option === 'background') continue;
    if ((option === 'unique' || option === 'sparse' || option === 'hidden') && typeof value !== 'boolean') {
      out[option] = toDouble(value) !== 0;
      continue;
    }
    out[option] = value;
  }
  return out;
}

/** Options that make two specs different indexes (everything but v/key/name). */
function optionsOf(spec: Document): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(spec)) if (k !== 'v' && k !== 'key' && k !== 'name' && k !== 'ns') out[k] = v;
  return out;
}

/** The outcome of comparing a requested spec with the existing ones. */
export type SpecMatch = { kind: 'new' } | { kind: 'exists' };

/** Compares `wanted` with `existing` specs; throws 85/86 on conflicts as mongod does. */
export function matchExistingIndex(wanted: Document, existing: Document[]): SpecMatch {
  for (const idx of existing) {
    const sameName = idx.name === wanted.name;
    const sameKey = valuesEqual(idx.key, wanted.key) && Object.keys(idx.key as Document).join() === Object.keys(wanted.key as Document).join();
    const sameOptions = valuesEqual(optionsOf(idx), optionsOf(wanted));
    if (sameName && sameKey && sameOptions) return { kind: 'exists' };
    if (sameName && sameKey) {
      throw new CommandError(
        'IndexOptionsConflict',
        `An equivalent index already exists with the same name but different options. Requested index: ${bsonToString(wanted)}, existing index: ${bsonToString(idx)}`,
      );
    }
    if (sameName) {
      throw new CommandError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${bsonToString(wanted)}, existing index: ${bsonToString(idx)}`,
      );
    }
    if (sameKey && sameOptions) {
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${String(idx.name)}`);
    }
    if (sameKey && !sameOptions && !wanted.collation && !idx.collation) {
      throw new CommandError(
        'IndexOptionsConflict',
        `An equivalent index already exists with a different name and options. Requested index: ${bsonToString(wanted)}, existing index: ${bsonToString(idx)}`,
      );
    }
  }
  return { kind: 'new' };
}
