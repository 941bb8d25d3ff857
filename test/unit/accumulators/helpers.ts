/** Runs `$group` pipelines through the real pipeline compiler, for the accumulator tables. */
import { it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

const NOW = new Date(1_700_000_000_000);

/** The output of `pipeline` over `docs`. */
export function run(pipeline: Document[], docs: Document[]): Document[] {
  return Array.from(compilePipeline(pipeline, newPipelineContext({ now: NOW }))(docs));
}

/** The `r` field of `{$group: {_id: null, r: accumulator}}` over `docs`. */
export function groupResult(accumulator: Document, docs: Document[]): unknown {
  const out = run([{ $group: { _id: null, r: accumulator } }], docs);
  return out.length === 1 ? out[0]!.r : out;
}

/** Rows of [description, accumulator, input documents, expected `r`]. */
export function groupTable(rows: Array<[string, Document, Document[], unknown]>): void {
  for (const [name, accumulator, docs, expected] of rows) {
    it(name, () => expectExact({ r: groupResult(accumulator, docs) }, { r: expected }));
  }
}

/** Rows of [description, accumulator, input documents, code, message]. */
export function groupErrorTable(rows: Array<[string, Document, Document[], number, string]>): void {
  for (const [name, accumulator, docs, code, message] of rows) {
    it(name, () => expectCommandError(() => groupResult(accumulator, docs), code, message));
  }
}
