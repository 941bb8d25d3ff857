/**
 * Comparison operators: $eq (and implicit equality), $ne, $gt, $gte, $lt, $lte, $in, $nin.
 * Comparisons are type-bracketed (mongod's ComparisonMatchExpression): values of another
 * canonical type never match, except that null matches a missing field for $eq/$lte/$gte and
 * MinKey/MaxKey bound every type. NaN equals NaN and is otherwise incomparable. Under a
 * collation (`collator`), strings, also inside documents and arrays, compare by it; `$regex`
 * never does.
 */
import { CommandError } from '../../../errors/command_error.js';
import type { Collator } from '../../values/collator.js';
import { compareSameRank, compareStrings, isCollatable, TYPE_RANK, typeRank } from '../../values/compare.js';
import { keyString } from '../../values/key_string.js';
import { MISSING, isDocument } from '../../values/paths.js';
import { isNaNNumber } from '../../values/numeric.js';
import { compileRegex } from '../regex.js';
import { leaf, not, type Clause, type ValueTest } from '../types.js';
import { bsonTag } from '../../../bson/library.js';

/** The comparison operators that order values. */
export type CompareOp = '$lt' | '$lte' | '$gt' | '$gte';

/** True for a BSON regular expression value (BSONRegExp or a JS RegExp). */
export function isRegexValue(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  return v instanceof RegExp || bsonTag(v) === 'BSONRegExp';
}

/** [pattern, options] of a regex value (JS RegExp flags limited to the ones MongoDB knows). */
export function regexSource(v: unknown): [string, string] {
  if (v instanceof RegExp) {
    let flags = '';
    for (const f of v.flags) if ('imsu'.includes(f)) flags += f;
    return [v.source, flags];
  }
  const r = v as { pattern: string; options: string };
  return [r.pattern, r.options];
}

/** Double/Int32 wrappers and safe Longs as plain numbers (the fast-path form of a constant). */
function normaliseNumber(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const tag = bsonTag(v);
  if (tag === 'Double' || tag === 'Int32') return (v as { value: number }).value;
  if (tag === 'Long') {
    const n = (v as { toNumber(): number }).toNumber();
    if (Number.isSafeInteger(n)) return n;
  }
  return v;
}

function isNumericWrapper(v: object): boolean {
  const tag = bsonTag(v);
  return tag === 'Double' || tag === 'Long' || tag === 'Decimal128' || tag === 'Int32';
}

/** Rejects an undefined right-hand side as mongod does. */
export function checkComparable(rhs: unknown): void {
  if (rhs === undefined) throw new CommandError('BadValue', 'cannot compare to undefined');
}

/** The single-value test of equality with `rhs` (strings under `collator` when given). */
export function equalityTest(rhsIn: unknown, collator?: Collator | null): ValueTest {
  const rhs = normaliseNumber(rhsIn);
  if (collator && isCollatable(rhs)) return collatedEquality(rhs, collator);
  switch (typeof rhs) {
    case 'number': {
      if (rhs !== rhs) return genericEquality(rhs);
      return (v) => {
        if (typeof v === 'number') return v === rhs;
        if (typeof v === 'object' && v !== null && isNumericWrapper(v)) {
          return compareSameRank(TYPE_RANK.number, v, rhs) === 0;
        }
        return false;
      };
    }
    case 'string':
      return (v) =>
        v === rhs ||
        (typeof v === 'object' &&
          v !== null &&
          bsonTag(v) === 'BSONSymbol' &&
          String((v as { value: unknown }).value) === rhs);
    case 'boolean':
      return (v) => v === rhs;
    case 'object':
      if (rhs === null) return (v) => v === null || v === MISSING;
      break;
  }
  return genericEquality(rhs);
}

function genericEquality(rhs: unknown): ValueTest {
  const rank = typeRank(rhs);
  return (v) => v !== MISSING && typeRank(v) === rank && compareSameRank(rank, v, rhs) === 0;
}

/** Equality with a string, document or array under a collation. */
function collatedEquality(rhs: unknown, collator: Collator): ValueTest {
  if (typeof rhs === 'string') {
    return (v) => (typeof v === 'string' ? collator.equals(v, rhs) : v !== MISSING && typeRank(v) === TYPE_RANK.string && compareSameRank(TYPE_RANK.string, v, rhs, collator) === 0);
  }
  const rank = typeRank(rhs);
  return (v) => v !== MISSING && typeRank(v) === rank && compareSameRank(rank, v, rhs, collator) === 0;
}

/** The single-value test of `$lt/$lte/$gt/$gte rhs` (strings under `collator` when given). */
export function comparisonTest(op: CompareOp, rhsIn: unknown, collator?: Collator | null): ValueTest {
  const rhs = normaliseNumber(rhsIn);
  const rank = typeRank(rhs);
  const inclusive = op === '$lte' || op === '$gte';
  const upward = op === '$gt' || op === '$gte';
  const rhsNaN = isNaNNumber(rhs);
  const isMinKey = rank === TYPE_RANK.minKey;
  const isMaxKey = rank === TYPE_RANK.maxKey;
  const slow: ValueTest = (v) => {
    if (v === MISSING) {
      if (rank === TYPE_RANK.null) return inclusive;
      if (isMaxKey) return !upward;
      if (isMinKey) return upward;
      return false;
    }
    const r = typeRank(v);
    if (r !== rank) {
      if (isMaxKey) return !upward;
      if (isMinKey) return upward;
      return false;
    }
    if (r === TYPE_RANK.number) {
      const lhsNaN = isNaNNumber(v);
      if (lhsNaN || rhsNaN) return inclusive && lhsNaN && rhsNaN;
    }
    const c = compareSameRank(rank, v, rhs, collator);
    switch (op) {
      case '$lt':
        return c < 0;
      case '$lte':
        return c <= 0;
      case '$gt':
        return c > 0;
      default:
        return c >= 0;
    }
  };
  if (typeof rhs === 'number' && !rhsNaN) {
    switch (op) {
      case '$lt':
        return (v) => (typeof v === 'number' ? v < rhs : slow(v));
      case '$lte':
        return (v) => (typeof v === 'number' ? v <= rhs : slow(v));
      case '$gt':
        return (v) => (typeof v === 'number' ? v > rhs : slow(v));
      default:
        return (v) => (typeof v === 'number' ? v >= rhs : slow(v));
    }
  }
  if (typeof rhs === 'string' && collator) {
    const compare = collator.compare;
    switch (op) {
      case '$lt':
        return (v) => (typeof v === 'string' ? compare(v, rhs) < 0 : slow(v));
      case '$lte':
        return (v) => (typeof v === 'string' ? compare(v, rhs) <= 0 : slow(v));
      case '$gt':
        return (v) => (typeof v === 'string' ? compare(v, rhs) > 0 : slow(v));
      default:
        return (v) => (typeof v === 'string' ? compare(v, rhs) >= 0 : slow(v));
    }
  }
  if (typeof rhs === 'string') {
    switch (op) {
      case '$lt':
        return (v) => (typeof v === 'string' ? compareStrings(v, rhs) < 0 : slow(v));
      case '$lte':
        return (v) => (typeof v === 'string' ? compareStrings(v, rhs) <= 0 : slow(v));
      case '$gt':
        return (v) => (typeof v === 'string' ? compareStrings(v, rhs) > 0 : slow(v));
      default:
        return (v) => (typeof v === 'string' ? compareStrings(v, rhs) >= 0 : slow(v));
    }
  }
  return slow;
}

/** `{path: {$op: rhs}}` for $eq/$lt/$lte/$gt/$gte (name is the path, for messages). */
export function parseComparison(op: '$eq' | CompareOp, name: string | null, rhs: unknown, collator?: Collator | null): Clause {
  if (op !== '$eq' && isRegexValue(rhs)) {
    throw new CommandError(
      'BadValue',
      `Can't have RegEx as arg to non-equality predicate over field '${name ?? '(None)'}'.`,
    );
  }
  checkComparable(rhs);
  return leaf(op === '$eq' ? equalityTest(rhs, collator) : comparisonTest(op, rhs, collator));
}

/** `{path: {$ne: rhs}}`. */
export function parseNotEqual(rhs: unknown, collator?: Collator | null): Clause {
  if (isRegexValue(rhs)) throw new CommandError('BadValue', "Can't have regex as arg to $ne.");
  checkComparable(rhs);
  return not(leaf(equalityTest(rhs, collator)));
}

/** True for an operator document in the sense of mongod's isExpressionDocument. */
export function isExpressionDocument(v: unknown, allowIncompleteDBRef: boolean): boolean {
  if (!isDocument(v)) return false;
  let first: string | undefined;
  for (const k in v) {
    first = k;
    break;
  }
  if (first === undefined || first.charCodeAt(0) !== 36 /* $ */) return false;
  return !isDBRefDocument(v, allowIncompleteDBRef);
}

function isDBRefDocument(obj: Record<string, unknown>, allowIncomplete: boolean): boolean {
  const hasRef = '$ref' in obj;
  const hasId = '$id' in obj;
  const hasDb = '$db' in obj;
  return allowIncomplete ? hasRef || hasId || hasDb : hasRef && hasId;
}

/**
 * The single-value test of `$in: values` (equalities, regexes, null matching missing). Under a
 * collation, strings are found by binary search in the collation order and documents and arrays
 * by comparison.
 */
export function inTest(values: readonly unknown[], collator?: Collator | null): ValueTest {
  const numbers = new Set<number>();
  const strings = new Set<string>();
  const keys = new Set<string>();
  const ranks = new Set<number>();
  const regexes: ValueTest[] = [];
  /** Documents and arrays under a collation (compared one by one). */
  const collated: unknown[] = [];
  let hasNull = false;
  let otherNumbers = false;
  for (const raw of values) {
    if (isRegexValue(raw)) {
      const [pattern, flags] = regexSource(raw);
      regexes.push(regexTest(pattern, flags));
      continue;
    }
    if (raw === undefined) {
      throw new CommandError('BadValue', 'InMatchExpression equality cannot be undefined');
    }
    const v = normaliseNumber(raw);
    if (typeof v === 'number') numbers.add(v === 0 ? 0 : v);
    else if (typeof v === 'string') strings.add(v);
    else if (v === null) hasNull = true;
    else {
      const rank = typeRank(v);
      if (rank === TYPE_RANK.number) otherNumbers = true;
      if (rank === TYPE_RANK.string) {
        strings.add(String((v as { value: unknown }).value));
        continue;
      }
      ranks.add(rank);
      if (collator && (rank === TYPE_RANK.object || rank === TYPE_RANK.array)) collated.push(v);
      else keys.add(keyString(v));
    }
  }
  if (otherNumbers) ranks.add(TYPE_RANK.number);
  const hasRegex = regexes.length > 0;
  const hasKeys = keys.size > 0 || collated.length > 0;
  const hasString = collator && strings.size > 0 ? sortedStringsTest([...strings], collator) : null;
  const inCollated = (v: unknown, rank: number): boolean => {
    for (let i = 0; i < collated.length; i++) if (typeRank(collated[i]) === rank && compareSameRank(rank, v, collated[i], collator) === 0) return true;
    return false;
  };
  const matchesRegex = (v: unknown): boolean => {
    for (let i = 0; i < regexes.length; i++) if (regexes[i]!(v)) return true;
    return false;
  };
  return (v) => {
    switch (typeof v) {
      case 'number':
        if (numbers.has(v)) return true;
        return otherNumbers && keys.has(keyString(v));
      case 'string':
        if (hasString === null ? strings.has(v) : hasString(v)) return true;
        return hasRegex && matchesRegex(v);
      case 'symbol':
        return hasNull; // MISSING
      case 'object':
        if (v === null) return hasNull;
        break;
      default:
        break;
    }
    if (hasKeys || numbers.size > 0 || strings.size > 0) {
      const rank = typeRank(v);
      if (rank === TYPE_RANK.number) {
        const n = normaliseNumber(v);
        if (typeof n === 'number' && numbers.has(n === 0 ? 0 : n)) return true;
        if (otherNumbers && keys.has(keyString(v))) return true;
        if (numbers.size > 0 && typeof n !== 'number') {
          const k = keyString(v);
          for (const x of numbers) if (keyString(x) === k) return true;
        }
      } else if (rank === TYPE_RANK.string) {
        const s = String((v as { value: unknown }).value);
        if (hasString === null ? strings.has(s) : hasString(s)) return true;
      } else if (ranks.has(rank) && ((keys.size > 0 && keys.has(keyString(v))) || (collated.length > 0 && inCollated(v, rank)))) {
        return true;
      }
    }
    return hasRegex && matchesRegex(v);
  };
}

/** Membership of a string in `list` under `collator` (binary search in the collation order). */
function sortedStringsTest(list: string[], collator: Collator): (s: string) => boolean {
  const compare = collator.compare;
  list.sort(compare);
  return (s) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compare(list[mid]!, s);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return false;
  };
}

/** `{path: {$in: [...]}}` / `{path: {$nin: [...]}}`. */
export function parseIn(op: '$in' | '$nin', rhs: unknown, collator?: Collator | null): Clause {
  if (!Array.isArray(rhs)) throw new CommandError('BadValue', `${op} needs an array`);
  for (const e of rhs) {
    if (isExpressionDocument(e, false)) throw new CommandError('BadValue', 'cannot nest $ under $in');
  }
  const clause = leaf(inTest(rhs, collator));
  return op === '$in' ? clause : not(clause);
}

/** The single-value test of a regex: strings and symbols by search, regex values by equality. */
export function regexTest(pattern: string, flags: string): ValueTest {
  const re = compileRegex(pattern, flags);
  return (v) => {
    if (typeof v === 'string') return re.test(v);
    if (typeof v !== 'object' || v === null) return false;
    const tag = bsonTag(v);
    if (tag === 'BSONSymbol') return re.test(String((v as { value: unknown }).value));
    if (tag === 'BSONRegExp' || v instanceof RegExp) {
      const [p, f] = regexSource(v);
      return p === pattern && f === flags;
    }
    return false;
  };
}
