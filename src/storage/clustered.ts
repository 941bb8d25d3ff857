/**
 * Clustered collections, as mongod 8.2 keeps them: created with
 * `clusteredIndex: { key: { _id: 1 }, unique: true, name?, v? }`, their documents ordered by
 * `_id` (natural order is `_id` order), the cluster key listed by listIndexes as
 * `{ v: 2, key: { _id: 1 }, name: '_id_', unique: true, clustered: true }` (with the collection's
 * `expireAfterSeconds` when it has one) and never dropped, hidden or duplicated by a second
 * `{_id: 1}` index. listCollections shows the spec under `options.clusteredIndex` and no
 * `idIndex`.
 *
 * Parsing follows the IDL struct `ClusteredIndexSpec` (clustered_collection_options.idl): `key`
 * an object and `unique` a safeBool, both required (null reads as missing, 40414), `name` a
 * string, `v` a safeInt (default 2); anything else 40415. The rules follow
 * `validateClusteredIndexSpec` (create_collection.cpp).
 * Sources: mongo/src/mongo/db/catalog/clustered_collection_util.cpp, create_collection.cpp.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from './values/bson_type.js';
import { compareValues } from './values/compare.js';
import { formatValue } from './values/format.js';
import { isNumber, safeNumberInt, toDouble } from './values/numeric.js';
import { isDocument } from './values/paths.js';
import { documentFields, type StoredDocument } from './record.js';

/** The `clusteredIndex` of a `create`, once parsed: `null` for `clusteredIndex: false`. */
export type ClusteredRequest = { legacy: true } | { legacy: false; spec: Document } | null;

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * Parses `create.clusteredIndex` (the IDL variant `safeBool | ClusteredIndexSpec`): a boolean or
 * a number is the legacy format (true) or no clustering (false); a document is a spec.
 */
export function parseClusteredIndex(value: unknown): ClusteredRequest {
  if (typeof value === 'boolean' || isNumber(value)) {
    const on = typeof value === 'boolean' ? value : toDouble(value) !== 0;
    return on ? { legacy: true } : null;
  }
  if (!isDocument(value)) {
    throw new CommandError('TypeMismatch', `BSON field 'create.clusteredIndex' is the wrong type '${bsonTypeOf(value)}', expected types '[bool, object']`);
  }
  const spec: Document = {};
  const path = 'create.clusteredIndex';
  for (const [field, v] of Object.entries(value)) {
    switch (field) {
      case 'key':
        if (!present(v)) break;
        if (!isDocument(v)) throw new CommandError('TypeMismatch', `BSON field '${path}.key' is the wrong type '${bsonTypeOf(v)}', expected type 'object'`);
        spec.key = v;
        break;
      case 'unique':
        if (!present(v)) break;
        if (typeof v !== 'boolean' && !isNumber(v)) {
          throw new CommandError('TypeMismatch', `BSON field '${path}.unique' is the wrong type '${bsonTypeOf(v)}', expected types '[bool, long, int, decimal, double']`);
        }
        spec.unique = typeof v === 'boolean' ? v : toDouble(v) !== 0;
        break;
      case 'name':
        if (!present(v)) break;
        if (typeof v !== 'string') throw new CommandError('TypeMismatch', `BSON field '${path}.name' is the wrong type '${bsonTypeOf(v)}', expected type 'string'`);
        spec.name = v;
        break;
      case 'v':
        if (!present(v)) break;
        if (!isNumber(v)) throw new CommandError('TypeMismatch', `BSON field '${path}.v' is the wrong type '${bsonTypeOf(v)}', expected types '[long, int, decimal, double']`);
        spec.v = safeNumberInt(v)!;
        break;
      default:
        throw new CommandError('IDLUnknownField', `BSON field '${path}.${field}' is an unknown field.`);
    }
  }
  for (const field of ['key', 'unique']) {
    if (!(field in spec)) throw new CommandError('IDLFailedToParse', `BSON field '${path}.${field}' is missing but a required field`);
  }
  return { legacy: false, spec };
}

/** The spec as stored and listed: `{ v, key, name, unique }` (the IDL's serialisation order). */
function canonicalSpec(spec: Document): Document {
  return { v: spec.v ?? 2, key: spec.key, name: spec.name ?? '_id_', unique: spec.unique };
}

/**
 * `validateClusteredIndexSpec`: unique required (5979700), the key `{_id: 1}` (197), then the
 * collection's TTL (`checkTtl`), then version 2 (5979704). Returns the spec to store.
 */
export function checkClusteredSpec(spec: Document, checkTtl: () => void = () => {}): Document {
  if (spec.unique !== true) throw new CommandError(5979700, 'The clusteredIndex option requires unique: true to be specified');
  const key = spec.key as Document;
  const keys = Object.keys(key);
  if (keys.length !== 1 || keys[0] !== '_id' || !isNumber(key._id) || toDouble(key._id) !== 1) {
    throw new CommandError('InvalidIndexSpecificationOption', 'The clusteredIndex option is only supported for key: {_id: 1}');
  }
  checkTtl();
  const out = canonicalSpec(spec);
  if (out.v !== 2) {
    throw new CommandError(5979704, `Invalid clusteredIndex specification ${formatValue(out)}; cannot create a clusteredIndex with v=${String(out.v)}`);
  }
  return out;
}

/** The clustered index spec of collection options, if the collection is clustered. */
export function clusteredSpecOf(options: Document): Document | undefined {
  return isDocument(options.clusteredIndex) ? options.clusteredIndex : undefined;
}

/** The cluster key as listIndexes shows it. */
export function clusteredIndexEntry(options: Document): Document {
  const spec = clusteredSpecOf(options)!;
  const out: Document = { ...spec };
  if (options.expireAfterSeconds !== undefined) out.expireAfterSeconds = options.expireAfterSeconds;
  out.clustered = true;
  return out;
}

/** True when `key` names the cluster key `{_id: <number>}` (mongod's `matchesClusterKey`). */
export function isClusterKey(key: Document): boolean {
  const keys = Object.keys(key);
  return keys.length === 1 && keys[0] === '_id' && isNumber(key._id);
}

/** Records in `_id` order (a clustered collection's natural order). */
export function clusteredOrder(records: Iterable<StoredDocument>): StoredDocument[] {
  const withIds = [...records].map((rec) => ({ rec, id: documentFields(rec, ['_id'])._id }));
  withIds.sort((a, b) => compareValues(a.id, b.id));
  return withIds.map((e) => e.rec);
}
