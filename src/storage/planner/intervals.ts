/**
 * Index bounds as mongod builds them (mongo/src/mongo/db/query/index_bounds_builder.cpp,
 * interval.cpp): per field, an ordered list of disjoint intervals of BSON values in
 * `compareValues` order. Comparison predicates are *type-bracketed*: `$gt: 5` covers numbers
 * above 5 only (`(5, inf.0]`), `$lt: "b"` strings below "b" (`["", "b")`). Intervals are printed
 * as mongod prints them in explain (`[1, 1]`, `(5, inf.0]`, `["a", {})`, `[MinKey, MaxKey]`).
 *
 * Under a collation the order is the collation's (`cmp`, default `compareValues`): bounds for an
 * index with a collation are built and merged in that index's order. Explain prints the
 * strings themselves where mongod prints their ICU collation keys.
 */
import { Binary, MaxKey, MinKey, ObjectId, Timestamp, Long } from '../../bson/library.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { compareValues, TYPE_RANK, typeRank } from '../values/compare.js';
import { formatValue } from '../values/format.js';

/** A closed, open or half-open interval of values, `start ≤ end` in `compareValues` order. */
export interface Interval {
  readonly start: unknown;
  readonly startInclusive: boolean;
  readonly end: unknown;
  readonly endInclusive: boolean;
}

/** The values of one index field a query can match: disjoint intervals in ascending order. */
export type IntervalList = readonly Interval[];

/** The order of values intervals follow (`compareValues`, or it under a collation). */
export type ValueComparator = (a: unknown, b: unknown) => number;

/** The smallest and largest BSON values. */
export const MIN_KEY = new MinKey();
/** The largest BSON value. */
export const MAX_KEY = new MaxKey();

/** `[MinKey, MaxKey]`: every value. */
export const ALL_VALUES: IntervalList = Object.freeze([{ start: MIN_KEY, startInclusive: true, end: MAX_KEY, endInclusive: true }]);
/** No value at all. */
export const NO_VALUES: IntervalList = Object.freeze([]);

// The earliest and latest JS dates stand for mongod's Date_t::min()/max() (±2^63 ms), which a JS
// Date cannot hold; they are printed as mongod prints those.
const DATE_MIN = new Date(-8.64e15);
const DATE_MAX = new Date(8.64e15);

/** A single value `[v, v]`. */
export function point(v: unknown): Interval {
  return { start: v, startInclusive: true, end: v, endInclusive: true };
}

/** True when `list` is `[MinKey, MaxKey]`. */
export function isAllValues(list: IntervalList): boolean {
  if (list.length !== 1) return false;
  const i = list[0]!;
  return i.startInclusive && i.endInclusive && typeRank(i.start) === TYPE_RANK.minKey && typeRank(i.end) === TYPE_RANK.maxKey;
}

/** True when every interval of `list` is a single value. */
export function isPointList(list: IntervalList): boolean {
  return list.length > 0 && list.every((i) => isPoint(i));
}

/** True when `i` is a single value. */
export function isPoint(i: Interval, cmp: ValueComparator = compareValues): boolean {
  return i.startInclusive && i.endInclusive && cmp(i.start, i.end) === 0;
}

/** True when `v` lies in `i`. */
export function contains(i: Interval, v: unknown, cmp: ValueComparator = compareValues): boolean {
  const s = cmp(v, i.start);
  if (s < 0 || (s === 0 && !i.startInclusive)) return false;
  const e = cmp(v, i.end);
  return e < 0 || (e === 0 && i.endInclusive);
}

/** Compares interval starts (an exclusive start is after an inclusive one at the same value). */
function compareStarts(a: Interval, b: Interval, cmp: ValueComparator): number {
  const c = cmp(a.start, b.start);
  if (c !== 0) return c;
  if (a.startInclusive === b.startInclusive) return 0;
  return a.startInclusive ? -1 : 1;
}

/** Compares interval ends (an exclusive end is before an inclusive one at the same value). */
function compareEnds(a: Interval, b: Interval, cmp: ValueComparator): number {
  const c = cmp(a.end, b.end);
  if (c !== 0) return c;
  if (a.endInclusive === b.endInclusive) return 0;
  return a.endInclusive ? 1 : -1;
}

/** True when `i` contains no value. */
function isEmpty(i: Interval, cmp: ValueComparator): boolean {
  const c = cmp(i.start, i.end);
  return c > 0 || (c === 0 && !(i.startInclusive && i.endInclusive));
}

/** The union of interval lists, sorted and merged (overlapping or touching intervals join). */
export function union(lists: readonly IntervalList[], cmp: ValueComparator = compareValues): IntervalList {
  const all = lists.flat().filter((i) => !isEmpty(i, cmp));
  all.sort((a, b) => compareStarts(a, b, cmp));
  const out: Interval[] = [];
  for (const i of all) {
    const last = out[out.length - 1];
    if (last) {
      const c = cmp(i.start, last.end);
      if (c < 0 || (c === 0 && (i.startInclusive || last.endInclusive))) {
        if (compareEnds(i, last, cmp) > 0) out[out.length - 1] = { start: last.start, startInclusive: last.startInclusive, end: i.end, endInclusive: i.endInclusive };
        continue;
      }
    }
    out.push(i);
  }
  return out;
}

/** The intersection of two interval lists. */
export function intersect(a: IntervalList, b: IntervalList, cmp: ValueComparator = compareValues): IntervalList {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const start = compareStarts(x, y, cmp) >= 0 ? x : y;
    const end = compareEnds(x, y, cmp) <= 0 ? x : y;
    const candidate: Interval = { start: start.start, startInclusive: start.startInclusive, end: end.end, endInclusive: end.endInclusive };
    if (!isEmpty(candidate, cmp)) out.push(candidate);
    if (compareEnds(x, y, cmp) <= 0) i++;
    else j++;
  }
  return out;
}

/** The values of `[MinKey, MaxKey]` not in `list`. */
export function complement(list: IntervalList, cmp: ValueComparator = compareValues): IntervalList {
  const out: Interval[] = [];
  let start: unknown = MIN_KEY;
  let startInclusive = true;
  for (const i of list) {
    const gap: Interval = { start, startInclusive, end: i.start, endInclusive: !i.startInclusive };
    if (!isEmpty(gap, cmp)) out.push(gap);
    start = i.end;
    startInclusive = !i.endInclusive;
  }
  const tail: Interval = { start, startInclusive, end: MAX_KEY, endInclusive: true };
  if (!isEmpty(tail, cmp)) out.push(tail);
  return out;
}

/** The smallest and largest values of the type of `v` (mongod's appendMinForType / appendMaxForType). */
export function typeBracket(v: unknown): Interval | null {
  switch (bsonTypeOf(v)) {
    case 'int':
    case 'long':
    case 'double':
    case 'decimal':
      return { start: -Infinity, startInclusive: true, end: Infinity, endInclusive: true };
    case 'string':
    case 'symbol':
      return { start: '', startInclusive: true, end: {}, endInclusive: false };
    case 'object':
      return { start: {}, startInclusive: true, end: [], endInclusive: false };
    case 'binData':
      return { start: new Binary(new Uint8Array(0), 0), startInclusive: true, end: ObjectId.createFromHexString('000000000000000000000000'), endInclusive: false };
    case 'objectId':
      return {
        start: ObjectId.createFromHexString('000000000000000000000000'),
        startInclusive: true,
        end: ObjectId.createFromHexString('ffffffffffffffffffffffff'),
        endInclusive: true,
      };
    case 'bool':
      return { start: false, startInclusive: true, end: true, endInclusive: true };
    case 'date':
      return { start: DATE_MIN, startInclusive: true, end: DATE_MAX, endInclusive: true };
    case 'timestamp':
      return { start: new Timestamp({ t: 0, i: 0 }), startInclusive: true, end: new Timestamp({ t: 4294967295, i: 4294967295 }), endInclusive: true };
    default:
      return null;
  }
}

/** An interval as explain prints it, e.g. `[1, 1]`, `(5, inf.0]`, `["a", {})`. */
export function formatInterval(i: Interval): string {
  return `${i.startInclusive ? '[' : '('}${formatBound(i.start)}, ${formatBound(i.end)}${i.endInclusive ? ']' : ')'}`;
}

/** An interval with its ends swapped (a descending field or a backward scan). */
export function reverseInterval(i: Interval): Interval {
  return { start: i.end, startInclusive: i.endInclusive, end: i.start, endInclusive: i.startInclusive };
}

function formatBound(v: unknown): string {
  if (v instanceof Date) {
    if (v.getTime() === DATE_MIN.getTime()) return 'new Date(-9223372036854775808)';
    if (v.getTime() === DATE_MAX.getTime()) return 'new Date(9223372036854775807)';
  }
  if (v instanceof Long) return v.toString();
  return formatValue(v);
}
