/** Making the context a pipeline is parsed in (`PipelineParseContext` of stage.ts). */
import { ExpressionContext, type ExpressionContextOptions } from '../expression/context.js';
import { parsePipeline } from './pipeline.js';
import { isolatedRuntime, type PipelineRuntime } from './runtime.js';
import type { PipelineParseContext } from './stage.js';

/** Options of `newPipelineContext`: the expressions', the ports, the collection read. */
export interface PipelineContextOptions extends ExpressionContextOptions {
  /** The ports to other collections, the writer, the server; none by default. */
  readonly runtime?: PipelineRuntime;
  /** The collection the pipeline reads; default: a collection with no name (not `{aggregate: 1}`). */
  readonly collection?: string | null;
}

/** A parse context with a new expression context (`now`, collation, variables). */
export function newPipelineContext(options: PipelineContextOptions): PipelineParseContext {
  const ctx: PipelineParseContext = {
    expressions: new ExpressionContext(options),
    runtime: options.runtime ?? isolatedRuntime(),
    collection: options.collection === undefined ? '' : options.collection,
    parseSubPipeline: parsePipeline,
  };
  return ctx;
}
