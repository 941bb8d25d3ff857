/** Running a pipeline over documents in the unit tables of the stages (`$facet`, `$sample`, ...). */
import type { Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { isolatedRuntime } from '../../../src/storage/aggregation/runtime.js';

const NOW = new Date(1_700_000_000_000);

/** The output of `pipeline` over `docs`; `random` seeds `$sample`. */
export function runPipeline(pipeline: Document[], docs: Document[], random?: () => number): Document[] {
  const ctx = newPipelineContext({ now: NOW, runtime: isolatedRuntime('test', random) });
  return Array.from(compilePipeline(pipeline, ctx)(docs));
}

/** A small seeded PRNG (mulberry32): uniform draws in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
