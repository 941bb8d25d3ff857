/**
 * TTL jobs: one per TTL index of a collection. A job keeps the expiry schedule of its index
 * (every record with a finite expiry, keyed by that expiry) and removes what is due, a bounded
 * number of entries at a time so that the reaper can yield between slices.
 *
 * A schedule entry is stale when its expiry moved later (an update pushed a newer entry) or
 * when its record was removed (the collection no longer holds that very object); the first is
 * detected when the entry reaches the top by recomputing the record's expiry from the current
 * policy, the second by `Collection.removeRecords`, which removes only the very records it is
 * given and leaves out those it no longer holds. Policy changes (collMod, index drop) replace
 * the job, so its entries never outlive it.
 */
import type { Document } from '../bson/library.js';
import { documentField, type StoredDocument } from '../storage/record.js';
import type { Collection } from '../storage/collection.js';
import type { Index } from '../storage/indexes/index.js';
import { parsePath, type ParsedPath } from '../storage/values/paths.js';
import { COSMOS_TTL_FIELD, cosmosExpiryMs } from './policies/cosmos.js';
import { nativeExpiryMs } from './policies/native.js';
import { customPathExpiryMs } from './policies/cosmos_custom_path.js';
import { ExpirySchedule } from './schedule.js';
import type { VersionedStore } from '../storage/versioned/store.js';

/** Kinds of TTL jobs. */
export const TtlJobKinds = ['cosmos', 'customPath', 'native', 'unusable', 'versioned'] as const;
/** One of `TtlJobKinds`. */
export type TtlJobKind = (typeof TtlJobKinds)[number];

/** What one call of `reapSome` did. */
export interface ReapStep {
  /** Records removed. */
  deleted: number;
  /** True when nothing more is due at the `nowMs` given. */
  exhausted: boolean;
  /** Versions purged from rows of a versioned collection (those of removed rows included). */
  versions?: number;
}

/**
 * Removes the expired records `recs[0, count)` of `coll` on the reaper's behalf, those still
 * held (`Collection.removeRecords`), and returns how many.
 */
export type RemoveRecords = (coll: Collection, recs: StoredDocument[], count: number) => number;

/** Stale entries tolerated beyond twice the record count before a schedule is compacted. */
const COMPACT_SLACK = 1024;

/** Behaviour common to every TTL job. */
export interface TtlJob {
  readonly kind: TtlJobKind;
  readonly coll: Collection;
  readonly indexName: string;
  /** False once the job was replaced or its collection dropped. */
  active: boolean;
  /** A string that changes whenever the job must be rebuilt (policy parameters). */
  readonly signature: string;
  /** Schedules `rec` after an insert or a modification. */
  track(rec: StoredDocument): void;
  /** Removes due records, popping at most `maxEntries` schedule entries. */
  reapSome(nowMs: number, maxEntries: number, remove: RemoveRecords): ReapStep;
  /** Forgets every entry (the collection was emptied). */
  clear(): void;
}

/** A job driven by an expiry schedule. */
abstract class ScheduledJob implements TtlJob {
  abstract readonly kind: TtlJobKind;
  abstract readonly signature: string;
  readonly coll: Collection;
  readonly indexName: string;
  active = true;
  readonly schedule = new ExpirySchedule<StoredDocument>();

  constructor(coll: Collection, indexName: string) {
    this.coll = coll;
    this.indexName = indexName;
  }

  /** The instant `rec` expires under this job's policy; +Infinity for never. */
  abstract expiryMs(rec: StoredDocument): number;

  /** Builds the schedule from every stored record (O(n)). */
  rebuild(): void {
    const entries: Array<[number, StoredDocument]> = [];
    for (const rec of this.coll.allRecords()) {
      const at = this.expiryMs(rec);
      if (at !== Infinity) entries.push([at, rec]);
    }
    this.schedule.rebuild(entries);
  }

  track(rec: StoredDocument): void {
    const at = this.expiryMs(rec);
    if (at === Infinity) return;
    this.schedule.push(at, rec);
    if (this.schedule.size > 2 * this.coll.storedCount + COMPACT_SLACK) this.rebuild();
  }

  reapSome(nowMs: number, maxEntries: number, remove: RemoveRecords): ReapStep {
    const schedule = this.schedule;
    const due: StoredDocument[] = [];
    for (let popped = 0; popped < maxEntries && schedule.peekKey() <= nowMs; popped++) {
      const rec = schedule.pop()!;
      // Modified since it was scheduled: a later entry exists. Removed since (or replaced by
      // a new record with the same _id): `remove` finds it gone and leaves it out.
      if (this.expiryMs(rec) <= nowMs) due.push(rec);
    }
    const deleted = due.length > 0 ? remove(this.coll, due, due.length) : 0;
    return { deleted, exhausted: schedule.peekKey() > nowMs };
  }

  clear(): void {
    this.schedule.clear();
  }
}

/**
 * The instant `rec` expires under the Cosmos policy with container TTL `containerTtl`: its root
 * `ttl` read from its bytes, counted from its last modification; +Infinity for never.
 */
export function cosmosRecordExpiryMs(rec: StoredDocument, containerTtl: number): number {
  return cosmosExpiryMs(documentField(rec, COSMOS_TTL_FIELD), rec.modifiedAtMs, containerTtl);
}

/** The Cosmos container TTL (a TTL index on `_ts`) and the documents' own `ttl`. */
export class CosmosJob extends ScheduledJob {
  readonly kind = 'cosmos';
  /** The container default TTL in seconds (-1: on, no default). */
  readonly containerTtl: number;
  readonly signature: string;

  constructor(coll: Collection, indexName: string, containerTtl: number) {
    super(coll, indexName);
    this.containerTtl = containerTtl;
    this.signature = `cosmos:${indexName}:${containerTtl}`;
  }

  expiryMs(rec: StoredDocument): number {
    return cosmosRecordExpiryMs(rec, this.containerTtl);
  }
}

/** A MongoDB native TTL index on a Date field. */
export class NativeJob extends ScheduledJob {
  readonly kind = 'native';
  readonly expireAfterSeconds: number;
  readonly signature: string;
  private readonly path: ParsedPath;
  private readonly index: Index;

  constructor(coll: Collection, index: Index, expireAfterSeconds: number, signature: string) {
    super(coll, index.name);
    this.index = index;
    this.expireAfterSeconds = expireAfterSeconds;
    this.path = parsePath(index.fields[0]!);
    this.signature = signature;
  }

  expiryMs(rec: StoredDocument): number {
    const filter = this.index.partialFilter;
    const doc = rec.doc;
    if (filter && !filter(doc)) return Infinity;
    return nativeExpiryMs(doc, this.path, this.expireAfterSeconds);
  }
}

/**
 * The versioned policy of one versioned collection: one schedule entry per row, keyed by the
 * instant its next version becomes purgeable (`VersionedStore.purgeDueMs`: the write's now when a
 * column holds more than `maxVersions` versions, else the earliest TTL expiry of its oldest
 * versions). A due row loses every version unreadable at the pass's instant; a row left without
 * versions is removed (a deleted document). Otherwise it is scheduled again at its next instant.
 *
 * Every write pushes an entry (`track`), so an entry whose row's instant moved later is stale
 * and dropped when it reaches the top; limits changes (collMod) rebuild the schedule.
 */
/**
 * A Cosmos DB custom-path TTL index (EnableTtlOnCustomPath): a record expires `expireAfterSeconds`
 * after the earliest Date or Unix-milliseconds number in its field; it is invisible from then on.
 */
export class CustomPathJob extends ScheduledJob {
  readonly kind = 'customPath';
  readonly expireAfterSeconds: number;
  readonly signature: string;
  private readonly path: ParsedPath;

  constructor(coll: Collection, index: Index, expireAfterSeconds: number, signature: string) {
    super(coll, index.name);
    this.expireAfterSeconds = expireAfterSeconds;
    this.path = parsePath(index.fields[0]!);
    this.signature = `customPath:${signature}`;
  }

  expiryMs(rec: StoredDocument): number {
    return customPathExpiryMs(rec.doc, this.path, this.expireAfterSeconds);
  }
}

export class VersionedJob implements TtlJob {
  readonly kind = 'versioned';
  readonly coll: Collection;
  readonly indexName = '';
  readonly signature = 'versioned';
  active = true;
  readonly schedule = new ExpirySchedule<StoredDocument>();
  private readonly store: VersionedStore;
  private readonly now: () => number;

  /** The job of `coll`, whose row model is `store`; `now` is the server clock. */
  constructor(coll: Collection, store: VersionedStore, now: () => number) {
    this.coll = coll;
    this.store = store;
    this.now = now;
  }

  /** Builds the schedule from every row (O(n)): after a limits change or a compaction. */
  rebuild(): void {
    const nowMs = this.now();
    const entries: Array<[number, StoredDocument]> = [];
    for (const rec of this.coll.allRecords()) {
      const at = this.store.purgeDueMs(rec, nowMs);
      if (at !== Infinity) entries.push([at, rec]);
    }
    this.schedule.rebuild(entries);
  }

  track(rec: StoredDocument): void {
    const at = this.store.purgeDueMs(rec, rec.modifiedAtMs);
    if (at === Infinity) return;
    this.schedule.push(at, rec);
    if (this.schedule.size > 2 * this.coll.storedCount + COMPACT_SLACK) this.rebuild();
  }

  reapSome(nowMs: number, maxEntries: number, remove: RemoveRecords): ReapStep {
    const schedule = this.schedule;
    let deleted = 0;
    let versions = 0;
    const one: StoredDocument[] = [];
    for (let popped = 0; popped < maxEntries && schedule.peekKey() <= nowMs; popped++) {
      const rec = schedule.pop()!;
      if (!this.coll.holds(rec)) continue; // removed since it was scheduled
      if (this.store.purgeDueMs(rec, nowMs) > nowMs) continue; // a later entry exists
      const purged = this.store.purge(rec, nowMs);
      if (this.store.versionCount(rec) === 0) {
        one[0] = rec;
        if (remove(this.coll, one, 1) === 1) {
          deleted++;
          versions += purged;
        }
        continue;
      }
      versions += purged;
      const next = this.store.purgeDueMs(rec, nowMs);
      if (next !== Infinity) schedule.push(next, rec);
    }
    return { deleted, exhausted: schedule.peekKey() > nowMs, versions };
  }

  clear(): void {
    this.schedule.clear();
  }
}

/** A TTL index the monitor cannot use (hashed, text, 2d, 2dsphere): each visit is a skip. */
export class UnusableJob implements TtlJob {
  readonly kind = 'unusable';
  readonly coll: Collection;
  readonly indexName: string;
  readonly signature: string;
  active = true;

  constructor(coll: Collection, indexName: string, signature: string) {
    this.coll = coll;
    this.indexName = indexName;
    this.signature = signature;
  }

  track(): void {}

  reapSome(): ReapStep {
    return { deleted: 0, exhausted: true };
  }

  clear(): void {}
}

/** The signature of a native job over `spec` (its key, TTL and partial filter). */
export function nativeSignature(spec: Document, keyText: string, filterText: string): string {
  return `native:${String(spec.name)}:${keyText}:${String(spec.expireAfterSeconds)}:${filterText}`;
}

/**
 * The TTL of a time-series or clustered collection itself (its `expireAfterSeconds` option,
 * `storage/timeseries/kind.ts`): a record expires once the Date at `path` (the timeField, or
 * `_id`) is `expireAfterSeconds` old, as mongod's TTL monitor deletes a collection's expired
 * buckets or clustered records; any other value never expires. Counted as a native job.
 */
export class CollectionTtlJob extends ScheduledJob {
  readonly kind = 'native';
  readonly expireAfterSeconds: number;
  readonly signature: string;
  private readonly path: ParsedPath;

  constructor(coll: Collection, path: string, expireAfterSeconds: number) {
    super(coll, '');
    this.expireAfterSeconds = expireAfterSeconds;
    this.path = parsePath(path);
    this.signature = `collection:${path}:${expireAfterSeconds}`;
  }

  expiryMs(rec: StoredDocument): number {
    return nativeExpiryMs(rec.doc, this.path, this.expireAfterSeconds);
  }
}
