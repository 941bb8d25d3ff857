/** `$match`: filters documents with the query language (`compileFilter`), `$expr` included. */
import { CommandError } from '../../../errors/command_error.js';
import { compileFilter } from '../../query/compile_filter.js';
import { compileExpressionPredicate } from '../expressions.js';
import { isDocument } from '../value.js';
import type { StageParser } from './types.js';

/** Parses `{$match: filter}`. */
export const parseMatch: StageParser = (spec, ctx) => {
  if (!isDocument(spec)) throw new CommandError(15959, 'the match filter must be an expression in an object');
  const pred = compileFilter(spec, {
    whereAllowed: false,
    collator: ctx.collator,
    compileExpr: (expr) => compileExpressionPredicate(expr, ctx),
  });
  return function* match(input) {
    for (const doc of input) if (pred(doc)) yield doc;
  };
};
