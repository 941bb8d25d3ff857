/**
 * Sort specifications ({a: 1, 'b.c': -1}) compiled into comparators with MongoDB's semantics:
 * values in BSON order (compareValues); a missing field sorts as null; an array field sorts by
 * its smallest element ascending and its largest descending (an empty array as undefined, below
 * null); paths fan out through arrays of documents. Under a collation, strings (also inside
 * documents and arrays) order by it.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { formatElement } from '../values/format.js';
import type { Collator } from '../values/collator.js';
import { compareValues } from '../values/compare.js';
import { addTopLevelField, arrayOffsetOf, isDocument } from '../values/paths.js';

/** Orders two documents: negative, zero or positive. */
export type Comparator = (a: Document, b: Document) => number;

/** One key of a compiled sort: its path components and direction. */
export interface SortKey {
  readonly path: string;
  readonly parts: readonly string[];
  readonly offsets: readonly number[];
  readonly direction: 1 | -1;
}

const MAX_SORT_KEYS = 32;
const hasOwn = Object.prototype.hasOwnProperty;

/** Validates a sort specification and returns its keys (mongod's errors). */
export function parseSortSpec(spec: Document): SortKey[] {
  const keys: SortKey[] = [];
  for (const path in spec) {
    const value = spec[path];
    if (isDocument(value)) {
      const names = Object.keys(value);
      if (names[0] !== '$meta') {
        throw new CommandError(17312, '$meta is the only expression supported by $sort right now');
      }
      if (names.length !== 1) {
        throw new CommandError('FailedToParse', 'Cannot have additional keys in a $meta sort specification');
      }
      throw new CommandError('NotImplemented', `$meta sort by ${formatElement('$meta', value.$meta)} is not supported by Mayfly yet`);
    }
    if (!isNumber(value) || typeof value === 'bigint') {
      throw new CommandError(15974, `Illegal key in $sort specification: ${formatElement(path, value)}`);
    }
    const d = toDouble(value);
    if (d !== 1 && d !== -1) {
      throw new CommandError(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    }
    validateFieldPath(path);
    const parts = path.split('.');
    keys.push({ path, parts, offsets: parts.map(arrayOffsetOf), direction: d === 1 ? 1 : -1 });
  }
  if (keys.length > MAX_SORT_KEYS) throw new CommandError(13103, 'too many compound keys');
  return keys;
}

/** mongod's FieldPath validation of a sort path. */
function validateFieldPath(path: string): void {
  if (path === '') throw new CommandError(40352, 'FieldPath cannot be constructed with empty string');
  if (path.endsWith('.')) throw new CommandError(40353, "FieldPath must not end with a '.'.");
  for (const part of path.split('.')) {
    if (part === '') throw new CommandError(15998, 'FieldPath field names may not be empty strings.');
    if (part.charCodeAt(0) === 36 && part !== '$id' && part !== '$ref' && part !== '$db') {
      throw new CommandError(
        16410,
        "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
      );
    }
  }
}

/** The top-level fields a sort by `spec` (a valid one) reads: the first part of each path. */
export function sortFields(spec: Document): string[] {
  const fields: string[] = [];
  for (const path in spec) addTopLevelField(fields, path);
  return fields;
}

/**
 * Compiles a sort specification into a comparator (throws CommandError for a bad spec);
 * `collator` is the query's collation (null or absent: simple).
 */
export function compileSort(spec: Document, collator?: Collator | null): Comparator {
  const keys = parseSortSpec(spec);
  if (keys.length === 0) return () => 0;
  if (keys.length === 1) {
    const key = keys[0]!;
    const dir = key.direction;
    if (collator) return (a, b) => dir * compareValues(sortKeyValue(a, key, collator), sortKeyValue(b, key, collator), collator);
    return (a, b) => dir * compareValues(sortKeyValue(a, key), sortKeyValue(b, key));
  }
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const c = compareValues(sortKeyValue(a, key, collator), sortKeyValue(b, key, collator), collator);
      if (c !== 0) return key.direction * c;
    }
    return 0;
  };
}

/** The value `doc` sorts by for `key` (null when missing, min/max element for arrays). */
export function sortKeyValue(doc: Document, key: SortKey, collator?: Collator | null): unknown {
  if (key.parts.length === 1) {
    const name = key.parts[0]!;
    if (!hasOwn.call(doc, name)) return null;
    const v = doc[name];
    if (!Array.isArray(v)) return v;
    return extreme(v, key.direction, collator);
  }
  const out: unknown[] = [];
  collect(doc, key, 0, out);
  if (out.length === 0) return null;
  return extreme(out, key.direction, collator);
}

function extreme(values: readonly unknown[], direction: 1 | -1, collator?: Collator | null): unknown {
  if (values.length === 0) return undefined;
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const c = compareValues(values[i], best, collator);
    if (direction === 1 ? c < 0 : c > 0) best = values[i];
  }
  return best;
}

/** Every value of the key's path, arrays of documents fanned out, missing fields as null. */
function collect(value: unknown, key: SortKey, i: number, out: unknown[]): void {
  if (i === key.parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else for (const el of value) out.push(el);
    } else {
      out.push(value);
    }
    return;
  }
  if (Array.isArray(value)) {
    const offset = key.offsets[i]!;
    if (offset >= 0) {
      if (offset < value.length) collect(value[offset], key, i + 1, out);
      else out.push(null);
      return;
    }
    for (const el of value) if (isDocument(el)) collect(el, key, i, out);
    return;
  }
  if (isDocument(value)) {
    const name = key.parts[i]!;
    if (!hasOwn.call(value, name)) {
      out.push(null);
      return;
    }
    collect(value[name], key, i + 1, out);
    return;
  }
  out.push(null);
}

/**
 * A sort specification compiled for ordering many documents: each document's sort values are
 * computed once (`keyOf`), not at every comparison, and compared with a fast path for two
 * numbers of the common kinds.
 */
export interface KeyedSort {
  /** The values `doc` sorts by, one per key of the specification. */
  keyOf(doc: Document): unknown[];
  /** Orders two results of `keyOf` (the directions applied). */
  compareKeys(a: readonly unknown[], b: readonly unknown[]): number;
  /** The direction of each key. */
  readonly directions: readonly (1 | -1)[];
}

/** Compiles `spec` (throws CommandError for a bad one) into a KeyedSort under `collator`. */
export function compileKeyedSort(spec: Document, collator?: Collator | null): KeyedSort {
  const keys = parseSortSpec(spec);
  const n = keys.length;
  const directions = keys.map((k) => k.direction);
  const c = collator ?? null;
  const compareOne = (a: unknown, b: unknown): number => {
    // Two plain numbers (Int32 or Double), neither NaN: their order is the numeric one.
    if (typeof a === 'number' && typeof b === 'number' && a === a && b === b) return a < b ? -1 : a > b ? 1 : 0;
    return compareValues(a, b, c);
  };
  return {
    directions,
    keyOf(doc) {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = sortKeyValue(doc, keys[i]!, c);
      return out;
    },
    compareKeys(a, b) {
      for (let i = 0; i < n; i++) {
        const r = compareOne(a[i], b[i]);
        if (r !== 0) return directions[i]! * r;
      }
      return 0;
    },
  };
}

/**
 * The items of `input` in the order of `sort` over `docOf(item)`, stably (equal keys keep their
 * input order); with `limit` > 0 only the first `limit` of them, kept in a bounded heap while
 * the input is read (top-k: memory and work for `limit` items, not for the whole input).
 */
export function sortItems<T>(input: Iterable<T>, docOf: (item: T) => Document, sort: KeyedSort, limit = 0): T[] {
  const cmp = sort.compareKeys;
  if (limit <= 0) {
    const decorated: Array<{ key: unknown[]; item: T }> = [];
    let numeric = sort.directions.length === 1;
    for (const item of input) {
      const key = sort.keyOf(docOf(item));
      if (numeric && (typeof key[0] !== 'number' || key[0] !== key[0])) numeric = false;
      decorated.push({ key, item });
    }
    if (numeric) return sortByNumbers(decorated, sort.directions[0]!);
    decorated.sort((a, b) => cmp(a.key, b.key));
    return decorated.map((d) => d.item);
  }
  // A max-heap of the `limit` first items so far: its root is the last of them (ties: the later one).
  interface Entry {
    readonly key: unknown[];
    readonly seq: number;
    readonly item: T;
  }
  const heap: Entry[] = [];
  const after = (x: Entry, y: Entry): boolean => {
    const r = cmp(x.key, y.key);
    return r > 0 || (r === 0 && x.seq > y.seq);
  };
  const siftDown = (i: number): void => {
    const len = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < len && after(heap[l]!, heap[top]!)) top = l;
      if (r < len && after(heap[r]!, heap[top]!)) top = r;
      if (top === i) return;
      const t = heap[i]!;
      heap[i] = heap[top]!;
      heap[top] = t;
      i = top;
    }
  };
  let seq = 0;
  for (const item of input) {
    const key = sort.keyOf(docOf(item));
    const entry: Entry = { key, seq: seq++, item };
    if (heap.length < limit) {
      heap.push(entry);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!after(heap[i]!, heap[p]!)) break;
        const t = heap[i]!;
        heap[i] = heap[p]!;
        heap[p] = t;
        i = p;
      }
    } else if (after(heap[0]!, entry)) {
      heap[0] = entry;
      siftDown(0);
    }
  }
  heap.sort((a, b) => cmp(a.key, b.key) || a.seq - b.seq);
  return heap.map((e) => e.item);
}

/**
 * A stable sort of items whose one sort value is a plain number (no NaN): the values in a
 * Float64Array and the positions in a Uint32Array sorted by them (ties by position), which the
 * engine does several times faster than a sort of objects by a general comparator.
 */
function sortByNumbers<T>(decorated: ReadonlyArray<{ key: unknown[]; item: T }>, direction: 1 | -1): T[] {
  const n = decorated.length;
  const values = new Float64Array(n);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = decorated[i]!.key[0] as number;
    order[i] = i;
  }
  // A difference of 0 (or NaN, from two equal infinities) is a tie, broken by position.
  if (direction === 1) order.sort((a, b) => values[a]! - values[b]! || a - b);
  else order.sort((a, b) => values[b]! - values[a]! || a - b);
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = decorated[order[i]!]!.item;
  return out;
}
