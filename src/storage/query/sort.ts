/**
 * Sort specifications ({a: 1, 'b.c': -1}) compiled into comparators with MongoDB's semantics:
 * values in BSON order (compareValues); a missing field sorts as null; an array field sorts by
 * its smallest element ascending and its largest descending (an empty array as undefined, below
 * null); paths fan out through arrays of documents. Under a collation, strings (also inside
 * documents and arrays) order by it.
 */
import { Decimal128, Double, type Document } from '../../bson/library.js';
import { metadataOf } from '../values/metadata.js';
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
  /** A `{$meta: ...}` key: the metadata it sorts by (its path is the output name only). */
  readonly meta?: SortMeta;
}

/** The metadata a sort may order by (sort_pattern.cpp; `textScore` is a `$text` match's score). */
export type SortMeta = 'randVal' | 'searchScore' | 'vectorSearchScore' | 'score' | 'geoNearDistance' | 'textScore';
const SORT_METAS: ReadonlySet<string> = new Set(['randVal', 'searchScore', 'vectorSearchScore', 'score', 'geoNearDistance', 'textScore']);

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
      const meta = value.$meta;
      if (typeof meta !== 'string' || !SORT_METAS.has(meta)) throw new CommandError(31138, `Illegal $meta sort: ${formatElement('$meta', meta)}`);
      // Scores sort highest first; a random value either way.
      keys.push({ path, parts: [path], offsets: [-1], direction: meta === 'randVal' ? 1 : -1, meta: meta as SortMeta });
      continue;
    }
    if (!isNumber(value) || typeof value === 'bigint') {
      throw new CommandError(15974, `Illegal key in $sort specification: ${formatElement(path, value)}`);
    }
    // An integer value as mongod reads it: a double truncated, a decimal rounded half to even.
    const d = sortDirectionOf(value);
    if (d !== 1 && d !== -1) {
      throw new CommandError(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    }
    validateFieldPath(path);
    const parts = path.split('.');
    keys.push({ path, parts, offsets: parts.map(arrayOffsetOf), direction: d === 1 ? 1 : -1 });
  }
  let plain = 0;
  for (const key of keys) if (key.meta === undefined) plain++;
  if (plain > MAX_SORT_KEYS) throw new CommandError(13103, 'too many compound keys');
  return keys;
}

/** The direction a numeric sort value gives: a double truncated toward zero, a decimal rounded half to even. */
function sortDirectionOf(value: unknown): number {
  if (value instanceof Decimal128) {
    const x = Number(value.toString());
    if (!Number.isFinite(x)) return 0;
    const floor = Math.floor(x);
    const diff = x - floor;
    if (diff > 0.5) return floor + 1;
    if (diff < 0.5) return floor;
    return floor % 2 === 0 ? floor : floor + 1;
  }
  return Math.trunc(toDouble(value));
}

/** The longest field path mongod takes (FieldPath::kMaxFieldPathDepth... the components of a path). */
const MAX_FIELD_PATH_DEPTH = 200;

/** mongod's FieldPath validation of a sort path. */
function validateFieldPath(path: string): void {
  if (path === '') throw new CommandError(40352, 'FieldPath cannot be constructed with empty string');
  if (path.endsWith('.')) throw new CommandError(40353, "FieldPath must not end with a '.'.");
  if (path.split('.').length > MAX_FIELD_PATH_DEPTH) throw new CommandError('Overflow', `FieldPath is too long. Maximum depth is ${MAX_FIELD_PATH_DEPTH}`);
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
  if (key.meta !== undefined) return metaSortValue(doc, key.meta);
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
  /** The value `doc` sorts by for the first key (`keyOf(doc)[0]`, without the array). */
  firstValue(doc: Document): unknown;
  /**
   * For a sort by one top-level field of an ASCII name: that name, whose value a reader may take
   * from a record's bytes and turn into the sort value with `fieldKey`; null for other sorts.
   */
  readonly field: string | null;
  /** The sort value of a document whose `field` holds `value` (present): an array's extreme element. */
  fieldKey(value: unknown): unknown;
  /** Orders two sort values of the first key (its direction applied). */
  compareFirst(a: unknown, b: unknown): number;
}

/** Orders two sort values (no direction): a fast path for two plain numbers, neither NaN. */
function compareSortValues(a: unknown, b: unknown, collator: Collator | null): number {
  if (typeof a === 'number' && typeof b === 'number' && a === a && b === b) return a < b ? -1 : a > b ? 1 : 0;
  return compareValues(a, b, collator);
}

/** Compiles `spec` (throws CommandError for a bad one) into a KeyedSort under `collator`. */
export function compileKeyedSort(spec: Document, collator?: Collator | null): KeyedSort {
  const keys = parseSortSpec(spec);
  const n = keys.length;
  const directions = keys.map((k) => k.direction);
  const c = collator ?? null;
  const first = keys[0];
  const field = n === 1 && first!.parts.length === 1 && /^[\x01-\x7f]+$/.test(first!.path) ? first!.path : null;
  return {
    directions,
    field,
    keyOf(doc) {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = sortKeyValue(doc, keys[i]!, c);
      return out;
    },
    firstValue: (doc) => (first === undefined ? null : sortKeyValue(doc, first, c)),
    fieldKey: (value) => (Array.isArray(value) ? extreme(value, first!.direction, c) : value),
    compareFirst: (a, b) => (first === undefined ? 0 : first.direction * compareSortValues(a, b, c)),
    compareKeys(a, b) {
      for (let i = 0; i < n; i++) {
        const r = compareSortValues(a[i], b[i], c);
        if (r !== 0) return directions[i]! * r;
      }
      return 0;
    },
  };
}

/**
 * The items of `input` in the order of `sort` over `docOf(item)`, stably (equal keys keep their
 * input order); with `limit` > 0 only the first `limit` of them, kept in a bounded heap while
 * the input is read (top-k: memory and work for `limit` items, not for the whole input). For a
 * sort by one key, `valueOf` may give an item's sort value (`sort.firstValue(docOf(item))`)
 * more cheaply, from stored bytes.
 */
export function sortItems<T>(input: SortInput<T>, docOf: (item: T) => Document, sort: KeyedSort, limit = 0, valueOf?: (item: T) => unknown): T[] {
  if (sort.directions.length === 1) return sortItemsByValue(input, valueOf ?? ((item) => sort.firstValue(docOf(item))), sort, limit);
  const cmp = sort.compareKeys;
  if (limit <= 0) {
    const decorated: Array<{ key: unknown[]; item: T }> = [];
    forEachItem(input, (item) => decorated.push({ key: sort.keyOf(docOf(item)), item }));
    decorated.sort((a, b) => cmp(a.key, b.key));
    return decorated.map((d) => d.item);
  }
  const heap = new BoundedHeap<unknown[], T>(limit, cmp);
  let seq = 0;
  forEachItem(input, (item) => heap.offer(sort.keyOf(docOf(item)), seq++, item));
  return heap.sorted();
}

/**
 * What `sortItems` sorts: an iterable, or a function that hands every item to its visitor at
 * once, in input order (a collection scan run as one loop: no iterator step per item).
 */
export type SortInput<T> = Iterable<T> | ((visit: (item: T) => void) => void);

/** Hands every item of `input` to `visit`, in order. */
function forEachItem<T>(input: SortInput<T>, visit: (item: T) => void): void {
  if (typeof input === 'function') input(visit);
  else for (const item of input) visit(item);
}

/** The plain double of a number of the two common kinds (a JS number, a Double), NaN otherwise. */
function plainDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof Double) return v.value;
  return NaN;
}

/** `sortItems` for a sort by one key, each item's value given by `valueOf`. */
function sortItemsByValue<T>(input: SortInput<T>, valueOf: (item: T) => unknown, sort: KeyedSort, limit: number): T[] {
  const direction = sort.directions[0]!;
  const cmp = sort.compareFirst;
  if (limit > 0) {
    const heap = new BoundedHeap<unknown, T>(limit, (a, b) => {
      if (typeof a === 'number' && typeof b === 'number' && a === a && b === b) return a < b ? -direction : a > b ? direction : 0;
      return cmp(a, b);
    });
    let seq = 0;
    forEachItem(input, (item) => heap.offer(valueOf(item), seq++, item));
    return heap.sorted();
  }
  const items: T[] = [];
  const values: unknown[] = [];
  let numeric = true;
  forEachItem(input, (item) => {
    const v = valueOf(item);
    items.push(item);
    values.push(v);
    if (numeric) {
      const d = plainDouble(v);
      if (d !== d) numeric = false;
    }
  });
  const n = items.length;
  if (numeric) {
    const doubles = new Float64Array(n);
    for (let i = 0; i < n; i++) doubles[i] = plainDouble(values[i]);
    return pick(items, sortedPositions(doubles, direction));
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => cmp(values[a], values[b]) || a - b);
  return pick(items, order);
}

/** `items` in the order of `positions`. */
function pick<T>(items: readonly T[], positions: ArrayLike<number>): T[] {
  const out = new Array<T>(positions.length);
  for (let i = 0; i < positions.length; i++) out[i] = items[positions[i]!]!;
  return out;
}

/**
 * The positions of `values` (no NaN) in the order of their values in `direction`, ties by
 * position: a stable sort. When the values are integers whose span times their count stays
 * below 2^53, each (value, position) pair is packed into one exact double and the doubles are
 * sorted natively (no comparator called); otherwise the positions are sorted by a comparator.
 */
function sortedPositions(values: Float64Array, direction: 1 | -1): ArrayLike<number> {
  const n = values.length;
  let min = Infinity;
  let max = -Infinity;
  let integers = true;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v)) {
      integers = false;
      break;
    }
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (integers && n > 0 && (max - min + 1) * n <= Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = (direction === 1 ? values[i]! - min : max - values[i]!) * n + i;
    packed.sort();
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = packed[i]! % n;
    return order;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // A difference of 0 (or NaN, from two equal infinities) is a tie, broken by position.
  if (direction === 1) order.sort((a, b) => values[a]! - values[b]! || a - b);
  else order.sort((a, b) => values[b]! - values[a]! || a - b);
  return order;
}

/**
 * The `limit` first items by key (ties: the earlier), kept in a max-heap whose root is the last
 * of them: an item that cannot enter is compared with the root only, and nothing is allocated
 * for it.
 */
class BoundedHeap<K, T> {
  private readonly keys: K[] = [];
  private readonly seqs: number[] = [];
  private readonly items: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: K, b: K) => number,
  ) {}

  /** True when entry `i` comes after entry `j`. */
  private after(i: number, j: number): boolean {
    const r = this.compare(this.keys[i]!, this.keys[j]!);
    return r > 0 || (r === 0 && this.seqs[i]! > this.seqs[j]!);
  }

  private swap(i: number, j: number): void {
    const { keys, seqs, items } = this;
    const k = keys[i]!;
    keys[i] = keys[j]!;
    keys[j] = k;
    const s = seqs[i]!;
    seqs[i] = seqs[j]!;
    seqs[j] = s;
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }

  /** Offers the item of key `key`, `seq`-th of the input. */
  offer(key: K, seq: number, item: T): void {
    const { keys, seqs, items } = this;
    if (keys.length < this.limit) {
      keys.push(key);
      seqs.push(seq);
      items.push(item);
      let i = keys.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.after(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    // A later item with a key equal to the root's comes after it: it does not enter.
    if (this.compare(keys[0]!, key) <= 0) return;
    keys[0] = key;
    seqs[0] = seq;
    items[0] = item;
    const len = keys.length;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < len && this.after(l, top)) top = l;
      if (r < len && this.after(r, top)) top = r;
      if (top === i) return;
      this.swap(i, top);
      i = top;
    }
  }

  /** The items kept, in order. */
  sorted(): T[] {
    const order = this.keys.map((_, i) => i);
    order.sort((a, b) => this.compare(this.keys[a]!, this.keys[b]!) || this.seqs[a]! - this.seqs[b]!);
    return order.map((i) => this.items[i]!);
  }
}

/**
 * The value a `{$meta: ...}` sort key gives `doc`: a fresh random draw for `randVal`, the score
 * a stage before attached (null when none did), `$geoNear`'s distance (40218 without it).
 */
function metaSortValue(doc: Document, meta: SortMeta): unknown {
  if (meta === 'randVal') return Math.random();
  const metadata = metadataOf(doc);
  if (meta === 'geoNearDistance') {
    if (metadata?.geoNearDistance === undefined) throw new CommandError(40218, 'query requires geoNearDistance metadata, but it is not available');
    return metadata.geoNearDistance;
  }
  if (meta === 'textScore') {
    if (metadata?.textScore === undefined) throw noTextScore();
    return metadata.textScore;
  }
  return meta === 'score' ? (metadata?.score ?? null) : null;
}

/** mongod's 40218 for a text score asked of a query (or pipeline) without `$text`. */
export function noTextScore(): CommandError {
  return new CommandError(40218, 'query requires text score metadata, but it is not available');
}

/** True when `spec` (a sort or a projection) asks for `{$meta: "textScore"}` at its top level. */
export function wantsTextScore(spec: Document | undefined): boolean {
  if (spec === undefined) return false;
  for (const key in spec) {
    const value = spec[key];
    if (isDocument(value) && value.$meta === 'textScore') return true;
  }
  return false;
}
