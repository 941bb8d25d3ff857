/**
 * The shared TTL engine (TTL.md): clock, expiry schedule, policies and reaper. It is an observer
 * of the catalog's write path (`storage/write/observers.ts`): every committed insert and update
 * of a collection with a TTL job is scheduled, drops, renames and index changes re-derive the
 * jobs; it installs the visibility check of the Cosmos policy. It validates TTL index options for createIndexes and
 * collMod, and runs the one background reaper. Versioned collections (Tablestore semantics) get
 * their row model, purge job and write handlers here too. See `src/ttl/README.md` for the algorithm.
 */
import { Long, type Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { formatValue } from '../storage/values/format.js';
import type { Logger } from '../logger.js';
import type { Catalog } from '../storage/catalog.js';
import type { Collection, VisibilityCheck } from '../storage/collection.js';
import type { DeleteCause, OpObserver } from '../storage/write/observers.js';
import type { StoredDocument } from '../storage/record.js';
import type { Clock } from './clock.js';
import { CollectionTtlJob, CosmosJob, CustomPathJob, cosmosRecordExpiryMs, NativeJob, UnusableJob, VersionedJob, nativeSignature, type TtlJob } from './jobs.js';
import { DEFAULT_TTL_SETTINGS, type TtlSettings } from './parameters.js';
import { COSMOS_TS_ONLY_MESSAGE, checkContainerTtl, isCosmosTtlKey } from './policies/cosmos.js';
import { checkIndexTtl, collModSeconds, isBtreeKey } from './policies/native.js';
import { checkOneTtlIndex, isCustomPathKey } from './policies/cosmos_custom_path.js';
import { limitsFromOptions, parseVersionedOptions, versionedOptionsDocument } from './policies/versioned.js';
import { VersionedStore } from '../storage/versioned/store.js';
import { collectionTtlOf } from '../storage/timeseries/kind.js';
import { Reaper, type TtlCounters } from './reaper.js';
import { safeNumberLong } from '../storage/values/numeric.js';

/** What the engine needs from the server. */
export interface TtlEngineOptions {
  readonly catalog: Catalog;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly compat: 'cosmos' | 'mongodb';
  /** Cosmos DB's EnableTtlOnCustomPath capability: in cosmos mode, one TTL index on a field other than `_ts`. */
  readonly ttlOnCustomPath?: boolean;
  /** Client requests received so far (they pace the reaper). */
  readonly requestsReceived?: () => number;
  /** How many deletions the reaper may make now (Cosmos request units); unlimited when not given. */
  readonly deleteAllowance?: () => number;
}

/** The TTL state of one collection: its Cosmos job (if any) and its native jobs by index name. */
interface CollectionTtl {
  cosmos: CosmosJob | CustomPathJob | null;
  native: Map<string, NativeJob | UnusableJob | CollectionTtlJob>;
}

/** The versioned policy of one versioned collection: its row model and its purge job. */
interface VersionedState {
  readonly store: VersionedStore;
  readonly job: VersionedJob;
}

/** What the engine does after the committed writes of one collection with TTL jobs. */
interface WriteHandlers {
  /** After an insert or an update of `rec`. */
  track(rec: StoredDocument): void;
  /** After the removal of `rec` (`cause`: why, when the storage removed it on its own). */
  deleted?(rec: StoredDocument, cause: DeleteCause | undefined): void;
}

/** The TTL engine of one server. */
export class TtlEngine {
  private readonly options: TtlEngineOptions;
  private readonly counters: TtlCounters = { deletedDocuments: 0, passes: 0, subPasses: 0, invalidTTLIndexSkips: 0 };
  /** The TTL parameters (getParameter/setParameter, command line): read here, set by `setSetting`. */
  readonly settings: Readonly<TtlSettings> = { ...DEFAULT_TTL_SETTINGS };
  private readonly states = new Map<Collection, CollectionTtl>();
  /**
   * The container TTL each collection's visibility hook reads (null: no Cosmos TTL). One cell per
   * collection for its lifetime, so that a scan that captured the hook before a collMod or an
   * index drop still sees the current policy.
   */
  private readonly containerTtls = new WeakMap<Collection, { containerTtl: number | null }>();
  private readonly reaper: Reaper;
  /** What follows the writes of each collection with TTL jobs or a versioned row model. */
  private readonly handlers = new Map<Collection, WriteHandlers>();
  /** Versioned collections (TTL.md "Versioned collections"), attached when created. */
  private readonly versioned = new Map<Collection, VersionedState>();
  /** True once this server has had a versioned collection: `deletedVersions` is then reported. */
  private versionedSeen = false;

  /** An engine bound to a server's catalog and clock. */
  constructor(options: TtlEngineOptions) {
    this.options = options;
    this.reaper = new Reaper({
      settings: this.settings,
      clock: options.clock,
      counters: this.counters,
      logger: options.logger,
      jobs: () => this.jobs(),
      remove: (coll, recs, count) => this.reapRecords(coll, recs, count),
      requestsReceived: options.requestsReceived,
      deleteAllowance: options.deleteAllowance,
    });
    // A versioned collection gets its row model at once, before any write reaches it.
    options.catalog.addListener({ collectionCreated: (coll) => this.attachVersioned(coll) });
    options.catalog.writes.observers.add(this.observer());
  }

  /** The engine as an observer of the write path. */
  private observer(): OpObserver {
    const handlersOf = (target: unknown): WriteHandlers | undefined => this.handlers.get(target as Collection);
    return {
      onInserts: (events) => {
        const handlers = handlersOf(events[0]!.collection);
        if (handlers) for (const event of events) handlers.track(event.record);
      },
      onUpdate: (event) => handlersOf(event.collection)?.track(event.record),
      onDelete: (event) => handlersOf(event.collection)?.deleted?.(event.record, event.cause),
      onDropCollection: (event) => this.forget(event.collection as Collection),
      onRenameCollection: (event) => {
        if (event.droppedTarget) this.forget(event.droppedTarget as Collection);
        // Across databases the collection is a new object holding the moved documents.
        if (event.source !== event.collection) {
          this.forget(event.source as Collection);
          this.sync(event.collection as Collection);
        }
      },
      onCreateIndexes: (event) => this.sync(event.collection as Collection),
      onDropIndexes: (event) => this.sync(event.collection as Collection),
      onCollMod: (event) => this.sync(event.collection as Collection),
      // A time-series or clustered collection may be created with its own TTL.
      onCreateCollection: (event) => this.sync(event.collection as Collection),
    };
  }

  /** Changes one TTL setting (a parameter set at startup or by setParameter). */
  setSetting<K extends keyof TtlSettings>(key: K, value: TtlSettings[K]): void {
    (this.settings as TtlSettings)[key] = value;
    // A new sleep re-arms the monitor's timer at once.
    if (key === 'sleepSecs') this.reaper.sleepSecsChanged();
  }

  /** Starts the background monitor. */
  start(): void {
    this.reaper.start();
  }

  /** Stops the background monitor (a running pass stops at its next slice). */
  async stop(): Promise<void> {
    await this.reaper.stop();
  }

  /**
   * Runs one reaper pass now and reports what it deleted: `{ deleted, subPasses }` as Int64, and
   * `deletedVersions` once the server has had a versioned collection.
   */
  async runPass(): Promise<Document> {
    const result = await this.reaper.runPass();
    const reply: Document = { deleted: Long.fromNumber(result.deleted), subPasses: Long.fromNumber(result.subPasses) };
    if (this.versionedSeen) reply.deletedVersions = Long.fromNumber(result.deletedVersions ?? 0);
    return reply;
  }

  /**
   * `serverStatus().metrics.ttl`; `deletedVersions` (versions purged from versioned collections)
   * appears once the server has had a versioned collection.
   */
  metrics(): Document {
    const c = this.counters;
    const out: Document = {
      deletedDocuments: Long.fromNumber(c.deletedDocuments),
      invalidTTLIndexSkips: Long.fromNumber(c.invalidTTLIndexSkips),
      passes: Long.fromNumber(c.passes),
      subPasses: Long.fromNumber(c.subPasses),
    };
    if (this.versionedSeen) out.deletedVersions = Long.fromNumber(c.deletedVersions ?? 0);
    return out;
  }

  /** The row model of `coll` when it is a versioned collection. */
  versionedStore(coll: Collection): VersionedStore | undefined {
    return this.versioned.get(coll)?.store;
  }

  /** Checks collMod's `versioned: {...}` for `coll` without applying it (errors as `modifyVersioned`). */
  checkVersionedChange(coll: Collection, raw: Document): void {
    const state = this.versioned.get(coll);
    if (!state) throw new CommandError('InvalidOptions', 'option only supported on a versioned collection: versioned');
    parseVersionedOptions(raw, 'collMod', state.store.limits);
  }

  /**
   * collMod's `versioned: {...}`: validates the fields given (the others keep their values),
   * applies them at once (views follow; the purge schedule is rebuilt) and returns the
   * `versioned` options before and after. 72 InvalidOptions on a collection that is not versioned.
   */
  modifyVersioned(coll: Collection, raw: Document): { before: Document; after: Document } {
    const state = this.versioned.get(coll);
    if (!state) throw new CommandError('InvalidOptions', 'option only supported on a versioned collection: versioned');
    const old = state.store.limits;
    const next = parseVersionedOptions(raw, 'collMod', old);
    const before = versionedOptionsDocument(old);
    const after = versionedOptionsDocument(next);
    if (next.maxVersions !== old.maxVersions || next.timeToLive !== old.timeToLive || next.maxTimeDeviation !== old.maxTimeDeviation) {
      state.store.setLimits(next);
      coll.options = { ...coll.options, versioned: after };
      state.job.rebuild();
    }
    return { before, after };
  }

  /**
   * Validates the TTL options of a normalised createIndexes spec (`raw` is the spec as the
   * client sent it, quoted in mongod's errors); returns the spec to store, with
   * `expireAfterSeconds` as an Int32.
   */
  checkIndexSpec(spec: Document, raw: Document): Document {
    if (!('expireAfterSeconds' in spec)) return spec;
    const key = spec.key as Document;
    const value = spec.expireAfterSeconds;
    let seconds: number;
    if (isCosmosTtlKey(key)) seconds = checkContainerTtl(value);
    else if (this.compat === 'cosmos' && !this.customPath) throw new CommandError('BadValue', COSMOS_TS_ONLY_MESSAGE);
    else seconds = checkIndexTtl(value, key, raw);
    const out: Document = {};
    for (const [k, v] of Object.entries(spec)) out[k] = k === 'expireAfterSeconds' ? seconds : v;
    return out;
  }

  /**
   * The `expireAfterSeconds` a collMod stores on index `spec` for the requested `value` (already
   * known to be a number): Cosmos rules on `_ts` (2 BadValue), in cosmos mode 2 BadValue on any
   * other index, else mongod's conversion and checks (72 InvalidOptions).
   */
  collModExpireAfterSeconds(spec: Document, value: unknown): number {
    if (isCosmosTtlKey(spec.key)) return checkContainerTtl(value);
    if (this.compat === 'cosmos' && !this.customPath) throw new CommandError('BadValue', COSMOS_TS_ONLY_MESSAGE);
    const seconds = collModSeconds(value);
    if (seconds < 0) throw new CommandError('InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0");
    if (!('expireAfterSeconds' in spec)) {
      const fields = Object.keys(spec.key as Document);
      if (fields.length === 1 && fields[0] === '_id') throw new CommandError('InvalidOptions', 'the _id field does not support TTL indexes');
      if (fields.length !== 1) {
        throw new CommandError('InvalidOptions', 'TTL indexes are single-field indexes, compound indexes do not support TTL');
      }
    }
    return seconds;
  }

  /**
   * With EnableTtlOnCustomPath (cosmos mode): 2 BadValue when the new `specs` and the collection's
   * `existing` specs would hold more than one TTL index (`_ts` or a custom path).
   */
  checkTtlIndexCount(specs: readonly Document[], existing: readonly Document[]): void {
    if (this.customPath) checkOneTtlIndex(specs, existing);
  }

  /** True when TTL indexes on a field other than `_ts` follow Cosmos DB's custom-path policy. */
  private get customPath(): boolean {
    return this.options.compat === 'cosmos' && this.options.ttlOnCustomPath === true;
  }

  /** Told after an index is built. */
  indexCreated(coll: Collection, _spec: Document): void {
    this.sync(coll);
  }

  /** Told after an index is dropped (dropping the `_ts` TTL index turns the Cosmos TTL off). */
  indexDropped(coll: Collection, _spec: Document): void {
    this.sync(coll);
  }

  /** Told after collMod changed an index spec (TTL or hidden). */
  indexModified(coll: Collection): void {
    this.sync(coll);
  }

  /** The compat mode the engine runs in. */
  get compat(): 'cosmos' | 'mongodb' {
    return this.options.compat;
  }

  /** Entries in the expiry schedules of `coll` (stale ones included), for diagnostics and tests. */
  scheduledCount(coll: Collection): number {
    const versioned = this.versioned.get(coll);
    if (versioned) return versioned.job.schedule.size;
    const state = this.states.get(coll);
    if (!state) return 0;
    let n = state.cosmos?.schedule.size ?? 0;
    for (const job of state.native.values()) if (job instanceof NativeJob) n += job.schedule.size;
    return n;
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Every active job, collection by collection (the reaper's round-robin order). */
  private jobs(): TtlJob[] {
    const out: TtlJob[] = [];
    for (const state of this.states.values()) {
      if (state.cosmos) out.push(state.cosmos);
      for (const job of state.native.values()) out.push(job);
    }
    for (const state of this.versioned.values()) out.push(state.job);
    return out;
  }

  /** Derives the TTL jobs of `coll` from its index specs, keeping the ones that did not change. */
  private sync(coll: Collection): void {
    // A versioned collection has no secondary index; its handlers were installed when it was attached.
    if (this.versioned.has(coll)) return;
    const old = this.states.get(coll);
    let cosmos: CosmosJob | CustomPathJob | null = null;
    const native = new Map<string, NativeJob | UnusableJob | CollectionTtlJob>();
    for (const index of coll.indexes) {
      const spec = index.spec;
      if (!('expireAfterSeconds' in spec)) continue;
      const key = spec.key as Document;
      if (isCosmosTtlKey(key)) {
        if (cosmos) continue; // one container TTL: the first `_ts` TTL index decides
        const containerTtl = Number(safeNumberLong(spec.expireAfterSeconds)!);
        const previous = old?.cosmos;
        cosmos = previous instanceof CosmosJob && previous.signature === `cosmos:${index.name}:${containerTtl}` ? previous : new CosmosJob(coll, index.name, containerTtl);
        if (cosmos !== previous) cosmos.rebuild();
        continue;
      }
      const filterText = spec.partialFilterExpression === undefined ? '' : formatValue(spec.partialFilterExpression);
      const signature = nativeSignature(spec, formatValue(key), filterText);
      if (this.customPath && isCustomPathKey(key)) {
        if (cosmos) continue; // one TTL index per collection (createIndexes refuses a second)
        const previous = old?.cosmos;
        cosmos = previous instanceof CustomPathJob && previous.signature === `customPath:${signature}` ? previous : new CustomPathJob(coll, index, Number(safeNumberLong(spec.expireAfterSeconds)!), signature);
        if (cosmos !== previous) cosmos.rebuild();
        continue;
      }
      const previous = old?.native.get(index.name);
      if (previous && previous.signature === signature) {
        native.set(index.name, previous);
        continue;
      }
      if (isBtreeKey(key)) {
        const job = new NativeJob(coll, index, Number(safeNumberLong(spec.expireAfterSeconds)!), signature);
        job.rebuild();
        native.set(index.name, job);
      } else {
        native.set(index.name, new UnusableJob(coll, index.name, signature));
      }
    }
    // A time-series or clustered collection's own `expireAfterSeconds` (storage/timeseries/kind.ts).
    const own = collectionTtlOf(coll.options);
    if (own) {
      const previous = old?.native.get('');
      const job = previous && previous.signature === `collection:${own.path}:${own.seconds}` ? previous : new CollectionTtlJob(coll, own.path, own.seconds);
      if (job !== previous && job instanceof CollectionTtlJob) job.rebuild();
      native.set('', job);
    }
    if (old) {
      if (old.cosmos && old.cosmos !== cosmos) old.cosmos.active = false;
      for (const [name, job] of old.native) if (native.get(name) !== job) job.active = false;
    }
    const cell = this.containerTtls.get(coll);
    if (cell) cell.containerTtl = cosmos instanceof CosmosJob ? cosmos.containerTtl : null;
    if (!cosmos && native.size === 0) {
      if (old) this.states.delete(coll);
      this.handlers.delete(coll);
      coll.visibility = null;
      return;
    }
    const state: CollectionTtl = { cosmos, native };
    this.states.set(coll, state);
    this.install(coll, state);
  }

  /** Installs the write handlers (and, for the Cosmos policy, the visibility check) of a collection with TTL jobs. */
  private install(coll: Collection, state: CollectionTtl): void {
    const jobs: TtlJob[] = [...(state.cosmos ? [state.cosmos] : []), ...state.native.values()];
    const handlers: WriteHandlers = {
      track: (rec) => {
        for (const job of jobs) job.track(rec);
      },
    };
    let visibility: VisibilityCheck | null = null;
    const custom = state.cosmos instanceof CustomPathJob ? state.cosmos : null;
    if (custom) {
      // An expired document is invisible at once, as under `_ts`; one removed before the reaper
      // reached it (an insert or a unique key taking its place) counts as a TTL deletion.
      visibility = (rec, nowMs) => nowMs < custom.expiryMs(rec);
      handlers.deleted = (rec, cause) => {
        if (cause !== 'ttl' && this.options.clock.now() >= custom.expiryMs(rec)) this.counters.deletedDocuments++;
      };
    } else if (state.cosmos instanceof CosmosJob) {
      let cell = this.containerTtls.get(coll);
      if (!cell) this.containerTtls.set(coll, (cell = { containerTtl: null }));
      cell.containerTtl = state.cosmos.containerTtl;
      const current = cell;
      visibility = (rec, nowMs) => current.containerTtl === null || nowMs < cosmosRecordExpiryMs(rec, current.containerTtl);
      // An expired document removed before the reaper reached it (an insert or a unique key
      // taking its place) is a TTL deletion too: count it. The reaper counts its own.
      handlers.deleted = (rec, cause) => {
        if (cause === 'ttl' || current.containerTtl === null) return;
        if (this.options.clock.now() >= cosmosRecordExpiryMs(rec, current.containerTtl)) this.counters.deletedDocuments++;
      };
    }
    this.handlers.set(coll, handlers);
    coll.visibility = visibility;
  }

  /** Removes `recs[0, count)` for the reaper (those `coll` still holds), in one write unit; returns how many. */
  private reapRecords(coll: Collection, recs: StoredDocument[], count: number): number {
    return this.options.catalog.writes.run(() => coll.removeRecords(recs, count, 'ttl'));
  }

  /**
   * Makes `coll` a versioned collection when its options say so: installs its row model, its
   * purge job and write handlers (visibility: a row with versions but none readable is invisible).
   */
  private attachVersioned(coll: Collection): void {
    const limits = limitsFromOptions(coll.options);
    if (!limits || this.versioned.has(coll)) return;
    const clock = this.options.clock;
    const now = (): number => clock.now();
    const store = new VersionedStore(coll, limits, now);
    const job = new VersionedJob(coll, store, now);
    this.versioned.set(coll, { store, job });
    this.versionedSeen = true;
    coll.rowModel = store;
    coll.visibility = (rec, nowMs) => store.isVisible(rec, nowMs);
    this.handlers.set(coll, {
      track: (rec) => job.track(rec),
      // A row whose versions are all unreadable, removed before the reaper reached it (an
      // insert taking its _id), is a TTL deletion too: count it and its versions.
      deleted: (rec, cause) => {
        if (cause === 'ttl') return;
        const versions = store.versionCount(rec);
        if (versions === 0 || store.isVisible(rec, clock.now())) return;
        this.counters.deletedDocuments++;
        this.counters.deletedVersions = (this.counters.deletedVersions ?? 0) + versions;
      },
    });
  }

  /** Forgets a dropped collection. */
  private forget(coll: Collection): void {
    this.handlers.delete(coll);
    const versioned = this.versioned.get(coll);
    if (versioned) {
      versioned.job.active = false;
      versioned.job.clear();
      this.versioned.delete(coll);
    }
    const state = this.states.get(coll);
    if (!state) return;
    for (const job of [...(state.cosmos ? [state.cosmos] : []), ...state.native.values()]) {
      job.active = false;
      job.clear();
    }
    this.states.delete(coll);
  }
}
