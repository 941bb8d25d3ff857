/**
 * The row model of one versioned collection (`Collection.rowModel`): how its records hold rows
 * of versioned columns and how ordinary writes become versions.
 *
 * A `VersionedRecord` is a `StoredDocument` whose `doc` is derived on access from its row, the
 * collection's current limits and the clock (cached while none of them changes it), so every
 * read path of the server (find, aggregate, count, distinct, cursors, the write commands'
 * matching) sees each row as a plain document of its newest readable versions without knowing
 * about versions. Writes go through the collection, which hands them to this model:
 *
 * - insert: every column becomes one version at the write's now;
 * - update / replace / findAndModify: the new document is compared with what the client saw;
 *   each column whose value changed (or that appears) gets a version at now, each column that
 *   disappeared loses all its versions (Tablestore's "delete all versions"), and a column left
 *   identical gets no version (the write did not modify it, as mongod reports);
 * - delete: the whole row goes;
 * - `putRow`: one version per given column, at the given timestamps or now.
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection, RowModel } from '../collection.js';
import type { StoredDocument } from '../record.js';
import { identicalValues } from '../update/identical.js';
import { keyString } from '../values/key_string.js';
import type { VersionLimits } from './limits.js';
import { VersionedRow, type RowView, type Version } from './row.js';

/** One column a `putRow` writes: its value and the version timestamp (ms). */
export interface Cell {
  readonly column: string;
  readonly value: unknown;
  readonly ts: number;
}

/** A record of a versioned collection: its row, and the plain document derived from it. */
export class VersionedRecord implements StoredDocument {
  readonly id: string;
  modifiedAtMs: number;
  /** The row with every version it still holds. */
  readonly row: VersionedRow;
  private readonly store: VersionedStore;
  /** The last view computed, with the row and limits revisions it was computed from. */
  cached: { view: RowView; rowRevision: number; limitsRevision: number } | null = null;

  /** A record of `store` holding `row`. */
  constructor(store: VersionedStore, id: string, row: VersionedRow, modifiedAtMs: number) {
    this.store = store;
    this.id = id;
    this.row = row;
    this.modifiedAtMs = modifiedAtMs;
  }

  /** The row as a plain document at the clock's now (each column's newest readable version). */
  get doc(): Document {
    return this.store.viewOf(this, this.store.now()).doc;
  }

  /** Rows are written through their collection (`Collection.update`), never by assignment. */
  set doc(_next: Document) {
    throw new Error('a versioned row is written through its collection, not by assigning doc');
  }
}

/** The row model of one versioned collection. */
export class VersionedStore implements RowModel {
  /** The server clock's now (ms). */
  readonly now: () => number;
  private readonly coll: Collection;
  private current: VersionLimits;
  private limitsRevision = 0;

  /** The model of `coll` under `limits`, reading time from `now`. */
  constructor(coll: Collection, limits: VersionLimits, now: () => number) {
    this.coll = coll;
    this.current = limits;
    this.now = now;
  }

  /** The limits in force. */
  get limits(): VersionLimits {
    return this.current;
  }

  /** Changes the limits; every view follows at once (hidden versions come back before a purge). */
  setLimits(limits: VersionLimits): void {
    this.current = limits;
    this.limitsRevision++;
  }

  /** The view of `rec` at `nowMs` (cached while the row, the limits and the instant allow). */
  viewOf(rec: VersionedRecord, nowMs: number): RowView {
    const c = rec.cached;
    if (
      c &&
      c.rowRevision === rec.row.revision &&
      c.limitsRevision === this.limitsRevision &&
      nowMs >= c.view.fromMs &&
      nowMs < c.view.untilMs
    ) {
      return c.view;
    }
    const view = rec.row.view(this.current, nowMs);
    rec.cached = { view, rowRevision: rec.row.revision, limitsRevision: this.limitsRevision };
    return view;
  }

  /** True when `rec` has a readable column at `nowMs` (or holds no version at all). */
  isVisible(rec: StoredDocument, nowMs: number): boolean {
    return this.viewOf(asVersioned(rec), nowMs).visible;
  }

  // ---- RowModel: how the collection stores writes -------------------------------------------

  /** An inserted document: one version per column at `nowMs`. */
  create(id: string, doc: Document, nowMs: number): StoredDocument {
    const row = new VersionedRow(doc._id);
    for (const [name, value] of Object.entries(doc)) if (name !== '_id') row.put(name, value, nowMs);
    return new VersionedRecord(this, id, row, nowMs);
  }

  /** An update or replacement of `rec` by `next`: versions for what changed, deletions for what went. */
  modify(rec: StoredDocument, next: Document, nowMs: number): void {
    const record = asVersioned(rec);
    const seen = this.viewOf(record, nowMs).doc;
    const row = record.row;
    for (const [name, value] of Object.entries(next)) {
      if (name === '_id') continue;
      if (!(name in seen) || !identicalValues(seen[name], value)) row.put(name, value, nowMs);
    }
    for (const name of Object.keys(seen)) if (name !== '_id' && !(name in next)) row.deleteColumn(name);
    row.orderColumns(Object.keys(next).filter((name) => name !== '_id'));
    record.modifiedAtMs = nowMs;
  }

  /** The record of `rec`'s row for this model (a collection moved to another database). */
  adopt(rec: StoredDocument): StoredDocument {
    const from = asVersioned(rec);
    return new VersionedRecord(this, from.id, from.row.copy(), from.modifiedAtMs);
  }

  /** Versioned collections have no secondary index: their documents change with time. */
  checkIndex(spec: Document): void {
    throw new CommandError(
      'CannotCreateIndex',
      `Index ${String(spec.name)} cannot be built: versioned collection ${this.coll.ns} supports no secondary index (only _id)`,
    );
  }

  // ---- version-level access (putRow, getRow, getRange, the reaper) ---------------------------

  /**
   * Writes `cells` as new versions of the row with primary key `idValue` (created when absent,
   * kept with its unreadable versions when present). The caller has checked the write range.
   */
  putRow(idValue: unknown, cells: readonly Cell[], nowMs: number): void {
    const id = keyString(idValue);
    const existing = this.coll.rawGet(id);
    if (existing) {
      const record = asVersioned(existing);
      const before = record.doc;
      for (const cell of cells) record.row.put(cell.column, cell.value, cell.ts);
      this.coll.rowChanged(record, nowMs, before);
      return;
    }
    const row = new VersionedRow(idValue);
    for (const cell of cells) row.put(cell.column, cell.value, cell.ts);
    this.coll.insertRecord(new VersionedRecord(this, id, row, nowMs));
  }

  /**
   * `{ _id, <column>: [{ value, timestamp }, …newest first] }` for `rec` at `nowMs`: readable
   * versions within `timeRange` (`[start, end)` ms, or all), at most `maxVersions` per column.
   * Null when the row holds versions but none qualifies; `{ _id }` for a row without columns.
   */
  versionsDocument(rec: StoredDocument, nowMs: number, maxVersions: number, timeRange: readonly [number, number] | null): Document | null {
    const row = asVersioned(rec).row;
    const columns = row.readableVersions(this.current, nowMs, maxVersions, timeRange);
    if (columns.length === 0 && row.versionCount > 0) return null;
    const out: Document = { _id: row.id };
    for (const [name, versions] of columns) out[name] = versions.map(versionDocument);
    return out;
  }

  /** Removes the versions of `rec` unreadable at `nowMs`; returns how many. */
  purge(rec: StoredDocument, nowMs: number): number {
    return asVersioned(rec).row.purge(this.current, nowMs);
  }

  /** When the reaper next has versions of `rec` to purge, seen at `nowMs` (+Infinity: never). */
  purgeDueMs(rec: StoredDocument, nowMs: number): number {
    return asVersioned(rec).row.purgeDueMs(this.current, nowMs);
  }

  /** Versions `rec` holds, readable or not. */
  versionCount(rec: StoredDocument): number {
    return asVersioned(rec).row.versionCount;
  }
}

/** `{ value, timestamp }` with the timestamp as an Int64 number of ms (Tablestore's version). */
function versionDocument(v: Version): Document {
  return { value: v.value, timestamp: Long.fromNumber(v.ts) };
}

/** `rec` as the versioned record it must be. */
function asVersioned(rec: StoredDocument): VersionedRecord {
  if (!(rec instanceof VersionedRecord)) throw new Error('a versioned collection holds a record that is not a versioned row');
  return rec;
}
