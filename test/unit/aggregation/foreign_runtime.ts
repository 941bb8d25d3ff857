/** A runtime whose other collections and views are in memory, for the join stages' unit tables. */
import type { Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { isolatedRuntime, type ForeignQuery, type PipelineRuntime } from '../../../src/storage/aggregation/runtime.js';
import type { ExpressionContextOptions } from '../../../src/storage/expression/context.js';

export const NOW = new Date(1_700_000_000_000);

/** What the fake runtime holds: collections, views, the indexed fields, and the queries it was asked. */
export interface Foreign {
  readonly collections: Record<string, Document[]>;
  readonly views?: Record<string, { source: string; pipeline: Document[] }>;
  /** `coll.path` of each index. */
  readonly indexes?: string[];
}

/** The runtime reading `foreign`; `queries` records each query asked. */
export function foreignRuntime(foreign: Foreign, queries: ForeignQuery[] = []): PipelineRuntime {
  const base = isolatedRuntime();
  return {
    ...base,
    collections: {
      ...base.collections,
      documents: (name) => foreign.collections[name] ?? [],
      isView: (name) => foreign.views?.[name] !== undefined,
      resolveView: (name) => foreign.views?.[name],
      *query(name, query) {
        queries.push(query);
        for (const doc of foreign.collections[name] ?? []) if (query.predicate === null || query.predicate(doc)) yield doc;
      },
      indexedOn: (name, path) => foreign.indexes?.includes(`${name}.${path}`) ?? false,
    },
  };
}

/** Runs `pipeline` over `input` with `foreign` reachable. */
export function runWith(foreign: Foreign, pipeline: Document[], input: Document[], options: Partial<ExpressionContextOptions> = {}): Document[] {
  const ctx = newPipelineContext({ now: NOW, ...options, runtime: foreignRuntime(foreign), collection: 'local' });
  return Array.from(compilePipeline(pipeline, ctx)(input));
}

/** Parses `pipeline` with `foreign` reachable (for the parse errors). */
export function parseWith(foreign: Foreign, pipeline: Document[]): void {
  compilePipeline(pipeline, newPipelineContext({ now: NOW, runtime: foreignRuntime(foreign), collection: 'local' }));
}
