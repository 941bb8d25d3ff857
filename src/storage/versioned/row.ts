/**
 * A versioned row (Tablestore's data model): the primary key (`_id`) and attribute columns, each
 * holding a list of versions `{ value, ts }` sorted newest (largest timestamp) first, at most one
 * version per timestamp (writing an existing timestamp replaces its value, as Tablestore does).
 *
 * Nothing here is deleted when it becomes unreadable: readability is computed from the limits
 * and the instant asked about (`limits.ts`), and `purge` removes what is unreadable for the
 * reaper. Because TTL expires the oldest versions first and `maxVersions` keeps the newest, the
 * readable versions of a column are always a prefix of its list.
 */
import type { Document } from '../../bson/library.js';
import { versionExpiryMs, type VersionLimits } from './limits.js';

/** One version of a column: its value and its timestamp (ms since the epoch). */
export interface Version {
  readonly value: unknown;
  readonly ts: number;
}

/** The plain document a read sees at one instant, and the instants between which it holds. */
export interface RowView {
  /** `{ _id, <column>: <newest readable value>, … }`. */
  readonly doc: Document;
  /** True when the row has a readable column, or holds no version at all (a key-only row). */
  readonly visible: boolean;
  /** The view holds for instants in `[fromMs, untilMs)` under the same limits and versions. */
  readonly fromMs: number;
  readonly untilMs: number;
}

/** Number of leading versions of `versions` (newest first) that are readable at `nowMs`. */
export function readableCount(versions: readonly Version[], limits: VersionLimits, nowMs: number): number {
  const n = Math.min(versions.length, limits.maxVersions);
  let i = 0;
  while (i < n && nowMs < versionExpiryMs(versions[i]!.ts, limits.timeToLive)) i++;
  return i;
}

/** A row of versioned columns. */
export class VersionedRow {
  /** The `_id` value (the primary key). */
  readonly id: unknown;
  /** Column → versions, newest first; a column with no version is not kept. */
  private cols = new Map<string, Version[]>();
  private versions = 0;
  /** Changes whenever a version is added, replaced or removed (a cache key). */
  revision = 0;

  /** An empty row with primary key `id`. */
  constructor(id: unknown) {
    this.id = id;
  }

  /** Versions held, readable or not. */
  get versionCount(): number {
    return this.versions;
  }

  /** The columns and their versions (newest first), in column order. */
  columns(): IterableIterator<[string, readonly Version[]]> {
    return this.cols.entries();
  }

  /** The versions of `column`, newest first (empty when it has none). */
  versionsOf(column: string): readonly Version[] {
    return this.cols.get(column) ?? [];
  }

  /** Adds a version of `column` at `ts`; an existing version at `ts` gets the new value. */
  put(column: string, value: unknown, ts: number): void {
    let list = this.cols.get(column);
    if (!list) this.cols.set(column, (list = []));
    let i = 0;
    while (i < list.length && list[i]!.ts > ts) i++;
    if (i < list.length && list[i]!.ts === ts) list[i] = { value, ts };
    else {
      list.splice(i, 0, { value, ts });
      this.versions++;
    }
    this.revision++;
  }

  /** Removes every version of `column`; returns how many there were. */
  deleteColumn(column: string): number {
    const list = this.cols.get(column);
    if (!list) return 0;
    this.cols.delete(column);
    this.versions -= list.length;
    this.revision++;
    return list.length;
  }

  /** Puts the columns named in `order` first, in that order; the others keep theirs after them. */
  orderColumns(order: readonly string[]): void {
    const next = new Map<string, Version[]>();
    for (const name of order) {
      const list = this.cols.get(name);
      if (list) next.set(name, list);
    }
    for (const [name, list] of this.cols) if (!next.has(name)) next.set(name, list);
    this.cols = next;
  }

  /** The document a read sees at `nowMs`: each column's newest readable version. */
  view(limits: VersionLimits, nowMs: number): RowView {
    const doc: Document = { _id: this.id };
    let fromMs = -Infinity;
    let untilMs = Infinity;
    let readable = false;
    for (const [name, list] of this.cols) {
      // The newest version is always within maxVersions (≥ 1): the column is readable exactly
      // while that version is within timeToLive.
      const newest = list[0]!;
      const expiry = versionExpiryMs(newest.ts, limits.timeToLive);
      if (nowMs < expiry) {
        doc[name] = newest.value;
        readable = true;
        if (expiry < untilMs) untilMs = expiry;
      } else if (expiry > fromMs) fromMs = expiry;
    }
    return { doc, visible: readable || this.versions === 0, fromMs, untilMs };
  }

  /**
   * The readable versions of each column at `nowMs`, restricted to timestamps in `timeRange`
   * (`[start, end)`) and to the newest `maxVersions` of those; columns left with none are omitted.
   */
  readableVersions(limits: VersionLimits, nowMs: number, maxVersions: number, timeRange: readonly [number, number] | null): Array<[string, Version[]]> {
    const out: Array<[string, Version[]]> = [];
    for (const [name, list] of this.cols) {
      const n = readableCount(list, limits, nowMs);
      const picked: Version[] = [];
      for (let i = 0; i < n && picked.length < maxVersions; i++) {
        const v = list[i]!;
        if (timeRange && (v.ts < timeRange[0] || v.ts >= timeRange[1])) continue;
        picked.push(v);
      }
      if (picked.length > 0) out.push([name, picked]);
    }
    return out;
  }

  /** Removes every version unreadable at `nowMs` (and columns left empty); returns how many. */
  purge(limits: VersionLimits, nowMs: number): number {
    let removed = 0;
    for (const [name, list] of [...this.cols]) {
      const keep = readableCount(list, limits, nowMs);
      if (keep === list.length) continue;
      removed += list.length - keep;
      if (keep === 0) this.cols.delete(name);
      else list.length = keep;
    }
    if (removed > 0) {
      this.versions -= removed;
      this.revision++;
    }
    return removed;
  }

  /**
   * When `purge` next has something to remove, seen at `nowMs`: `nowMs` when a column holds more
   * than `maxVersions` versions (they are unreadable already), else the earliest instant a
   * version passes `timeToLive` (the oldest of some column); +Infinity when never.
   */
  purgeDueMs(limits: VersionLimits, nowMs: number): number {
    let due = Infinity;
    for (const list of this.cols.values()) {
      if (list.length > limits.maxVersions) return nowMs;
      const expiry = versionExpiryMs(list[list.length - 1]!.ts, limits.timeToLive);
      if (expiry < due) due = expiry;
    }
    return due;
  }

  /** A copy of this row (same values, shared: versions are never mutated in place). */
  copy(): VersionedRow {
    const out = new VersionedRow(this.id);
    for (const [name, list] of this.cols) out.cols.set(name, [...list]);
    out.versions = this.versions;
    return out;
  }
}
