/**
 * The ports through which stages reach beyond the documents they are given: other collections
 * (`$lookup`, `$unionWith`, `$graphLookup`), the writes of `$out` and `$merge`, and the server's
 * state (`$collStats`, `$indexStats`, `$listLocalSessions`). The command that runs a pipeline fills them in
 * (src/commands/crud/pipeline_runtime.ts); the aggregation layer itself knows no catalog, no
 * collection, no session cache.
 */
import type { Document } from '../../bson/library.js';
import type { Collator } from '../values/collator.js';

/** What a stage reads of the server's collections. */
export interface CollectionReader {
  /** The documents of `name` of the pipeline's database, lazily (none when it does not exist). */
  documents(name: string): Iterable<Document>;
  /** What `$out` and `$merge` check of a target before writing; undefined when it does not exist. */
  describe(db: string, coll: string): CollectionDescription | undefined;
  /** True when `name` of the pipeline's database is a view. */
  isView(name: string): boolean;
  /**
   * The view `name` of the pipeline's database resolves to (`$lookup`, `$unionWith`,
   * `$graphLookup` read a view as its pipeline over the collection its chain ends at); undefined
   * when `name` is no view.
   */
  resolveView(name: string): ResolvedForeignView | undefined;
  /**
   * The documents of collection `name` of the pipeline's database the query layer gives for
   * `query` (the planner may answer it from an index), lazily; none when it does not exist.
   */
  query(name: string, query: ForeignQuery): Iterable<Document>;
  /** True when collection `name` has an index (not hidden, not partial, not sparse) whose first field is `path`. */
  indexedOn(name: string, path: string): boolean;
  /**
   * A probe of collection `name` by equality on `path` under `collator` (`$lookup`'s join through
   * the foreign index, planned once rather than per input document): called with a value, the
   * documents `{<path>: {$eq: value}}` matches, in the order the query layer gives them for that
   * filter; undefined for a value the probe does not answer (the caller then asks `query`).
   * Absent, or undefined for a path it cannot probe: ask `query`.
   */
  equalityProbe?(name: string, path: string, collator: Collator | null): ((value: unknown) => Document[] | undefined) | undefined;
  /** The index specs of collection `name` as listIndexes shows them (`$geoNear` looks for its index); undefined when it does not exist. */
  indexSpecs?(name: string): readonly Document[] | undefined;
}

/** A view as the stages reading another namespace see it. */
export interface ResolvedForeignView {
  /** The collection the chain of views ends at. */
  readonly source: string;
  /** The pipeline of the chain, innermost view first. */
  readonly pipeline: readonly Document[];
}

/** What a stage asks of the query layer over another collection (optimize.ts's AbsorbedQuery). */
export interface ForeignQuery {
  readonly filter: Document;
  /** The filter's predicate as the stage compiled it (null: every document). */
  readonly predicate: ((doc: Document) => boolean) | null;
  readonly sort?: Document;
  readonly skip?: number;
  /** 0 or absent: no limit. */
  readonly limit?: number;
  /** The pipeline's collation (null: simple). */
  readonly collator: Collator | null;
}

/** A collection as `$out` and `$merge` see their target. */
export interface CollectionDescription {
  /** `db.coll`. */
  readonly ns: string;
  readonly capped: boolean;
  /** The field sets of its unique, non-partial indexes (`$merge`'s `on` must be one of them). */
  readonly uniqueKeys: readonly (readonly string[])[];
}

/** The writes of `$out` and `$merge`, through the one write path (document validation applies). */
export interface OutputWriter {
  /**
   * Replaces every document of `db.coll` (created when absent, its options and indexes kept when
   * present) by `docs`, all or nothing: a failure leaves the target as it was. `timeseries`:
   * the time-series options of `$out.timeseries` (storage/timeseries/options.ts), which create
   * the target as a time-series collection or must match it.
   */
  replace(db: string, coll: string, docs: readonly Document[], timeseries?: Document): void;
  /** Merges `items` into the target of `spec` (`$merge`); throws the first error once every document was tried. */
  merge(spec: MergeWriteSpec, items: readonly MergeItemSpec[]): void;
}

/** What `$merge` writes where, and how (its parsed specification). */
export interface MergeWriteSpec {
  readonly db: string;
  readonly coll: string;
  /** The `on` fields (dotted paths), `['_id']` by default. */
  readonly on: readonly string[];
  readonly whenMatched: 'replace' | 'keepExisting' | 'merge' | 'fail' | 'pipeline';
  /** The `whenMatched` pipeline. */
  readonly pipeline?: readonly Document[];
  readonly whenNotMatched: 'insert' | 'discard' | 'fail';
}

/** One document to merge, with the values of the stage's `let` for it (in pipeline mode, `new` among them). */
export interface MergeItemSpec {
  readonly doc: Document;
  readonly constants?: Document;
}

/** What stages read of the server. */
export interface ServerStateReader {
  /** `host:port` of this server, as `$collStats` reports it. */
  readonly host: string;
  /** `collStats`' storage statistics of collection `name` at `scale`; undefined when it does not exist. */
  storageStats(name: string, scale: number): Document | undefined;
  /** The number of documents of collection `name`; undefined when it does not exist. */
  documentCount(name: string): number | undefined;
  /** The session records of the logical session cache (`$listLocalSessions`). */
  localSessions(): Document[];
  /**
   * `$indexStats`' documents of collection `name` (`{name, key, host, accesses: {ops, since},
   * spec}` per index); empty when it does not exist.
   */
  indexStats(name: string): Document[];
  /**
   * `$listClusterCatalog`'s documents: listCollections' entries with `db`, `ns` and `sharded`, of
   * every database when the pipeline runs on `admin`, else of its database.
   */
  catalogEntries(): Document[];
  /** `$currentOp`'s documents: the operations in progress (this one included) as `options` select them. */
  currentOps(options: CurrentOpOptions): Document[];
  /**
   * `$querySettings`' documents: the cluster's query shape configurations, each
   * `{queryShapeHash, settings, representativeQuery?, debugQueryShape?}`; absent: none.
   */
  querySettings?(): Document[];
}

/** What `$currentOp` is asked to report (its options; `targetAllNodes` is a router's). */
export interface CurrentOpOptions {
  readonly allUsers: boolean;
  readonly idleConnections: boolean;
  readonly idleCursors: boolean;
  readonly idleSessions: boolean;
  readonly localOps: boolean;
  /** Commands of more than 1 KB are shown as `{$truncated: <text>}`. */
  readonly truncateOps: boolean;
}

/** The ports of one pipeline run. */
export interface PipelineRuntime {
  /** The database the pipeline runs in (`$out` and `$merge` default to it). */
  readonly db: string;
  readonly collections: CollectionReader;
  /** Absent where nothing may be written (explain describes `$out` and `$merge` without running them). */
  readonly output?: OutputWriter;
  readonly server: ServerStateReader;
  /** A uniform draw in [0, 1) (`$sample`); `Math.random` unless a test seeds it. */
  readonly random: () => number;
  /**
   * The command's `allowDiskUse` (absent: mongod 8.2's default, true). A blocking stage past its
   * memory limit spills to disk when it is true (Mayfly, in memory, goes on) and fails with
   * QueryExceededMemoryLimitNoDiskUseAllowed when it is false.
   */
  readonly allowDiskUse?: boolean;
}

/**
 * A runtime for pipelines that reach nothing beyond their input (views checked at create, update
 * pipelines, tests); `random` is `Math.random` unless given (a seeded generator in tests).
 */
export function isolatedRuntime(db = 'test', random: () => number = Math.random): PipelineRuntime {
  return {
    db,
    random,
    collections: { documents: () => [], describe: () => undefined, isView: () => false, resolveView: () => undefined, query: () => [], indexedOn: () => false },
    server: { host: '', storageStats: () => undefined, documentCount: () => undefined, localSessions: () => [], indexStats: () => [], currentOps: () => [], catalogEntries: () => [] },
  };
}
