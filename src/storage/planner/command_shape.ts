/**
 * The query shape of a command (mongod's `query_shape::Shape`, query_shape/find_cmd_shape.cpp,
 * agg_cmd_shape.cpp, distinct_cmd_shape.cpp): what identifies a query once its literal values are
 * erased, the key of query settings (`setQuerySettings`, `$querySettings`) and explain's
 * `queryShapeHash`. Unlike the plan cache's shape (query_shape.ts), it keeps the order of the
 * filter's clauses and of the projection, the expressions of `$expr`, and the types `$type` asks
 * for; an `$in` list is one literal whatever its length. Literals become their debug type strings
 * (`'?number'`, `'?string'`, `'?array<?number>'`...), as `$querySettings`' `debugQueryShape` shows.
 */
import { createHash } from 'node:crypto';
import type { Document } from '../../bson/library.js';
import { BSON_TYPE_NAMES_BY_CODE, bsonTypeOf } from '../values/bson_type.js';
import { isDocument } from '../values/paths.js';

const NUMERIC = new Set(['int', 'long', 'double', 'decimal']);

/** The debug type string of a literal (`?number`, `?array<?string>`, `?object`...). */
export function literalShape(value: unknown): string {
  const type = bsonTypeOf(value);
  if (NUMERIC.has(type)) return '?number';
  if (type === 'array') {
    const inner = new Set((value as unknown[]).map((x) => literalShape(x)));
    return inner.size === 1 ? `?array<${[...inner][0]}>` : '?array<>';
  }
  return `?${type}`;
}

/** The shape of an aggregation expression: operators and field paths kept, literals erased. */
export function expressionShape(expr: unknown): unknown {
  if (typeof expr === 'string') return expr.startsWith('$') ? expr : literalShape(expr);
  if (Array.isArray(expr)) return expr.map(expressionShape);
  if (isDocument(expr)) {
    const keys = Object.keys(expr);
    if (keys.length === 1 && keys[0] === '$literal') return { $const: literalShape(expr.$literal) };
    const out: Document = {};
    for (const key of keys) out[key] = expressionShape(expr[key]);
    return out;
  }
  return { $const: literalShape(expr) };
}

/** The type names a `$type` argument asks for (aliases and codes alike, as names). */
function typeNames(arg: unknown): unknown[] {
  const list = Array.isArray(arg) ? arg : [arg];
  return list.map((t) => (typeof t === 'string' ? t : (BSON_TYPE_NAMES_BY_CODE.get(Number(t)) ?? String(t))));
}

/** The shape of the operators of one path (`{$gt: 1, $lt: 5}`) or of an implicit equality. */
function pathShape(value: unknown): unknown {
  if (!isDocument(value) || !Object.keys(value).some((k) => k.startsWith('$'))) return { $eq: literalShape(value) };
  const out: Document = {};
  for (const [op, arg] of Object.entries(value)) {
    switch (op) {
      case '$in':
      case '$nin':
        out[op] = literalShape(arg);
        break;
      case '$all':
        out[op] = Array.isArray(arg) ? arg.map((x) => (isDocument(x) && '$elemMatch' in x ? pathShape(x) : literalShape(x))) : literalShape(arg);
        break;
      case '$not':
        out[op] = isDocument(arg) ? pathShape(arg) : literalShape(arg);
        break;
      case '$elemMatch':
        out[op] = isDocument(arg) && Object.keys(arg).some((k) => k.startsWith('$') && !['$and', '$or', '$nor', '$expr', '$where'].includes(k))
          ? pathShape(arg)
          : filterShape(isDocument(arg) ? arg : {});
        break;
      case '$exists':
        out[op] = Boolean(arg === true || (typeof arg === 'number' && arg !== 0) || (arg !== false && arg !== null && arg !== undefined && typeof arg !== 'number'));
        break;
      case '$type':
        out[op] = typeNames(arg);
        break;
      case '$mod':
        out[op] = Array.isArray(arg) ? arg.map(literalShape) : literalShape(arg);
        break;
      case '$options':
        break;
      default:
        out[op] = literalShape(arg);
    }
  }
  return out;
}

/** The clauses of a filter, `$and`s flattened into their parent (mongod's optimised tree). */
function clauses(filter: Document, into: Document[]): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const child of value) if (isDocument(child)) clauses(child, into);
      continue;
    }
    into.push({ [key]: clauseShape(key, value) });
  }
}

function clauseShape(key: string, value: unknown): unknown {
  switch (key) {
    case '$or':
    case '$nor':
      return Array.isArray(value) ? value.map((child) => filterShape(isDocument(child) ? child : {})) : literalShape(value);
    case '$expr':
      return expressionShape(value);
    case '$jsonSchema':
      return value;
    case '$comment':
      return literalShape(value);
    default:
      return key.startsWith('$') ? expressionShape(value) : pathShape(value);
  }
}

/** The shape of a query filter: one clause as itself, several as an `$and` in their order. */
export function filterShape(filter: Document): Document {
  const list: Document[] = [];
  clauses(filter, list);
  if (list.length === 1) return list[0]!;
  if (list.length === 0) return {};
  return { $and: list };
}

/** The shape of a find projection: paths in order, inclusions and exclusions as booleans. */
export function projectionShape(projection: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(projection)) {
    if (isDocument(value)) out[key] = expressionShape(value);
    else if (typeof value === 'boolean' || typeof value === 'number' || (value !== null && typeof value === 'object' && bsonTypeOf(value) !== 'string')) {
      out[key] = !(value === false || Number(value) === 0);
    } else out[key] = expressionShape(value);
  }
  return out;
}

/** The shape of one stage of a pipeline: `$match`'s filter as a filter, the others erased. */
export function stageShape(stage: Document): Document {
  const name = Object.keys(stage)[0] ?? '';
  const spec = stage[name];
  if (name === '$match' && isDocument(spec)) return { $match: filterShape(spec) };
  if (name === '$sort') return { $sort: spec };
  if (name === '$limit' || name === '$skip') return { [name]: '?number' };
  if (name === '$project' && isDocument(spec)) return { $project: projectionShape(spec) };
  if ((name === '$lookup' || name === '$unionWith' || name === '$facet') && isDocument(spec)) {
    const out: Document = {};
    for (const [k, v] of Object.entries(spec)) {
      if (k === 'pipeline' && Array.isArray(v)) out[k] = v.map((s) => (isDocument(s) ? stageShape(s) : s));
      else if (name === '$facet' && Array.isArray(v)) out[k] = v.map((s) => (isDocument(s) ? stageShape(s) : s));
      else if (typeof v === 'string' || isDocument(v)) out[k] = v;
      else out[k] = expressionShape(v);
    }
    return { [name]: out };
  }
  if (typeof spec === 'string') return { [name]: spec.startsWith('$') ? spec : literalShape(spec) };
  return { [name]: stageSpecShape(spec) };
}

/** A stage specification other than the ones above: its field names kept, field paths kept, literals erased. */
function stageSpecShape(spec: unknown): unknown {
  if (isDocument(spec)) {
    const out: Document = {};
    for (const [k, v] of Object.entries(spec)) out[k] = typeof v === 'string' && !v.startsWith('$') ? v : stageSpecShape(v);
    return out;
  }
  return expressionShape(spec);
}

/** The namespace of a shape. */
export interface ShapeNamespace {
  readonly db: string;
  readonly coll: string;
}

/** A find command's shape (find_cmd_shape.cpp). */
export function findShape(ns: ShapeNamespace, cmd: Document): Document {
  const out: Document = { cmdNs: { db: ns.db, coll: ns.coll }, command: 'find', filter: filterShape(isDocument(cmd.filter) ? cmd.filter : {}) };
  if (isDocument(cmd.projection) && Object.keys(cmd.projection).length > 0) out.projection = projectionShape(cmd.projection);
  if (isDocument(cmd.sort) && Object.keys(cmd.sort).length > 0) out.sort = cmd.sort;
  if (isDocument(cmd.hint) && Object.keys(cmd.hint).length > 0) out.hint = cmd.hint;
  else if (typeof cmd.hint === 'string') out.hint = cmd.hint;
  if (isDocument(cmd.collation) && Object.keys(cmd.collation).length > 0) out.collation = cmd.collation;
  if (isDocument(cmd.let)) out.let = expressionShape(cmd.let);
  for (const key of ['skip', 'limit', 'maxTimeMS'] as const) if (cmd[key] !== undefined && cmd[key] !== null) out[key] = '?number';
  for (const key of ['singleBatch', 'allowDiskUse', 'returnKey', 'showRecordId', 'tailable', 'awaitData', 'noCursorTimeout', 'allowPartialResults'] as const) {
    if (typeof cmd[key] === 'boolean') out[key] = cmd[key];
  }
  if (isDocument(cmd.min)) out.min = expressionShape(cmd.min);
  if (isDocument(cmd.max)) out.max = expressionShape(cmd.max);
  return out;
}

/** An aggregate command's shape (agg_cmd_shape.cpp); `coll` null for `{aggregate: 1}`. */
export function aggregateShape(ns: { readonly db: string; readonly coll: string | null }, cmd: Document): Document {
  const pipeline = Array.isArray(cmd.pipeline) ? cmd.pipeline : [];
  const out: Document = {
    cmdNs: ns.coll === null ? { db: ns.db } : { db: ns.db, coll: ns.coll },
    command: 'aggregate',
    pipeline: pipeline.map((s) => (isDocument(s) ? stageShape(s) : s)),
  };
  if (isDocument(cmd.collation) && Object.keys(cmd.collation).length > 0) out.collation = cmd.collation;
  if (isDocument(cmd.hint) || typeof cmd.hint === 'string') out.hint = cmd.hint;
  if (isDocument(cmd.let)) out.let = expressionShape(cmd.let);
  if (typeof cmd.allowDiskUse === 'boolean') out.allowDiskUse = cmd.allowDiskUse;
  return out;
}

/** A distinct command's shape (distinct_cmd_shape.cpp). */
export function distinctShape(ns: ShapeNamespace, cmd: Document): Document {
  const out: Document = { cmdNs: { db: ns.db, coll: ns.coll }, command: 'distinct', key: cmd.key };
  if (isDocument(cmd.query) && Object.keys(cmd.query).length > 0) out.query = filterShape(cmd.query);
  if (isDocument(cmd.collation) && Object.keys(cmd.collation).length > 0) out.collation = cmd.collation;
  if (isDocument(cmd.hint) || typeof cmd.hint === 'string') out.hint = cmd.hint;
  return out;
}

/** A stable text of a shape: keys in their order, values tagged by type. */
function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (isDocument(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${canonicalText(v)}`).join(',')}}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `long(${value})`;
  if (value === undefined) return 'undefined';
  const type = bsonTypeOf(value);
  return `${type}(${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)})`;
}

/** The `queryShapeHash` of a shape: a SHA-256, 64 uppercase hex digits. */
export function queryShapeHash(shape: Document): string {
  return createHash('sha256').update(canonicalText(shape)).digest('hex').toUpperCase();
}
