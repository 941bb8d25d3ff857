/** What a pipeline runs with (`PipelineContext` of `pipeline.ts`). */
import type { Document } from '../../bson/library.js';
import { ExpressionContext, type ExpressionContextOptions } from '../expression/context.js';

/** Per-command state a pipeline needs. */
export interface PipelineContext {
  /**
   * The command's expressions: their root scope (the command's `let` variables defined in it: an
   * undefined `$$name` is 17276 when a stage is parsed), `$$NOW` and the collation (`$match`,
   * `$sort`, `$group` keys, the comparison expressions and `$min`/`$max`/`$addToSet` compare
   * strings by it).
   */
  readonly expressions: ExpressionContext;
  /** Resolves another collection of the same database (for `$lookup` etc.); may be absent. */
  readonly collection?: (name: string) => Iterable<Document>;
}

/** A pipeline context with a new expression context (`now`, collation and variables). */
export function newPipelineContext(options: ExpressionContextOptions & { readonly collection?: PipelineContext['collection'] }): PipelineContext {
  return { expressions: new ExpressionContext(options), collection: options.collection };
}
