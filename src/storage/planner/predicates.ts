/**
 * What the planner reads from a filter: its top-level conjuncts (`$and` flattened), each leaf
 * predicate on a path with the index bounds it allows (`index_bounds_builder.cpp` rules:
 * equality and `$in` as points, type-bracketed ranges, `$ne`/`$nin`/`$not` as complements,
 * regex prefixes, `$exists`, `$elemMatch` on values), whether those bounds are exact (the
 * predicate needs no re-check for explain's residual filter), and whether a document missing the
 * path could match (sparse and partial index eligibility).
 *
 * It also renders the normalised filter explain shows as `parsedQuery` (`{a: {$eq: 1}}`,
 * conjuncts sorted by kind then path, `$ne` as `$not: {$eq}`), after mongod's MatchExpression
 * serialisation. The filter has already been validated by the query compiler.
 *
 * Under a query collation, bounds are built (and `$in` lists sorted and de-duplicated) in the
 * collation's order, and each predicate says whether its bounds depend on the collation (they
 * hold strings, documents or arrays: usable only on an index with the query's collation) or on
 * binary string order (regex prefixes: usable only on an index without a collation).
 */
import { BSONRegExp, type Document } from '../../bson/library.js';
import { isNumber, toDouble, isNaNNumber } from '../values/numeric.js';
import type { Collator } from '../values/collator.js';
import { compareValues, isCollatable } from '../values/compare.js';
import { isDocument } from '../values/paths.js';
import { isRegexValue, regexSource } from '../query/operators/comparison.js';
import { plainEqualityField } from '../query/compile_filter.js';
import {
  ALL_VALUES,
  NO_VALUES,
  complement,
  intersect,
  point,
  typeBracket,
  union,
  type Interval,
  type IntervalList,
  type ValueComparator,
} from './intervals.js';

/** A leaf predicate on one path. */
export interface PathPredicate {
  readonly path: string;
  /** The operator (`$eq` for implicit equality, `$regex` for a regex value). */
  readonly op: string;
  readonly value: unknown;
  /** The normalised predicate as parsedQuery shows it. */
  readonly display: Document;
  /** mongod's MatchType order of this predicate (sorting in parsedQuery). */
  readonly kind: number;
  /** The values an index on `path` needs to scan; null when the predicate cannot use bounds. */
  readonly bounds: IntervalList | null;
  /** True when a key inside `bounds` satisfies the predicate (no FETCH re-check needed). */
  readonly exact: boolean;
  /** True when a document without `path` can match. */
  readonly matchesMissing: boolean;
  /** True when the bounds hold values a collation orders (strings, documents, arrays). */
  readonly collatable: boolean;
  /** True when the bounds assume binary string order (regex prefixes). */
  readonly binaryOnly: boolean;
}

/** A filter's top level, as the planner sees it. */
export interface FilterAnalysis {
  /** Leaf predicates of the top-level conjunction. */
  readonly predicates: PathPredicate[];
  /** Other top-level conjuncts (`$or`, `$nor`, `$expr`, …), normalised for display, with their kind. */
  readonly others: Array<{ display: Document; kind: number; path: string }>;
  /** The branches of a top-level `$or` (two or more), when there is exactly one. */
  readonly orBranches: Document[] | null;
  /** The query's collation (null: simple), which built the bounds. */
  readonly collator: Collator | null;
}

// mongod's MatchExpression::MatchType order (expression.h), which parsedQuery sorts by.
const KIND = {
  and: 0,
  or: 1,
  elemMatchObject: 2,
  elemMatchValue: 3,
  size: 4,
  eq: 5,
  lte: 6,
  lt: 7,
  gt: 8,
  gte: 9,
  regex: 10,
  mod: 11,
  exists: 12,
  in: 13,
  bitsAllSet: 14,
  bitsAllClear: 15,
  bitsAnySet: 16,
  bitsAnyClear: 17,
  not: 18,
  nor: 19,
  type: 20,
  geo: 21,
  where: 22,
  expr: 23,
  alwaysFalse: 24,
  alwaysTrue: 25,
  other: 30,
} as const;

const OP_KIND: Readonly<Record<string, number>> = {
  $eq: KIND.eq,
  $lte: KIND.lte,
  $lt: KIND.lt,
  $gt: KIND.gt,
  $gte: KIND.gte,
  $regex: KIND.regex,
  $mod: KIND.mod,
  $exists: KIND.exists,
  $in: KIND.in,
  $bitsAllSet: KIND.bitsAllSet,
  $bitsAllClear: KIND.bitsAllClear,
  $bitsAnySet: KIND.bitsAnySet,
  $bitsAnyClear: KIND.bitsAnyClear,
  $ne: KIND.not,
  $nin: KIND.not,
  $not: KIND.not,
  $type: KIND.type,
  $size: KIND.size,
  $all: KIND.and,
};

/** The value order of bounds under `collator` (null or absent: `compareValues`). */
export function boundsOrder(collator?: Collator | null): ValueComparator {
  return collator ? (a, b) => compareValues(a, b, collator) : compareValues;
}

/** Splits a filter into its top-level conjuncts (bounds in the order of the query's `collator`). */
export function analyzeFilter(filter: Document, collator?: Collator | null): FilterAnalysis {
  const cmp = boundsOrder(collator);
  const plain = plainEqualityField(filter);
  // `{field: value}`: the one predicate the walk below would find.
  if (plain !== undefined) {
    return { predicates: [equalityPredicate(plain, filter[plain], '$eq', cmp)], others: [], orBranches: null, collator: collator ?? null };
  }
  const predicates: PathPredicate[] = [];
  const others: Array<{ display: Document; kind: number; path: string }> = [];
  let orBranches: Document[] | null = null;
  let orCount = 0;
  const visit = (doc: Document): void => {
    for (const key of Object.keys(doc)) {
      const value = doc[key];
      if (key === '$and' && Array.isArray(value)) {
        for (const sub of value) if (isDocument(sub)) visit(sub);
        continue;
      }
      if (key === '$or' && Array.isArray(value)) {
        const branches = value.filter(isDocument);
        if (branches.length === 1) {
          visit(branches[0]!);
          continue;
        }
        orCount++;
        orBranches = branches;
        others.push({ display: { $or: branches.map((b) => normaliseFilter(b, collator)) }, kind: KIND.or, path: '' });
        continue;
      }
      if (key.startsWith('$')) {
        others.push({ display: otherDisplay(key, value, collator), kind: otherKind(key), path: '' });
        continue;
      }
      predicates.push(...pathPredicates(key, value, cmp));
    }
  };
  visit(filter);
  return { predicates, others, orBranches: orCount === 1 ? orBranches : null, collator: collator ?? null };
}

function otherKind(op: string): number {
  switch (op) {
    case '$nor':
      return KIND.nor;
    case '$where':
      return KIND.where;
    case '$expr':
      return KIND.expr;
    case '$alwaysFalse':
      return KIND.alwaysFalse;
    case '$alwaysTrue':
      return KIND.alwaysTrue;
    default:
      return KIND.other;
  }
}

function otherDisplay(op: string, value: unknown, collator?: Collator | null): Document {
  if (op === '$nor' && Array.isArray(value)) return { $nor: value.filter(isDocument).map((b) => normaliseFilter(b, collator)) };
  return { [op]: value };
}

/** The leaf predicates `{path: value}` stands for. */
function pathPredicates(path: string, value: unknown, cmp: ValueComparator): PathPredicate[] {
  if (isDocument(value)) {
    const ops = Object.keys(value);
    if (ops.length > 0 && ops[0]!.startsWith('$') && !isDbRefLike(value)) {
      const out: PathPredicate[] = [];
      for (const op of ops) {
        if (op === '$options') continue;
        if (op === '$regex') {
          out.push(regexPredicate(path, value.$regex, typeof value.$options === 'string' ? value.$options : undefined));
          continue;
        }
        out.push(operatorPredicate(path, op, value[op], cmp));
      }
      return out;
    }
  }
  if (isRegexValue(value)) return [regexPredicate(path, value, undefined)];
  return [equalityPredicate(path, value, '$eq', cmp)];
}

const NEVER_COLLATED = new Set(['$exists', '$type', '$size', '$mod', '$bitsAllSet', '$bitsAllClear', '$bitsAnySet', '$bitsAnyClear', '$regex', '$options']);

/** True when the operand of `op` holds values a collation orders (mongod's collation-compatibility rule). */
function collatableOperand(op: string, v: unknown): boolean {
  if (NEVER_COLLATED.has(op) || isRegexValue(v)) return false;
  switch (op) {
    case '$in':
    case '$nin':
    case '$all':
      return Array.isArray(v) && v.some((x) => !isRegexValue(x) && isCollatable(x));
    case '$elemMatch':
    case '$not':
      return isDocument(v) && Object.keys(v).some((k) => !k.startsWith('$') || collatableOperand(k, v[k]));
    default:
      return isCollatable(v);
  }
}

/** True when the operand of `op` holds a regex (bounds in binary string order). */
function regexOperand(op: string, v: unknown): boolean {
  if (op === '$regex' || isRegexValue(v)) return true;
  if (Array.isArray(v)) return v.some(isRegexValue);
  if (isDocument(v) && (op === '$elemMatch' || op === '$not')) return Object.keys(v).some((k) => k.startsWith('$') && regexOperand(k, v[k]));
  return false;
}

function isDbRefLike(v: Document): boolean {
  const first = Object.keys(v)[0];
  return first === '$ref' || first === '$id' || first === '$db';
}

function make(path: string, op: string, value: unknown, display: Document, bounds: IntervalList | null, exact: boolean, matchesMissing: boolean, kind?: number): PathPredicate {
  const collatable = collatableOperand(op, value);
  const binaryOnly = regexOperand(op, value);
  return { path, op, value, display, kind: kind ?? OP_KIND[op] ?? KIND.other, bounds, exact, matchesMissing, collatable, binaryOnly };
}

/** Bounds and exactness of an equality with `v` (also one `$in` element). */
function equalityBounds(v: unknown, cmp: ValueComparator): { bounds: IntervalList; exact: boolean } {
  if (v === null) return { bounds: [point(undefined), point(null)], exact: false };
  if (Array.isArray(v)) {
    const first = v.length === 0 ? point(undefined) : point(v[0]);
    return { bounds: union([[first], [point(v)]], cmp), exact: false };
  }
  if (isRegexValue(v)) return { bounds: regexBounds(v), exact: false };
  if (v === undefined) return { bounds: ALL_VALUES, exact: false };
  return { bounds: [point(v)], exact: true };
}

function equalityPredicate(path: string, v: unknown, op: '$eq', cmp: ValueComparator): PathPredicate {
  const { bounds, exact } = equalityBounds(v, cmp);
  return make(path, op, v, { [path]: { $eq: v } }, bounds, exact, v === null);
}

function regexPredicate(path: string, re: unknown, options: string | undefined): PathPredicate {
  let pattern: string;
  let flags: string;
  if (isRegexValue(re)) {
    [pattern, flags] = regexSource(re);
    if (options !== undefined) flags = options;
  } else {
    pattern = String(re);
    flags = options ?? '';
  }
  const value = new BSONRegExp(pattern, flags);
  // parsedQuery shows a regex predicate as the regex value itself: `{ a: /^x/ }`.
  return make(path, '$regex', value, { [path]: value }, regexBounds(value), false, false);
}

/** Bounds of a regex: a string prefix range when anchored and case-sensitive, else all strings; plus the regex itself. */
function regexBounds(re: unknown): IntervalList {
  const [pattern, flags] = regexSource(re);
  const self = point(re);
  const prefix = simplePrefix(pattern, flags);
  if (prefix === null || prefix === '') {
    return union([[{ start: '', startInclusive: true, end: {}, endInclusive: false }], [self]]);
  }
  const last = prefix.charCodeAt(prefix.length - 1);
  const range: Interval =
    last < 0xd7ff
      ? { start: prefix, startInclusive: true, end: prefix.slice(0, -1) + String.fromCharCode(last + 1), endInclusive: false }
      : { start: prefix, startInclusive: true, end: {}, endInclusive: false };
  return union([[range], [self]]);
}

/** The literal prefix of an anchored regex (`/^abc/` → "abc"), or null when it has none. */
function simplePrefix(pattern: string, flags: string): string | null {
  if (flags.includes('i')) return null;
  let i: number;
  if (pattern.startsWith('\\A')) i = 2;
  else if (pattern.startsWith('^') && !flags.includes('m')) i = 1;
  else return null;
  if (pattern.includes('|')) return null;
  let out = '';
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break;
      out += next;
      i++;
      continue;
    }
    if ('*?+{'.includes(c)) {
      out = out.slice(0, -1);
      break;
    }
    if ('^$.[()|'.includes(c)) break;
    if (flags.includes('x') && /\s|#/.test(c)) break;
    out += c;
  }
  return out;
}

/** Bounds of `$gt/$gte/$lt/$lte: v` (type-bracketed). */
function comparisonBounds(op: string, v: unknown): { bounds: IntervalList; exact: boolean } {
  if (v === null) {
    if (op === '$gte' || op === '$lte') return { bounds: [point(undefined), point(null)], exact: false };
    return { bounds: ALL_VALUES, exact: false };
  }
  if (isNaNNumber(v)) {
    if (op === '$gte' || op === '$lte') return { bounds: [point(v)], exact: true };
    return { bounds: NO_VALUES, exact: true };
  }
  const bracket = typeBracket(v);
  if (!bracket || Array.isArray(v) || isRegexValue(v)) return { bounds: ALL_VALUES, exact: false };
  let interval: Interval;
  switch (op) {
    case '$gt':
      interval = { start: v, startInclusive: false, end: bracket.end, endInclusive: bracket.endInclusive };
      break;
    case '$gte':
      interval = { start: v, startInclusive: true, end: bracket.end, endInclusive: bracket.endInclusive };
      break;
    case '$lt':
      interval = { start: bracket.start, startInclusive: bracket.startInclusive, end: v, endInclusive: false };
      break;
    default:
      interval = { start: bracket.start, startInclusive: bracket.startInclusive, end: v, endInclusive: true };
      break;
  }
  return { bounds: union([[interval]]), exact: true };
}

/** A value a complement can be taken around (a scalar whose equality bounds are exact). */
function complementable(v: unknown): boolean {
  return v !== null && v !== undefined && !Array.isArray(v) && !isRegexValue(v) && !isDocumentOperand(v);
}

function isDocumentOperand(v: unknown): boolean {
  return isDocument(v);
}

function operatorPredicate(path: string, op: string, v: unknown, cmp: ValueComparator): PathPredicate {
  switch (op) {
    case '$eq':
      return equalityPredicate(path, v, '$eq', cmp);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const { bounds, exact } = comparisonBounds(op, v);
      const missing = v === null && (op === '$gte' || op === '$lte');
      return make(path, op, v, { [path]: { [op]: v } }, bounds, exact, missing);
    }
    case '$in': {
      const values = Array.isArray(v) ? v : [];
      const parts = values.map((x) => equalityBounds(x, cmp));
      const bounds = union(parts.map((p) => p.bounds), cmp);
      const exact = parts.every((p) => p.exact);
      const display = inDisplay(path, values, cmp);
      return make(path, '$in', v, display, bounds, exact, values.some((x) => x === null), display[path] && (display[path] as Document).$eq !== undefined ? KIND.eq : KIND.in);
    }
    case '$ne': {
      const bounds = v === null ? complement([point(null)], cmp) : complementable(v) ? complement([point(v)], cmp) : null;
      return make(path, '$ne', v, { [path]: { $not: { $eq: v } } }, bounds, false, v !== null);
    }
    case '$nin': {
      const values = Array.isArray(v) ? v : [];
      const ok = values.every((x) => x === null || complementable(x));
      const bounds = ok ? complement(union(values.map((x) => [point(x)]), cmp), cmp) : null;
      return make(path, '$nin', v, { [path]: { $not: inDisplay(path, values, cmp)[path] } }, bounds, false, !values.some((x) => x === null));
    }
    case '$exists': {
      const truthy = v !== false && v !== null && v !== undefined && !(isNumber(v) && toDouble(v) === 0);
      if (truthy) return make(path, '$exists', v, { [path]: { $exists: true } }, ALL_VALUES, false, false);
      return make(path, '$exists', v, { [path]: { $not: { $exists: true } } }, [point(null)], false, true, KIND.not);
    }
    case '$not': {
      const inner = isDocument(v) ? pathPredicates(path, v, cmp) : [regexPredicate(path, v, undefined)];
      const innerDisplay = inner.length === 1 ? (inner[0]!.display[path] as unknown) : { $and: inner.map((p) => p.display) };
      let bounds: IntervalList | null = null;
      if (inner.length === 1 && inner[0]!.exact && inner[0]!.bounds && inner[0]!.op !== '$regex') bounds = complement(inner[0]!.bounds, cmp);
      return make(path, '$not', v, { [path]: { $not: innerDisplay } }, bounds, false, true);
    }
    case '$elemMatch': {
      if (isDocument(v)) {
        const keys = Object.keys(v);
        if (keys.length > 0 && keys.every((k) => k.startsWith('$') && k !== '$and' && k !== '$or' && k !== '$nor' && k !== '$expr' && k !== '$where')) {
          const inner = pathPredicates(path, v, cmp);
          let bounds: IntervalList = ALL_VALUES;
          for (const p of inner) if (p.bounds) bounds = intersect(bounds, p.bounds, cmp);
          return make(path, '$elemMatch', v, { [path]: { $elemMatch: v } }, bounds, false, false, KIND.elemMatchValue);
        }
      }
      return make(path, '$elemMatch', v, { [path]: { $elemMatch: v } }, null, false, false, KIND.elemMatchObject);
    }
    case '$all': {
      const values = Array.isArray(v) ? v : [];
      const first = values.find((x) => !(isDocument(x) && '$elemMatch' in x));
      const bounds = first === undefined ? null : equalityBounds(first, cmp).bounds;
      return make(path, '$all', v, { [path]: { $all: v } }, bounds, false, false);
    }
    case '$size':
    case '$mod':
    case '$type':
    case '$bitsAllSet':
    case '$bitsAllClear':
    case '$bitsAnySet':
    case '$bitsAnyClear':
      return make(path, op, v, { [path]: { [op]: v } }, null, false, false);
    default:
      return make(path, op, v, { [path]: { [op]: v } }, null, false, true);
  }
}

/** `$in` as parsedQuery shows it: values sorted and de-duplicated (under the collation); one value becomes `$eq`. */
function inDisplay(path: string, values: readonly unknown[], cmp: ValueComparator): Document {
  const sorted = [...values].sort(cmp);
  const unique: unknown[] = [];
  for (const v of sorted) if (unique.length === 0 || cmp(unique[unique.length - 1], v) !== 0 || isRegexValue(v)) unique.push(v);
  if (unique.length === 1 && !isRegexValue(unique[0])) return { [path]: { $eq: unique[0] } };
  return { [path]: { $in: unique } };
}

/** The filter as explain's `parsedQuery` shows it (`$in` lists in the order of `collator`). */
export function normaliseFilter(filter: Document, collator?: Collator | null): Document {
  const analysis = analyzeFilter(filter, collator);
  const items: Array<{ display: Document; kind: number; path: string }> = [
    ...analysis.predicates.map((p) => ({ display: p.display, kind: p.kind, path: p.path })),
    ...analysis.others,
  ];
  return combine(items);
}

/** One conjunct, or `$and` of the conjuncts sorted as mongod sorts them (kind, then path). */
export function combine(items: Array<{ display: Document; kind: number; path: string }>): Document {
  if (items.length === 0) return {};
  if (items.length === 1) return items[0]!.display;
  const sorted = [...items].sort((a, b) => a.kind - b.kind || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { $and: sorted.map((i) => i.display) };
}
