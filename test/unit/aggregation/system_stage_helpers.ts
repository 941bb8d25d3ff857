/** Running the system stages in unit tables: a pipeline over a runtime whose server port is given. */
import type { Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { isolatedRuntime, type PipelineRuntime, type ServerStateReader } from '../../../src/storage/aggregation/runtime.js';

/** The unit tables' clock reading. */
export const NOW = new Date(1_700_000_000_000);

/** The output of `pipeline` run on `db` (`collection` null: `{aggregate: 1}`), with `server` overriding the isolated runtime's. */
export function runSystem(pipeline: Document[], options: { db?: string; collection?: string | null; server?: Partial<ServerStateReader>; views?: Record<string, Document[]> } = {}): Document[] {
  const base = isolatedRuntime(options.db ?? 'test');
  const views = options.views ?? {};
  const runtime: PipelineRuntime = {
    ...base,
    server: { ...base.server, host: 'h:1', ...options.server },
    collections: {
      ...base.collections,
      isView: (name) => name in views,
      resolveView: (name) => (name in views ? { source: 'base', pipeline: views[name]! } : undefined),
    },
  };
  const ctx = newPipelineContext({ now: NOW, runtime, collection: options.collection === undefined ? 'c' : options.collection });
  return Array.from(compilePipeline(pipeline, ctx)([]));
}
