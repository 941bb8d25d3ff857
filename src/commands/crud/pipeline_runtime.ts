/**
 * The ports of a pipeline (src/storage/aggregation/runtime.ts) as a command fills them in: the
 * collections of the command's database, the writes of `$out` and `$merge` over the catalog
 * (document validation applying, `bypassDocumentValidation` honoured), and what `$collStats` and
 * `$listLocalSessions` read of the server.
 */
import { hostname } from 'node:os';
import { Long, type Document } from '../../bson/library.js';
import { bsonSize } from '../../bson/encode.js';
import type { CollectionDescription, CurrentOpOptions, ForeignQuery, OutputWriter, PipelineRuntime } from '../../storage/aggregation/runtime.js';
import { formatValue } from '../../storage/values/format.js';
import type { Catalog } from '../../storage/catalog.js';
import type { Collection } from '../../storage/collection.js';
import type { Index } from '../../storage/indexes/index.js';
import { executePlan, expressRecords } from '../../storage/planner/execute.js';
import { expressNode, planQuery } from '../../storage/planner/plan.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import type { Collator } from '../../storage/values/collator.js';
import { ALWAYS_TRUE } from '../../storage/query/compile_filter.js';
import { resolveView, viewOptions } from '../../storage/views.js';
import { storageStats } from '../diagnostic/coll_stats.js';
import type { CommandContext } from '../types.js';
import { writeEnv } from './document_validation.js';
import { executeOut } from '../../storage/write/out.js';
import { executeMerge } from '../../storage/write/merge.js';
import { sessionCatalogOf } from '../../sessions/session_catalog.js';
import { listQuerySettings } from '../query_settings/_internal.js';

/** What a command's pipeline may do besides reading: write (`$out`, `$merge`) or not (explain). */
export interface RuntimeOptions {
  /** Writes are performed (false for explain, which describes them). */
  readonly writes: boolean;
  /** `bypassDocumentValidation` of the command. */
  readonly bypassValidation?: boolean;
  /** `allowDiskUse` of the command, when given. */
  readonly allowDiskUse?: boolean;
  /** The command running the pipeline, as `$currentOp` reports it. */
  readonly command?: Document;
}

/** The runtime of a pipeline run by the command of `ctx`. */
export function commandPipelineRuntime(ctx: CommandContext, options: RuntimeOptions): PipelineRuntime {
  const catalog = ctx.server.catalog;
  const port = ctx.server.settings.port;
  return {
    db: ctx.db,
    ...(options.allowDiskUse === undefined ? {} : { allowDiskUse: options.allowDiskUse }),
    collections: {
      *documents(name) {
        const coll = catalog.get(ctx.db, name);
        if (coll) for (const rec of coll.scan(ctx.now)) yield rec.doc;
      },
      describe: (db, coll) => describe(catalog, db, coll),
      isView: (name) => catalog.get(ctx.db, name) === undefined && catalog.view(ctx.db, name) !== undefined,
      resolveView(name) {
        if (catalog.get(ctx.db, name) !== undefined) return undefined;
        const view = resolveView(catalog, ctx.db, name);
        return view === undefined ? undefined : { source: view.source, pipeline: view.pipeline };
      },
      query: (name, query) => foreignQuery(catalog.get(ctx.db, name), query, ctx.now),
      indexedOn(name, path) {
        const coll = catalog.get(ctx.db, name);
        return coll !== undefined && coll.allIndexes().some((index) => index.fields[0] === path && index.queryable && !index.sparse && index.partialFilter === null && index.queryable);
      },
      equalityProbe: (name, path, collator) => equalityProbe(catalog, ctx.db, name, path, collator, ctx.now),
      indexSpecs: (name) => catalog.get(ctx.db, name)?.indexSpecs(),
    },
    output: options.writes ? outputWriter(ctx, catalog, options.bypassValidation ?? false) : undefined,
    server: {
      host: `${hostname()}:${port}`,
      storageStats(name, scale) {
        const coll = catalog.get(ctx.db, name);
        return coll ? storageStats(coll, ctx.now(), scale) : undefined;
      },
      documentCount(name) {
        const coll = catalog.get(ctx.db, name);
        if (!coll) return undefined;
        let n = 0;
        for (const _ of coll.scan(ctx.now)) n++;
        return n;
      },
      localSessions: () => sessionCatalogOf(ctx.server).records(ctx.now()),
      currentOps: (opts) => currentOps(ctx, options.command ?? {}, opts),
      querySettings: () => listQuerySettings(ctx.server),
      catalogEntries() {
        const dbs = ctx.db === 'admin' ? catalog.databaseNames() : [ctx.db];
        const out: Document[] = [];
        for (const db of dbs) {
          for (const coll of catalog.collections(db)) {
            // The idIndex a create was given is reported as the entry's, not among its options.
            const { idIndex: _given, ...options } = coll.options;
            out.push({ db, ns: coll.ns, type: 'collection', options, info: { readOnly: false, uuid: coll.uuid }, idIndex: coll.idIndex.spec, sharded: false });
          }
          for (const view of catalog.views(db)) {
            out.push({ db, ns: `${db}.${view.name}`, type: 'view', options: viewOptions(view), info: { readOnly: true }, sharded: false });
          }
        }
        return out;
      },
      indexStats(name) {
        const coll = catalog.get(ctx.db, name);
        if (!coll) return [];
        const nowMs = ctx.now();
        return coll.allIndexes().map((index) => {
          index.accesses.sinceMs ??= nowMs;
          return {
            name: index.name,
            key: index.keyPattern,
            host: `${hostname()}:${port}`,
            accesses: { ops: Long.fromNumber(index.accesses.ops), since: new Date(index.accesses.sinceMs) },
            spec: index.spec,
          };
        });
      },
    },
    random: Math.random,
  };
}

/**
 * `$currentOp`'s documents: a standalone serves one command at a time, so the operation in
 * progress is the command running the stage; with `idleCursors`, each open cursor.
 */
function currentOps(ctx: CommandContext, command: Document, opts: CurrentOpOptions): Document[] {
  const conn = ctx.connection;
  const nowMs = ctx.now();
  const host = `${hostname()}:${ctx.server.settings.port}`;
  const shown: Document = opts.truncateOps && bsonSize(command) > 1000 ? { $truncated: formatValue(command).slice(0, 1000) } : command;
  const op: Document = {
    type: 'op',
    host,
    desc: `conn${conn.id}`,
    connectionId: conn.id,
    client: conn.remoteAddress,
  };
  const appName = (conn.clientMetadata?.application as Document | undefined)?.name;
  if (typeof appName === 'string') op.appName = appName;
  if (conn.clientMetadata) op.clientMetadata = conn.clientMetadata;
  Object.assign(op, {
    active: true,
    currentOpTime: new Date(nowMs).toISOString().replace('Z', '+00:00'),
    threaded: true,
    opid: ctx.server.counters.opcounters.command,
    secs_running: Long.ZERO,
    microsecs_running: Long.ZERO,
    op: 'command',
    ns: `${ctx.db}.$cmd.aggregate`,
    redacted: false,
    command: shown,
    numYields: 0,
    locks: {},
    waitingForLock: false,
    lockStats: {},
    waitingForFlowControl: false,
    flowControlStats: {},
  });
  if (command.lsid !== undefined) op.lsid = command.lsid;
  const out: Document[] = [op];
  if (opts.idleCursors) {
    for (const cursor of ctx.server.cursors.list()) {
      out.push({
        type: 'idleCursor',
        host,
        ns: cursor.ns,
        cursor: { cursorId: cursor.id, lastAccessDate: new Date(cursor.lastUsedMs), noCursorTimeout: cursor.noTimeout, tailable: false, awaitData: false },
      });
    }
  }
  return out;
}

/** The documents of `coll` for a stage's query on it, through the planner (an index may answer it). */
function* foreignQuery(coll: Collection | undefined, query: ForeignQuery, now: () => number): Generator<Document> {
  if (coll === undefined) return;
  const plan = planQuery(coll, { filter: query.filter, sort: query.sort, skip: query.skip ?? 0, limit: query.limit ?? 0, collator: query.collator });
  const predicate = query.predicate;
  for (const rec of executePlan(plan, { coll, predicate: predicate === null ? ALWAYS_TRUE : predicate, now })) yield rec.doc;
}

/** The kinds of value an equality probe answers: each plans alike (bounds of one shape, collatable or not). */
const PROBED_KINDS: Readonly<Record<string, string>> = { int: 'number', double: 'number', long: 'number', decimal: 'number', string: 'string', objectId: 'objectId', date: 'date', bool: 'bool' };

const ANY_RECORD = (): boolean => true;

/**
 * `equalityProbe` of the runtime port: `{<path>: {$eq: v}}` read from the one index whose first
 * field is `path`, when the planner chooses it for a value of v's kind (asked once per kind, with
 * the first such value: with a single candidate index the choice does not depend on the value),
 * walking its entries equal to v as the express plan does. A value of another kind (null, arrays,
 * documents, regular expressions, NaN), a path with a numeric component, a compound or second
 * candidate index, or a plan of another shape: undefined, and the caller plans the query. For the
 * kinds probed, an entry equal to v under the index's comparison is exactly a document the
 * equality matches (the index holds each value at the path, arrays expanded, under the query's
 * collation when the value is collatable), so the filter is not evaluated again.
 */
function equalityProbe(catalog: Catalog, db: string, name: string, path: string, collator: Collator | null, now: () => number): ((value: unknown) => Document[] | undefined) | undefined {
  if (path.split('.').some((part) => /^[0-9]+$/.test(part))) return undefined;
  const chosen = new Map<string, Index | null>();
  return (value) => {
    const kind = PROBED_KINDS[bsonTypeOf(value)];
    if (kind === undefined || value !== value) return undefined;
    const coll = catalog.get(db, name);
    if (coll === undefined) return undefined;
    let only: Index | undefined;
    for (const index of coll.allIndexes()) {
      if (!index.queryable || index.fields[0] !== path) continue;
      if (only !== undefined) return undefined;
      only = index;
    }
    if (only === undefined || only.fields.length !== 1) return undefined;
    let index = chosen.get(kind);
    if (index === undefined) {
      const root = planQuery(coll, { filter: { [path]: { $eq: value } }, collator }).root;
      index = root.stage === 'EXPRESS_IXSCAN' ? root.index : root.stage === 'FETCH' && root.input.stage === 'IXSCAN' && root.input.direction === 1 ? root.input.index : null;
      chosen.set(kind, index);
    }
    if (index !== only) return undefined;
    const recs = expressRecords(expressNode(index, value, false), coll, ANY_RECORD, now);
    // A multikey index may hold one document under two keys equal under its collation: once each, as the index scan gives them.
    const unique = index.multikey && recs.length > 1 ? [...new Set(recs)] : recs;
    return unique.map((rec) => rec.doc);
  };
}

function describe(catalog: Catalog, db: string, name: string): CollectionDescription | undefined {
  const coll = catalog.get(db, name);
  if (!coll) return undefined;
  const uniqueKeys = coll.indexes.filter((index) => index.unique && !index.partialFilter).map((index) => [...index.fields]);
  return { ns: coll.ns, capped: coll.capped !== null, uniqueKeys };
}

/** The writes of `$out` and `$merge`, through the write path (`src/storage/write/`), each document checked by the target's validator. */
function outputWriter(ctx: CommandContext, catalog: Catalog, bypass: boolean): OutputWriter {
  const nowMs = ctx.now();
  const env = writeEnv(ctx, bypass);
  return {
    replace: (db, name, docs, timeseries) => executeOut(env, catalog, db, name, docs, nowMs, timeseries),
    merge(spec, items) {
      const target = catalog.get(spec.db, spec.coll);
      executeMerge(env, { catalog, nowMs, collator: target?.defaultCollator ?? null }, spec, items);
    },
  };
}
