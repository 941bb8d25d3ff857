/**
 * What `setQuerySettings`, `removeQuerySettings`, the `$querySettings` stage and the queries
 * they govern share (mongod's query_settings/: query_settings_service.cpp, the IDL of
 * query_settings.idl): the cluster-wide table of query shape configurations (one per
 * `queryShapeHash`: its settings and the representative query it was set with), the parse of a
 * representative query or a hash, and the parse of a settings document. One table per server,
 * found from its services (a WeakMap: no shared file carries it).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { ServerServices } from '../../server/services.js';
import { aggregateShape, distinctShape, findShape, queryShapeHash } from '../../storage/planner/command_shape.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isDocument } from '../../storage/values/paths.js';
import { typeMismatch } from '../idl_errors.js';

/** One query shape's configuration (`QueryShapeConfiguration`). */
export interface QueryShapeConfiguration {
  readonly queryShapeHash: string;
  settings: Document;
  /** The query the settings were set with (absent when set by hash). */
  representativeQuery?: Document;
  /** Its shape, as `$querySettings` shows it with `showDebugQueryShape`. */
  debugQueryShape?: Document;
}

const TABLES = new WeakMap<ServerServices, Map<string, QueryShapeConfiguration>>();

/** The query shape configurations of `server`, by hash, in the order they were first set. */
export function querySettingsTable(server: ServerServices): Map<string, QueryShapeConfiguration> {
  let table = TABLES.get(server);
  if (table === undefined) {
    table = new Map();
    TABLES.set(server, table);
  }
  return table;
}

/** What the first argument of `setQuerySettings` / `removeQuerySettings` names. */
export interface QueryShapeTarget {
  readonly hash: string;
  /** The representative query and its shape, when the argument was a query. */
  readonly query?: Document;
  readonly shape?: Document;
}

const INTERNAL_DBS = new Set(['admin', 'local', 'config']);

/** The shape of a representative query (a find, an aggregate or a distinct with its `$db`). */
export function representativeShape(query: Document): Document {
  const command = Object.keys(query)[0];
  if (command !== 'find' && command !== 'aggregate' && command !== 'distinct') {
    throw new CommandError(7746402, `QueryShape can not be computed for command: ${JSON.stringify(query)}`);
  }
  const db = query.$db;
  if (db === undefined || db === null) throw new CommandError('IDLFailedToParse', "BSON field '$db' is missing but a required field");
  if (typeof db !== 'string') throw typeMismatch('$db', db, ['string']);
  if (db === '' || db.includes('.') || db.includes('\0')) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}'`);
  const target = query[command];
  if (command === 'aggregate' && (typeof target === 'number' || bsonTypeOf(target) === 'int' || bsonTypeOf(target) === 'long' || bsonTypeOf(target) === 'double')) {
    return aggregateShape({ db, coll: null }, query);
  }
  if (typeof target !== 'string') throw typeMismatch(command, target, ['string']);
  if (target === '') throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}.'`);
  if (command === 'find') {
    if (query.filter !== undefined && query.filter !== null && !isDocument(query.filter)) throw typeMismatch('filter', query.filter, ['object']);
    return findShape({ db, coll: target }, query);
  }
  if (command === 'distinct') {
    if (typeof query.key !== 'string') {
      if (query.key === undefined || query.key === null) throw new CommandError('IDLFailedToParse', "BSON field 'distinct.key' is missing but a required field");
      throw typeMismatch('distinct.key', query.key, ['string']);
    }
    return distinctShape({ db, coll: target }, query);
  }
  if (!Array.isArray(query.pipeline)) {
    if (query.pipeline === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'aggregate.pipeline' is missing but a required field");
    throw typeMismatch('aggregate.pipeline', query.pipeline, ['array']);
  }
  return aggregateShape({ db, coll: target }, query);
}

/** True when a find of `query` is eligible for IDHACK (a lone `_id` equality on a scalar, no other option). */
function isIdHack(query: Document): boolean {
  if (Object.keys(query)[0] !== 'find' || !isDocument(query.filter)) return false;
  const keys = Object.keys(query.filter);
  if (keys.length !== 1 || keys[0] !== '_id') return false;
  const id = query.filter._id;
  if (isDocument(id) && Object.keys(id).some((k) => k.startsWith('$'))) {
    const ops = Object.keys(id);
    if (ops.length !== 1 || ops[0] !== '$eq' || isDocument(id.$eq) || Array.isArray(id.$eq)) return false;
  } else if (Array.isArray(id) || bsonTypeOf(id) === 'regex' || bsonTypeOf(id) === 'null') return false;
  for (const key of Object.keys(query)) {
    if (!['find', 'filter', '$db', 'projection', 'comment', 'lsid', 'readConcern'].includes(key)) return false;
  }
  return query.collation === undefined;
}

/**
 * Parses the first argument of `setQuerySettings` / `removeQuerySettings` (`name`): a query
 * (its shape hashed) or a 64-digit hexadecimal `queryShapeHash`; `forSet` checks what
 * `setQuerySettings` refuses (internal databases, system collections, IDHACK queries).
 */
export function parseShapeTarget(name: string, value: unknown, forSet: boolean): QueryShapeTarget {
  if (typeof value === 'string') {
    if (!/^[0-9a-fA-F]*$/.test(value)) throw new CommandError('BadValue', `Failed to parse a query shape hash: '${value}' is not a hexadecimal string`);
    if (value.length !== 64) throw new CommandError('InvalidLength', `Failed to parse a query shape hash: expected 64 hexadecimal digits, got ${value.length}`);
    return { hash: value.toUpperCase() };
  }
  if (!isDocument(value)) throw typeMismatch(name, value, ['string', 'object']);
  const shape = representativeShape(value);
  const ns = shape.cmdNs as { db: string; coll?: string };
  if (forSet) {
    if (INTERNAL_DBS.has(ns.db)) throw new CommandError(8584900, 'setQuerySettings command cannot be used on internal databases');
    if (ns.coll?.startsWith('system.')) throw new CommandError(8584901, 'setQuerySettings command cannot be used on system collections');
    if (isIdHack(value)) throw new CommandError(7746606, 'setQuerySettings command cannot be used on find queries eligible for IDHACK');
  }
  return { hash: queryShapeHash(shape), query: value, shape };
}

const SETTINGS_FIELDS = ['indexHints', 'queryFramework', 'reject', 'comment'] as const;

/** One index hint spec `{ns: {db, coll}, allowedIndexes: [name | key pattern, ...]}`, checked. */
function parseIndexHint(spec: unknown, path: string): Document {
  if (!isDocument(spec)) throw typeMismatch(path, spec, ['object']);
  for (const key of Object.keys(spec)) {
    if (key !== 'ns' && key !== 'allowedIndexes') throw new CommandError('IDLUnknownField', `BSON field '${path}.${key}' is an unknown field.`);
  }
  const ns = spec.ns;
  if (ns === undefined) throw new CommandError('IDLFailedToParse', `BSON field '${path}.ns' is missing but a required field`);
  if (!isDocument(ns)) throw typeMismatch(`${path}.ns`, ns, ['object']);
  for (const key of Object.keys(ns)) {
    if (key !== 'db' && key !== 'coll') throw new CommandError('IDLUnknownField', `BSON field '${path}.ns.${key}' is an unknown field.`);
  }
  for (const key of ['db', 'coll'] as const) {
    const v = ns[key];
    if (v !== undefined && v !== null && typeof v !== 'string') throw typeMismatch(`${path}.ns.${key}`, v, ['string']);
  }
  const allowed = spec.allowedIndexes;
  if (allowed === undefined || allowed === null) throw new CommandError('IDLFailedToParse', `BSON field '${path}.allowedIndexes' is missing but a required field`);
  if (!Array.isArray(allowed)) throw typeMismatch(`${path}.allowedIndexes`, allowed, ['array']);
  allowed.forEach((index, i) => {
    if (typeof index !== 'string' && !isDocument(index)) throw new CommandError('FailedToParse', `invalid index hint '${path}.allowedIndexes.${i}': must be an index name or a key pattern`);
  });
  if (ns.db === undefined || ns.db === null) throw new CommandError(8727500, "invalid index hint: 'ns.db' field is missing");
  if (ns.coll === undefined || ns.coll === null) throw new CommandError(8727501, "invalid index hint: 'ns.coll' field is missing");
  return { ns: { db: ns.db, coll: ns.coll }, allowedIndexes: [...allowed] };
}

/** Parses a `settings` document (`QuerySettings`: `indexHints`, `queryFramework`, `reject`, `comment`). */
export function parseSettings(value: unknown): Document {
  if (!isDocument(value)) throw typeMismatch('settings', value, ['object']);
  if (Object.keys(value).length === 0) throw new CommandError(8727502, 'settings field in setQuerySettings command cannot be empty');
  const out: Document = {};
  for (const [key, v] of Object.entries(value)) {
    if (!(SETTINGS_FIELDS as readonly string[]).includes(key)) throw new CommandError('IDLUnknownField', `BSON field 'settings.${key}' is an unknown field.`);
    switch (key) {
      case 'indexHints': {
        const list = Array.isArray(v) ? v : [v];
        const hints = list.map((h, i) => parseIndexHint(h, Array.isArray(v) ? `settings.indexHints.${i}` : 'settings.indexHints'));
        const seen = new Set<string>();
        for (const h of hints) {
          const ns = h.ns as { db: string; coll: string };
          const id = `${ns.db}.${ns.coll}`;
          if (seen.has(id)) throw new CommandError(7746608, `Collection '${JSON.stringify(h)}' has already index hints specified`);
          seen.add(id);
        }
        out.indexHints = hints;
        break;
      }
      case 'queryFramework':
        if (typeof v !== 'string') throw typeMismatch('settings.queryFramework', v, ['string']);
        if (v !== 'classic' && v !== 'sbe') throw new CommandError('BadValue', `Enumeration value '${v}' for field 'settings.queryFramework' is not a valid value.`);
        out.queryFramework = v;
        break;
      case 'reject':
        if (typeof v !== 'boolean') throw typeMismatch('settings.reject', v, ['bool']);
        out.reject = v;
        break;
      case 'comment':
        out.comment = v;
        break;
    }
  }
  return out;
}

/** `settings` merged over `base` (setQuerySettings merges into what is set), then simplified; 7746604 when only defaults remain. */
export function mergeSettings(base: Document | undefined, settings: Document): Document {
  const merged: Document = { ...(base ?? {}), ...settings };
  if (merged.reject === false) delete merged.reject;
  if (Array.isArray(merged.indexHints)) {
    const hints = (merged.indexHints as Document[]).filter((h) => (h.allowedIndexes as unknown[]).length > 0);
    if (hints.length === 0) delete merged.indexHints;
    else merged.indexHints = hints;
  }
  if (merged.indexHints === undefined && merged.queryFramework === undefined && merged.reject === undefined) {
    throw new CommandError(7746604, 'the resulting settings cannot be empty or contain only default values');
  }
  const out: Document = {};
  for (const key of SETTINGS_FIELDS) if (merged[key] !== undefined) out[key] = merged[key];
  return out;
}

/** True when any query settings are set on `server` (the queries' fast paths then step aside). */
export function hasQuerySettings(server: ServerServices): boolean {
  return (TABLES.get(server)?.size ?? 0) > 0;
}

/**
 * Fails the query whose shape `shape` gives when its settings reject it (QueryRejectedBySettings);
 * explain is never rejected. Queries on internal databases and system collections have no
 * settings. The shape is computed only when some settings are set.
 */
export function checkNotRejected(server: ServerServices, shape: () => Document): void {
  const table = TABLES.get(server);
  if (table === undefined || table.size === 0) return;
  const computed = shape();
  const ns = computed.cmdNs as { db: string; coll?: string };
  if (INTERNAL_DBS.has(ns.db) || ns.coll?.startsWith('system.')) return;
  const config = table.get(queryShapeHash(computed));
  if (config?.settings.reject === true) throw new CommandError('QueryRejectedBySettings', 'Query rejected by admin query settings');
}

/** The configurations as `$querySettings` reads them (`debugQueryShape` where a query gave one). */
export function listQuerySettings(server: ServerServices): Document[] {
  const table = TABLES.get(server);
  if (table === undefined) return [];
  return [...table.values()].map((config) => {
    const out: Document = { queryShapeHash: config.queryShapeHash, settings: config.settings };
    if (config.representativeQuery !== undefined) out.representativeQuery = config.representativeQuery;
    if (config.debugQueryShape !== undefined) out.debugQueryShape = config.debugQueryShape;
    return out;
  });
}
