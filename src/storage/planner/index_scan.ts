/**
 * Index scans over the B+tree of an index (mongod's IndexScan stage and IndexBoundsChecker):
 *
 * - bounds are per field lists of intervals; the scan visits keys in index order (or reverse),
 *   checks each key field by field, and when a key falls outside the bounds *seeks* to the next
 *   place a matching key could be (the next interval of a field, or past the current prefix);
 * - when the bounds are one interval in effect (points on a prefix, then one range, then
 *   `[MinKey, MaxKey]`), the scan runs from the start key to the end key and stops there without
 *   examining the key past the end, as mongod does; otherwise every key read counts as examined
 *   (`keysExamined`), and each repositioning is a seek (`seeks`);
 * - a min/max scan runs from the `min` key (inclusive) to the `max` key (exclusive);
 * - a multikey index yields a record once per matching key: duplicates are dropped
 *   (`dupsTested`/`dupsDropped`);
 * - the scan remembers its last entry, so writes between two `next()` calls (an open cursor)
 *   only make it re-seek past that entry.
 *
 * `estimateKeys` counts the keys inside bounds in O(log n) per interval from the tree's counts.
 * Keys and bounds compare in the index's order (`Index.compareValue`: under its collation, if any).
 */
import type { StoredDocument } from '../record.js';
import type { Index } from '../indexes/index.js';
import type { BTreeLeaf } from '../values/btree.js';
import { isAllValues, isPoint, reverseInterval, type Interval, type IntervalList } from './intervals.js';

/** The key range of a min/max scan (undefined: open end). */
export interface ScanRange {
  readonly start: unknown;
  readonly end: unknown;
}

/** One position of a seek target: a value and where to land relative to equal keys. */
interface TargetPart {
  readonly value: unknown;
  /** 0: at the value (inclusive); +1: just after every key with it; -1: just before. */
  readonly bias: -1 | 0 | 1;
}

/** Counters a scan fills. */
export interface ScanCounters {
  keysExamined: number;
  seeks: number;
  dupsTested: number;
  dupsDropped: number;
}

type Check = { kind: 'valid' } | { kind: 'done' } | { kind: 'seek'; target: TargetPart[] };

/** A running scan of one index. */
export class IndexScanCursor {
  private readonly index: Index;
  /** The index's value order. */
  private readonly cmp: (a: unknown, b: unknown) => number;
  private readonly n: number;
  /** Per field: +1 when the field is visited ascending, -1 descending. */
  private readonly signs: number[];
  /** Per field, intervals in visiting order, oriented in visiting order. */
  private readonly oriented: Interval[][] | null;
  private readonly range: ScanRange | null;
  private readonly reverse: boolean;
  private readonly simple: boolean;
  /** The end of a simple scan (in visiting order), checked against every key. */
  private readonly endTarget: TargetPart[] | null;
  private readonly counters: ScanCounters;
  private readonly seen: Set<StoredDocument> | null;
  private leaf: BTreeLeaf<unknown, StoredDocument> | null = null;
  private pos = 0;
  private version = -1;
  private lastKey: unknown = undefined;
  private lastRec: StoredDocument | null = null;
  private started = false;
  private finished = false;

  /** A scan of `index` over `bounds` (or `range`) in `direction`, counting into `counters`. */
  constructor(index: Index, bounds: IntervalList[] | null, range: ScanRange | null, direction: 1 | -1, counters: ScanCounters) {
    this.index = index;
    this.cmp = index.compareValue;
    this.n = index.fields.length;
    this.reverse = direction === -1;
    this.signs = index.directions.map((d) => d * direction);
    this.range = range;
    this.counters = counters;
    this.seen = index.multikey || index.wildcard !== null ? new Set() : null;
    if (bounds) {
      this.oriented = bounds.map((list, i) => {
        // Intervals are ascending in value; visiting order is descending when the sign is -1.
        return this.signs[i] === 1 ? [...list] : [...list].reverse().map(reverseInterval);
      });
      this.simple = isSingleInterval(bounds, this.cmp);
      this.endTarget = this.simple ? this.simpleEnd() : null;
    } else {
      this.oriented = null;
      this.simple = true;
      this.endTarget = range && range.end !== undefined ? this.rangeTarget(range.end, -1) : null;
    }
  }

  /** The next record, or null at the end. */
  next(): StoredDocument | null {
    while (!this.finished) {
      if (!this.started) {
        this.started = true;
        if (this.oriented && this.oriented.some((list) => list.length === 0)) {
          this.finished = true;
          return null;
        }
        this.counters.seeks++;
        this.seekTo(this.startTarget(), false);
      } else if (this.version !== this.index.tree.version) {
        this.reposition();
      }
      if (this.leaf === null) {
        this.finished = true;
        return null;
      }
      const key = this.leaf.keys[this.pos];
      const rec = this.leaf.vals[this.pos]!;
      if (this.simple) {
        if (this.endTarget && this.compareToTarget(key, this.endTarget) > 0) {
          this.finished = true;
          return null;
        }
        this.counters.keysExamined++;
      } else {
        this.counters.keysExamined++;
        const check = this.check(key);
        if (check.kind === 'done') {
          this.finished = true;
          return null;
        }
        if (check.kind === 'seek') {
          this.counters.seeks++;
          this.seekTo(check.target, false);
          continue;
        }
      }
      this.lastKey = key;
      this.lastRec = rec;
      this.step();
      if (this.seen) {
        this.counters.dupsTested++;
        if (this.seen.has(rec)) {
          this.counters.dupsDropped++;
          continue;
        }
        this.seen.add(rec);
      }
      return rec;
    }
    return null;
  }

  /** Field `i` of `key`. */
  private field(key: unknown, i: number): unknown {
    return this.n === 1 ? key : (key as unknown[])[i];
  }

  /** Compares `key` with a target in visiting order. */
  private compareToTarget(key: unknown, target: TargetPart[]): number {
    for (let i = 0; i < target.length; i++) {
      const part = target[i]!;
      const c = this.signs[i]! * this.cmp(this.field(key, i), part.value);
      if (c !== 0) return c;
      if (part.bias !== 0) return -part.bias;
    }
    return 0;
  }

  /** Positions on the first entry (in visiting order) at or after `target`. */
  private seekTo(target: TargetPart[], strictlyAfter: boolean): void {
    const tree = this.index.tree;
    const atOrAfter = (k: unknown): boolean => {
      const c = this.compareToTarget(k, target);
      return strictlyAfter ? c > 0 : c >= 0;
    };
    if (!this.reverse) {
      const p = tree.seek((k) => atOrAfter(k));
      this.place(p.leaf, p.index);
    } else {
      // In index order the visiting order is reversed: the last entry satisfying the target.
      const p = tree.seek((k) => !atOrAfter(k));
      this.place(p.leaf, p.index);
      this.stepBack();
    }
    this.version = tree.version;
  }

  private place(leaf: BTreeLeaf<unknown, StoredDocument>, index: number): void {
    if (index >= leaf.keys.length) {
      this.leaf = null;
      this.pos = 0;
      if (this.reverse) {
        // Past the end in index order: the last entry is one step back.
        this.leaf = leaf;
        this.pos = leaf.keys.length;
      }
      return;
    }
    this.leaf = leaf;
    this.pos = index;
  }

  /** Moves one entry back in index order (forward in a reverse scan's visiting order). */
  private stepBack(): void {
    if (this.leaf === null) return;
    this.pos--;
    while (this.leaf !== null && this.pos < 0) {
      this.leaf = this.leaf.prev;
      this.pos = this.leaf ? this.leaf.keys.length - 1 : 0;
    }
  }

  /** Moves to the next entry in visiting order. */
  private step(): void {
    if (this.leaf === null) return;
    if (this.reverse) {
      this.stepBack();
      return;
    }
    this.pos++;
    while (this.leaf !== null && this.pos >= this.leaf.keys.length) {
      this.leaf = this.leaf.next;
      this.pos = 0;
    }
  }

  /** After writes: back to the first entry past the last one returned. */
  private reposition(): void {
    const tree = this.index.tree;
    const compareKeys = this.index.compareKeys;
    if (this.lastRec === null) {
      this.seekTo(this.startTarget(), false);
      return;
    }
    const lastKey = this.lastKey;
    const lastSeq = this.lastRec.seq!;
    const cmp = (k: unknown, rec: StoredDocument): number => compareKeys(k, lastKey) || rec.seq! - lastSeq;
    if (!this.reverse) {
      const p = tree.seek((k, rec) => cmp(k, rec) > 0);
      this.place(p.leaf, p.index);
    } else {
      const p = tree.seek((k, rec) => cmp(k, rec) >= 0);
      this.place(p.leaf, p.index);
      this.stepBack();
    }
    this.version = tree.version;
  }

  /** Where the scan starts. */
  private startTarget(): TargetPart[] {
    if (!this.oriented) {
      if (this.range && this.range.start !== undefined) return this.rangeTarget(this.range.start, 0);
      return [];
    }
    const target: TargetPart[] = [];
    for (const list of this.oriented) {
      const first = list[0]!;
      if (!first.startInclusive) {
        target.push({ value: first.start, bias: 1 });
        break;
      }
      target.push({ value: first.start, bias: 0 });
    }
    return target;
  }

  /** A min/max key as a target (`bias` on the last field). */
  private rangeTarget(key: unknown, bias: -1 | 0): TargetPart[] {
    const values = this.n === 1 ? [key] : (key as unknown[]);
    return values.map((value, i) => ({ value, bias: i === values.length - 1 ? bias : 0 }));
  }

  /** The end of a single-interval scan: the points, then the range's end. */
  private simpleEnd(): TargetPart[] | null {
    const target: TargetPart[] = [];
    for (const list of this.oriented!) {
      const only = list[0]!;
      if (isAllValues(list) && list.length === 1) {
        // Every value: nothing more to bound (the remaining fields are all full).
        break;
      }
      target.push({ value: only.end, bias: only.endInclusive ? 0 : -1 });
      if (!isPoint(only, this.cmp) || !only.endInclusive) break;
    }
    return target.length > 0 ? target : null;
  }

  /** True when some field before `i` of `key` can still take a larger value inside its bounds. */
  private prefixCanAdvance(key: unknown, i: number): boolean {
    const lists = this.oriented!;
    for (let j = 0; j < i; j++) {
      const list = lists[j]!;
      const last = list[list.length - 1]!;
      const v = this.field(key, j);
      const c = this.signs[j]! * this.cmp(v, last.end);
      const inLast = this.signs[j]! * this.cmp(v, last.start) > 0 || (this.cmp(v, last.start) === 0 && last.startInclusive);
      if (!inLast || c < 0) return true;
    }
    return false;
  }

  /** mongod's IndexBoundsChecker::checkKey. */
  private check(key: unknown): Check {
    const lists = this.oriented!;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      const v = this.field(key, i);
      const sign = this.signs[i]!;
      // The first interval whose end is at or after v (in visiting order).
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const interval = list[mid]!;
        const c = sign * this.cmp(v, interval.end);
        if (c < 0 || (c === 0 && interval.endInclusive)) hi = mid;
        else lo = mid + 1;
      }
      if (lo === list.length) {
        // Nothing more for this field under the current prefix. When no earlier field can take a
        // larger value inside its bounds either, the scan is over (mongod returns DONE).
        if (i === 0 || !this.prefixCanAdvance(key, i)) return { kind: 'done' };
        // Past every interval of this field: skip every key with this prefix.
        const target: TargetPart[] = [];
        for (let j = 0; j < i; j++) target.push({ value: this.field(key, j), bias: j === i - 1 ? 1 : 0 });
        return { kind: 'seek', target };
      }
      const interval = list[lo]!;
      const s = sign * this.cmp(v, interval.start);
      if (s < 0 || (s === 0 && !interval.startInclusive)) {
        // Before the interval: seek to its start with this prefix, and the next fields' starts.
        const target: TargetPart[] = [];
        for (let j = 0; j < i; j++) target.push({ value: this.field(key, j), bias: 0 });
        if (!interval.startInclusive) {
          target.push({ value: interval.start, bias: 1 });
        } else {
          target.push({ value: interval.start, bias: 0 });
          for (let j = i + 1; j < lists.length; j++) {
            const first = lists[j]![0]!;
            if (!first.startInclusive) {
              target.push({ value: first.start, bias: 1 });
              break;
            }
            target.push({ value: first.start, bias: 0 });
          }
        }
        return { kind: 'seek', target };
      }
    }
    return { kind: 'valid' };
  }
}

/** True when `bounds` are points on a prefix, then at most one other interval, then every value. */
export function isSingleInterval(bounds: IntervalList[], cmp?: (a: unknown, b: unknown) => number): boolean {
  let i = 0;
  while (i < bounds.length && bounds[i]!.length === 1 && isPoint(bounds[i]![0]!, cmp)) i++;
  if (i < bounds.length) {
    if (bounds[i]!.length !== 1) return false;
    i++;
  }
  for (; i < bounds.length; i++) if (!isAllValues(bounds[i]!)) return false;
  return true;
}

const MAX_ESTIMATE_PROBES = 64;

/**
 * The number of keys of `index` inside `bounds` (exact for the leading points and the first
 * other field; later fields are not counted). Used to compare candidate indexes.
 */
export function estimateKeys(index: Index, bounds: IntervalList[]): number {
  const tree = index.tree;
  const n = index.fields.length;
  const directions = index.directions;
  const cmp = index.compareValue;
  const field = (key: unknown, i: number): unknown => (n === 1 ? key : (key as unknown[])[i]);
  const compare = (key: unknown, target: TargetPart[]): number => {
    for (let i = 0; i < target.length; i++) {
      const part = target[i]!;
      const c = directions[i]! * cmp(field(key, i), part.value);
      if (c !== 0) return c;
      if (part.bias !== 0) return -part.bias;
    }
    return 0;
  };
  const count = (prefix: unknown[], interval: Interval, i: number): number => {
    // Orient the interval in index order for a descending field.
    const o = directions[i] === 1 ? interval : reverseInterval(interval);
    const low: TargetPart[] = [...prefix.map((value) => ({ value, bias: 0 as const })), { value: o.start, bias: o.startInclusive ? 0 : 1 }];
    const high: TargetPart[] = [...prefix.map((value) => ({ value, bias: 0 as const })), { value: o.end, bias: o.endInclusive ? 0 : -1 }];
    const from = tree.rank((k) => compare(k, low) >= 0);
    const to = tree.rank((k) => compare(k, high) > 0);
    return Math.max(0, to - from);
  };
  let probes = 0;
  const walk = (i: number, prefix: unknown[]): number => {
    if (i >= n) return 0;
    const list = bounds[i]!;
    if (isAllValues(list)) return prefix.length === 0 ? tree.size : count(prefix.slice(0, -1), { start: prefix[prefix.length - 1], startInclusive: true, end: prefix[prefix.length - 1], endInclusive: true }, i - 1);
    const points = list.every((x) => isPoint(x, cmp)) && i + 1 < n && !isAllValues(bounds[i + 1]!);
    let total = 0;
    for (const interval of list) {
      total += points && ++probes <= MAX_ESTIMATE_PROBES ? walk(i + 1, [...prefix, interval.start]) : count(prefix, interval, i);
    }
    return total;
  };
  return walk(0, []);
}
