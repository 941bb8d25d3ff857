/**
 * `createIndexes` specs, checked and normalised as mongod 8.2 does it
 * (index_key_validate.cpp `validateIndexSpec`/`validateKeyPattern`/`validateIdIndexSpec`,
 * index_catalog_impl.cpp `_isSpecOk`/`_doesSpecConflictWithExisting`, index_descriptor.cpp
 * `compareIndexOptions`, fts_spec.cpp `fixSpec`, s2_access_method.cpp `fixSpec`), with the
 * text mongod quotes specs with in its errors. TTL options are validated by the TTL engine.
 */
import { wildcardSpecError } from './wildcard_spec.js';
import type { Document } from '../../bson/library.js';
import { fixTextSpec } from './text_index.js';
import { CommandError } from '../../errors/command_error.js';
import type { ErrorCodeName } from '../../errors/codes.js';
import { formatValue } from '../values/format.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { doubleOf, isNumber, toDouble } from '../values/numeric.js';
import { valuesEqual } from '../values/compare.js';
import { compileFilter } from '../query/compile_filter.js';
import { normaliseCollation, sameCollation } from './collation.js';
import { pluginName } from './key_pattern.js';
import { checkGeoIndexOptions } from '../geo/index_keys.js';
import { checkPartialFilter, refuseSpecialFeatures } from './partial_filter.js';

/** Index options mongod accepts in a spec (index_key_validate.cpp kAllowedFieldNames). */
const KNOWN_OPTIONS = new Set([
  'v', 'key', 'name', 'ns', 'unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'hidden',
  'collation', 'background', 'weights', 'default_language', 'language_override', 'textIndexVersion',
  '2dsphereIndexVersion', 'bits', 'min', 'max', 'bucketSize', 'wildcardProjection', 'storageEngine',
  'dropDups', 'prepareUnique', 'coarsestIndexedLevel', 'finestIndexedLevel', 'originalSpec', '_id',
]);

/** A spec without the options mongod does not know (`ignoreUnknownIndexOptions: true`). */
export function removeUnknownIndexOptions(raw: unknown): unknown {
  if (bsonTypeOf(raw) !== 'object') return raw;
  const out: Document = {};
  for (const [k, v] of Object.entries(raw as Document)) if (KNOWN_OPTIONS.has(k)) out[k] = v;
  return out;
}

/** Options an `_id` index spec may have. */
const ID_OPTIONS = new Set(['key', 'name', 'v', 'ns', 'collation', '_id']);

/** Index key plugins mongod knows. */
const PLUGINS = new Set(['2d', '2dsphere', 'text', 'hashed', 'geoHaystack']);

/** Most indexes a collection may have (`_id_` included). */
export const MAX_INDEXES = 64;

/** An error of `validateIndexSpec`, with createIndexes' context ("Error in specification …"). */
function specError(code: number | ErrorCodeName, spec: Document, why: string): CommandError {
  return new CommandError(code, `Error in specification ${formatValue(spec)} :: caused by :: ${why}`);
}

/** The spec as mongod prints it once `validateIndexSpec` has appended the default `v`. */
function withVersion(spec: Document): Document {
  return 'v' in spec ? spec : { ...spec, v: 2 };
}

function truthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (isNumber(v)) return toDouble(v) !== 0;
  return v !== undefined && v !== null;
}

/** validateKeyPattern (every error is 67 CannotCreateIndex). */
function checkKeyPattern(spec: Document, key: Document): void {
  const fields = Object.keys(key);
  const fail = (why: string): never => {
    throw specError('CannotCreateIndex', spec, why);
  };
  if (fields.length === 0) fail('Index keys cannot be empty.');
  const plugin = pluginName(key);
  if ((plugin as string) === 'geoHaystack') fail('GeoHaystack indexes cannot be created in version 5.0 and above');
  for (const value of Object.values(key)) {
    if (typeof value === 'string' && value !== '' && !PLUGINS.has(value)) fail(`Unknown index plugin '${value}'`);
  }
  for (const field of fields) {
    const value = key[field];
    if (isNumber(value)) {
      const d = toDouble(value);
      if (Number.isNaN(d)) fail('Values in the index key pattern cannot be NaN.');
      if (d === 0) fail('Values in the index key pattern cannot be 0.');
    } else if (typeof value !== 'string') {
      fail(`Values in v:2 index key pattern cannot be of type ${bsonTypeOf(value)}. Only numbers > 0, numbers < 0, and strings are allowed.`);
    }
    if (typeof value === 'string' && plugin !== value) fail("Can't use more than one index plugin for a single index.");
    if (field === '') fail('Index keys cannot be an empty field.');
    if (field === '$**' && (isNumber(value) || value === 'text')) continue;
    if (field === '_fts' && value !== 'text') fail("Index key contains an illegal field name: '_fts'");
    const parts = field.split('.');
    parts.forEach((part, i) => {
      if (part === '') fail('Index keys cannot contain an empty field.');
      if (part[0] !== '$') return;
      const dbRef = i !== 0 && (part === '$db' || part === '$id' || part === '$ref');
      const wildcard = i === parts.length - 1 && part === '$**' && plugin === 'wildcard';
      if (!dbRef && !wildcard) fail("Index key contains an illegal field name: field name starts with '$'.");
    });
    if (typeof value === 'string' && value === '') fail('Values in the index key pattern cannot be empty strings');
  }
  if (fields.length > 32) throw new CommandError(13103, 'too many compound keys');
}

/**
 * Checks one spec of `createIndexes` and returns it as the catalog stores it:
 * `{ v, key, name, ...options }` (booleans normalised, `hidden: false` dropped, the collation
 * spelled out or dropped when simple, text and 2dsphere fields filled in). A spec without a
 * collation gets the collection's `defaultCollation` (spelled out), as mongod does.
 */
export function normaliseIndexSpec(raw: unknown, defaultCollation: Document | null = null): Document {
  if (bsonTypeOf(raw) !== 'object') {
    throw new CommandError('TypeMismatch', `Expected an index specification object, found ${bsonTypeOf(raw)}`);
  }
  const spec = raw as Document;
  // validateIndexSpecFieldNames, then each field in order.
  for (const option of Object.keys(spec)) {
    if (!KNOWN_OPTIONS.has(option)) {
      throw specError('InvalidIndexSpecificationOption', spec, `The field '${option}' is not valid for an index specification. Specification: ${formatValue(spec)}`);
    }
  }
  for (const [option, value] of Object.entries(spec)) {
    switch (option) {
      case 'key': {
        if (bsonTypeOf(value) !== 'object') throw specError('TypeMismatch', spec, `The field 'key' must be an object, but got ${bsonTypeOf(value)}`);
        checkKeyPattern(spec, value as Document);
        break;
      }
      case 'name':
        if (typeof value !== 'string') throw specError('TypeMismatch', spec, `The field 'name' must be a string, but got ${bsonTypeOf(value)}`);
        break;
      case 'hidden':
        if (typeof value !== 'boolean') throw specError('TypeMismatch', spec, `The field 'hidden' must be a bool, but got ${bsonTypeOf(value)}`);
        break;
      case 'v': {
        if (!isNumber(value)) throw specError('TypeMismatch', spec, `The field 'v' must be a number, but got ${bsonTypeOf(value)}`);
        const v = toDouble(value);
        if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) {
          throw specError('BadValue', spec, `Index version must be representable as a 32-bit integer, but got ${formatValue(value)}`);
        }
        if (v !== 1 && v !== 2) throw specError('CannotCreateIndex', spec, `Invalid index specification ${formatValue(spec)}; cannot create an index with v=${v}`);
        break;
      }
      case 'collation':
        if (bsonTypeOf(value) !== 'object') throw specError('TypeMismatch', spec, `The field 'collation' must be an object, but got ${bsonTypeOf(value)}`);
        if (Object.keys(value as Document).length === 0) throw specError('BadValue', spec, "The field 'collation' cannot be an empty object.");
        break;
      case 'partialFilterExpression':
        if (bsonTypeOf(value) !== 'object') {
          throw specError('TypeMismatch', spec, `The field 'partialFilterExpression' must be an object, but got ${bsonTypeOf(value)}`);
        }
        try {
          refuseSpecialFeatures(value);
          compileFilter(value as Document, { whereAllowed: false });
        } catch (err) {
          if (err instanceof CommandError) throw specError(err.code, spec, err.message);
          throw err;
        }
        break;
      case 'weights':
        if (bsonTypeOf(value) !== 'object' && typeof value !== 'string' && !Array.isArray(value)) {
          throw specError('TypeMismatch', spec, `The field 'weights' must be an object, but got ${bsonTypeOf(value)}`);
        }
        break;
      case 'unique':
      case 'sparse':
      case 'background':
      case 'dropDups':
      case 'prepareUnique':
        if (typeof value !== 'boolean' && !isNumber(value)) {
          throw specError('TypeMismatch', spec, `The field '${option} has value ${option}: ${formatValue(value)}, which is not convertible to bool`);
        }
        break;
      case 'default_language':
      case 'language_override':
        if (typeof value !== 'string') throw specError('TypeMismatch', spec, `The field '${option}' must be a string, but got ${bsonTypeOf(value)}`);
        break;
      case '2dsphereIndexVersion':
      case 'textIndexVersion':
      case 'bits':
      case 'min':
      case 'max':
      case 'coarsestIndexedLevel':
      case 'finestIndexedLevel':
      case 'bucketSize':
        if (!isNumber(value)) throw specError('TypeMismatch', spec, `The field '${option}' must be a number, but got ${bsonTypeOf(value)}`);
        break;
      default:
        break;
    }
  }
  if (spec.key === undefined) throw specError('FailedToParse', spec, "The 'key' field is a required property of an index specification");
  if (spec.name === undefined) throw specError('FailedToParse', spec, "The 'name' field is a required property of an index specification");
  const key = spec.key as Document;
  const plugin = pluginName(key);
  const version = spec.v === undefined ? 2 : toDouble(spec.v);
  if (spec.collation !== undefined && version < 2) {
    throw specError('CannotCreateIndex', spec, `Invalid index specification ${formatValue(spec)}; cannot create an index with the 'collation' option and v=${version}`);
  }
  if (spec.weights !== undefined && plugin !== 'text') {
    throw specError('CannotCreateIndex', spec, `Invalid index specification ${formatValue(spec)}; the field 'weights' can only be specified with text indexes`);
  }
  if (truthy(spec.unique) && truthy(spec.prepareUnique)) {
    throw specError('CannotCreateIndex', spec, `Invalid index specification ${formatValue(spec)}; cannot create an index with the 'unique' option and the 'prepareUnique' option`);
  }

  const fields = Object.keys(key);
  const isIdIndex = fields.length === 1 && fields[0] === '_id' && plugin === '';
  if (isIdIndex) {
    // Quoted with `v` first, as the TTL tests of this project pin it.
    const full = 'v' in spec ? spec : { v: 2, ...spec };
    for (const option of Object.keys(full)) {
      if (!ID_OPTIONS.has(option)) {
        throw new CommandError('InvalidIndexSpecificationOption', `The field '${option}' is not valid for an _id index specification. Specification: ${formatValue(full)}`);
      }
    }
    if (!valuesEqual(key, { _id: 1 })) throw new CommandError('BadValue', `The field 'key' for an _id index must be {_id: 1}, but got ${formatValue(key)}`);
  } else if (spec.name === '*') {
    throw new CommandError('BadValue', "The index name '*' is not valid.");
  }

  // The collation, spelled out (validateIndexSpecCollation).
  let collation: Document | null = null;
  if (spec.collation !== undefined) {
    try {
      collation = normaliseCollation(spec.collation as Document);
    } catch (err) {
      if (err instanceof CommandError) {
        throw new CommandError(err.code, `failed to add collation information to index spec for index creation: ${formatValue(withVersion(spec))} :: caused by :: ${err.message}`);
      }
      throw err;
    }
  } else if (defaultCollation) {
    collation = defaultCollation;
  }

  // _isSpecOk.
  const okError = (why: string): CommandError => specError('CannotCreateIndex', withVersion(spec), why);
  const name = spec.name as string;
  if (name === '') throw okError('index name cannot be empty');
  if (name.includes('\0')) throw okError('index name cannot contain NUL bytes');
  if (collation && plugin !== '' && plugin !== '2dsphere' && plugin !== 'hashed' && plugin !== 'wildcard') {
    throw okError(`Index type '${plugin}' does not support collation: ${formatValue(collation)}`);
  }
  const wildcardError = wildcardSpecError(spec, plugin === 'wildcard', okError);
  if (wildcardError) throw wildcardError;
  if (plugin === 'wildcard') {
    if (truthy(spec.sparse)) throw okError("Index type 'wildcard' does not support the 'sparse' option");
    if (truthy(spec.unique)) throw okError("Index type 'wildcard' does not support the 'unique' option");
  }
  if (spec.partialFilterExpression !== undefined) {
    if (truthy(spec.sparse)) throw okError('cannot mix "partialFilterExpression" and "sparse" options');
    try {
      checkPartialFilter(spec.partialFilterExpression as Document);
    } catch (err) {
      if (err instanceof CommandError) throw specError(err.code, withVersion(spec), err.message);
      throw err;
    }
  }
  if (plugin === 'hashed') {
    const hashed = fields.filter((f) => key[f] === 'hashed').length;
    if (hashed > 1) {
      throw new CommandError(31303, `A maximum of one index field is allowed to be hashed but found ${hashed} for 'key' ${formatValue(key)}`);
    }
    if (truthy(spec.unique)) throw new CommandError(16764, 'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.');
  }

  // The stored spec.
  let out: Document = { v: version, key, name };
  for (const [option, value] of Object.entries(spec)) {
    if (option === 'v' || option === 'key' || option === 'name' || option === 'ns' || option === 'background' || option === 'collation') continue;
    if (option === 'hidden' && value === false) continue;
    if ((option === 'unique' || option === 'sparse' || option === 'dropDups' || option === 'prepareUnique') && typeof value !== 'boolean') {
      out[option] = truthy(value);
      continue;
    }
    out[option] = value;
  }
  if (collation) out.collation = collation;
  if (plugin === 'text') out = fixTextSpec(out);
  if (plugin === '2dsphere' || plugin === '2d') checkGeoIndexOptions(out, plugin);
  // mongod keeps a 2d index's range as doubles.
  if (plugin === '2d') for (const bound of ['min', 'max']) if (out[bound] !== undefined) out[bound] = doubleOf(toDouble(out[bound]));
  if (plugin === '2dsphere' && out['2dsphereIndexVersion'] === undefined) out['2dsphereIndexVersion'] = 3;
  return out;
}

/** How two specs relate (IndexDescriptor::compareIndexOptions). */
const Comparison = { different: 'different', equivalent: 'equivalent', identical: 'identical' } as const;
type Comparison = (typeof Comparison)[keyof typeof Comparison];

/** Options that do not make an index different or identical (checked apart, or ignored). */
const NOT_COMPARED = new Set([
  'key', 'ns', 'name', 'v', 'textIndexVersion', '2dsphereIndexVersion', 'background', 'dropDups', 'collation',
  'partialFilterExpression', 'unique', 'sparse', 'wildcardProjection',
]);

function isUnique(spec: Document): boolean {
  const key = spec.key as Document;
  const fields = Object.keys(key);
  return spec.unique === true || (fields.length === 1 && fields[0] === '_id' && pluginName(key) === '');
}

/** Same fields in the same order with equal values. */
function sameKey(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && valuesEqual(a[k], b[k]));
}

function compareSpecs(wanted: Document, existing: Document): Comparison {
  if (!sameKey(wanted.key as Document, existing.key as Document)) return Comparison.different;
  if (!valuesEqual(wanted.wildcardProjection ?? null, existing.wildcardProjection ?? null)) return Comparison.different;
  if (isUnique(wanted) !== isUnique(existing)) return Comparison.different;
  if ((wanted.sparse === true) !== (existing.sparse === true)) return Comparison.different;
  if (!sameCollation(wanted.collation, existing.collation)) return Comparison.different;
  if ((wanted.partialFilterExpression === undefined) !== (existing.partialFilterExpression === undefined)) return Comparison.different;
  if (wanted.partialFilterExpression !== undefined && !valuesEqual(wanted.partialFilterExpression, existing.partialFilterExpression)) {
    return Comparison.different;
  }
  const optionsOf = (spec: Document): Array<[string, unknown]> =>
    Object.entries(spec)
      .filter(([k]) => !NOT_COMPARED.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const a = optionsOf(wanted);
  const b = optionsOf(existing);
  const identical = a.length === b.length && a.every(([k, v], i) => k === b[i]![0] && valuesEqual(v, b[i]![1]));
  return identical ? Comparison.identical : Comparison.equivalent;
}

/** The outcome of comparing a requested spec with the existing ones. */
export type SpecMatch = { kind: 'new' } | { kind: 'exists' };

/** Compares `wanted` with `existing` specs; throws 85/86 on conflicts as mongod does. */
export function matchExistingIndex(wanted: Document, existing: Document[]): SpecMatch {
  const byName = existing.find((s) => s.name === wanted.name);
  if (byName) {
    const c = compareSpecs(wanted, byName);
    if (c === Comparison.different) {
      throw new CommandError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${formatValue(wanted)}, existing index: ${formatValue(byName)}`,
      );
    }
    if (c === Comparison.equivalent) {
      throw new CommandError(
        'IndexOptionsConflict',
        `An equivalent index already exists with the same name but different options. Requested index: ${formatValue(wanted)}, existing index: ${formatValue(byName)}`,
      );
    }
    return { kind: 'exists' };
  }
  for (const idx of existing) {
    const c = compareSpecs(wanted, idx);
    if (c === Comparison.different) continue;
    if (c === Comparison.equivalent) {
      throw new CommandError(
        'IndexOptionsConflict',
        `An equivalent index already exists with a different name and options. Requested index: ${formatValue(wanted)}, existing index: ${formatValue(idx)}`,
      );
    }
    throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${String(idx.name)}`);
  }
  return { kind: 'new' };
}

/** The checks after the conflict checks: at most 64 indexes, one text index per collection. */
export function checkIndexCapacity(wanted: Document, existing: Document[], ns: string): void {
  if (existing.length >= MAX_INDEXES) {
    throw new CommandError('CannotCreateIndex', `add index fails, too many indexes for ${ns} key:${formatValue(wanted.key)}`);
  }
  if (pluginName(wanted.key as Document) === 'text') {
    const text = existing.find((s) => pluginName(s.key as Document) === 'text');
    if (text) {
      throw new CommandError('CannotCreateIndex', `only one text index per collection allowed, found existing text index "${String(text.name)}"`);
    }
  }
}
