/** `$match`: filters documents with the query language (`compileFilter`), `$expr` included. */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { compileFilter, type Predicate } from '../../query/compile_filter.js';
import type { PipelineContext } from '../pipeline_context.js';
import { isDocument } from '../../values/paths.js';
import type { StageParser } from './types.js';

/** The predicate of `{$match: filter}` in a pipeline of context `ctx`. */
export function compileMatchFilter(filter: Document, ctx: PipelineContext): Predicate {
  return compileFilter(filter, {
    whereAllowed: false,
    collator: ctx.expressions.runtime.collator,
    compileExpr: (expr) => ctx.expressions.predicate(expr),
  });
}

/** Parses `{$match: filter}`. */
export const parseMatch: StageParser = (spec, ctx) => {
  if (!isDocument(spec)) throw new CommandError(15959, 'the match filter must be an expression in an object');
  const pred = compileMatchFilter(spec, ctx);
  return function* match(input) {
    for (const doc of input) if (pred(doc)) yield doc;
  };
};
