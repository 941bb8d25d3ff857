/**
 * The ports of a pipeline (src/storage/aggregation/runtime.ts) as a command fills them in: the
 * collections of the command's database, the writes of `$out` and `$merge` over the catalog
 * (document validation applying, `bypassDocumentValidation` honoured), and what `$collStats` and
 * `$listLocalSessions` read of the server.
 */
import { hostname } from 'node:os';
import type { Document } from '../../bson/library.js';
import type { CollectionDescription, ForeignQuery, OutputWriter, PipelineRuntime } from '../../storage/aggregation/runtime.js';
import type { Catalog } from '../../storage/catalog.js';
import type { Collection } from '../../storage/collection.js';
import { executePlan } from '../../storage/planner/execute.js';
import { planQuery } from '../../storage/planner/plan.js';
import { ALWAYS_TRUE } from '../../storage/query/compile_filter.js';
import { resolveView } from '../../storage/views.js';
import { storageStats } from '../diagnostic/coll_stats.js';
import type { CommandContext } from '../types.js';
import { writeEnv } from './document_validation.js';
import { executeOut } from '../../storage/write/out.js';
import { executeMerge } from '../../storage/write/merge.js';
import { localSessionRecords } from './local_sessions.js';

/** What a command's pipeline may do besides reading: write (`$out`, `$merge`) or not (explain). */
export interface RuntimeOptions {
  /** Writes are performed (false for explain, which describes them). */
  readonly writes: boolean;
  /** `bypassDocumentValidation` of the command. */
  readonly bypassValidation?: boolean;
}

/** The runtime of a pipeline run by the command of `ctx`. */
export function commandPipelineRuntime(ctx: CommandContext, options: RuntimeOptions): PipelineRuntime {
  const catalog = ctx.server.catalog;
  const port = ctx.server.settings.port;
  return {
    db: ctx.db,
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
      localSessions: () => localSessionRecords(ctx.server, ctx.now()),
    },
    random: Math.random,
  };
}

/** The documents of `coll` for a stage's query on it, through the planner (an index may answer it). */
function* foreignQuery(coll: Collection | undefined, query: ForeignQuery, now: () => number): Generator<Document> {
  if (coll === undefined) return;
  const plan = planQuery(coll, { filter: query.filter, sort: query.sort, skip: query.skip ?? 0, limit: query.limit ?? 0, collator: query.collator });
  const predicate = query.predicate;
  for (const rec of executePlan(plan, { coll, predicate: predicate === null ? ALWAYS_TRUE : predicate, now })) yield rec.doc;
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
    replace: (db, name, docs) => executeOut(env, catalog, db, name, docs, nowMs),
    merge(spec, items) {
      const target = catalog.get(spec.db, spec.coll);
      executeMerge(env, { catalog, nowMs, collator: target?.defaultCollator ?? null }, spec, items);
    },
  };
}
