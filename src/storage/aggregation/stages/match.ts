/**
 * `$match` (document_source_match.cpp): filters documents with the query language, `$expr`
 * included (its expressions in the pipeline's scope); `$where` is not allowed. The optimiser
 * hands a leading `$match` to the query layer (optimize.ts), with the predicate parsed here.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { ExpressionContext } from '../../expression/context.js';
import { compileFilter, type Predicate } from '../../query/compile_filter.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type StageDefinition, type StageInstance } from '../stage.js';

/** A parsed `$match`: its filter and predicate, for the optimiser. */
export interface MatchInstance extends StageInstance {
  readonly filter: Document;
  readonly predicate: Predicate;
}

/** The predicate of `{$match: filter}` in a pipeline whose expressions are `expressions`. */
export function compileMatchFilter(filter: Document, expressions: ExpressionContext): Predicate {
  return compileFilter(filter, {
    whereAllowed: false,
    collator: expressions.runtime.collator,
    compileExpr: (expr) => expressions.predicate(expr),
  });
}

/** `{$match: <filter>}`. */
export const match: StageDefinition = {
  name: '$match',
  constraints: TRANSFORM,
  parse(spec, ctx): MatchInstance {
    if (!isDocument(spec)) throw new CommandError(15959, 'the match filter must be an expression in an object');
    const predicate = compileMatchFilter(spec, ctx.expressions);
    return {
      filter: spec,
      predicate,
      *run(input) {
        for (const doc of input) if (predicate(doc)) yield doc;
      },
    };
  },
};
