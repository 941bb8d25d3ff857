/**
 * Aggregation expressions: the public entry point. Operators are organised by kind under
 * `expressions/` and registered here; see `expression_core.ts` for the grammar.
 */
import type { Document } from '../../bson/library.js';
import { ARITHMETIC_OPERATORS } from './expressions/arithmetic.js';
import { ARRAY_OPERATORS } from './expressions/array.js';
import { COMPARISON_OPERATORS } from './expressions/comparison.js';
import { FIELD_OPERATORS } from './expressions/field.js';
import { LOGICAL_OPERATORS } from './expressions/logical.js';
import { MISC_OPERATORS } from './expressions/misc.js';
import { STRING_OPERATORS } from './expressions/string.js';
import { parseOperand, registerOperators } from './expression_core.js';
import { evalContextOf, parseStateOf, type PipelineContext } from './pipeline_context.js';
import { externalValue, toBool } from './value.js';

registerOperators(ARITHMETIC_OPERATORS);
registerOperators(COMPARISON_OPERATORS);
registerOperators(LOGICAL_OPERATORS);
registerOperators(STRING_OPERATORS);
registerOperators(ARRAY_OPERATORS);
registerOperators(MISC_OPERATORS);
registerOperators(FIELD_OPERATORS);

/** The grammar's entry points, for the projection parser and the stages. */
export { isExpressionName, isKnownExpressionName, parseOperand, type EvalContext, type Evaluator } from './expression_core.js';

/**
 * Compiles an aggregation expression (throws `CommandError` on a bad expression). The result
 * evaluates against a document as `$$ROOT`, with the context's `let` variables in scope; an
 * absent value comes back as `undefined`.
 */
export function compileExpression(expr: unknown, ctx: PipelineContext): (doc: Document) => unknown {
  const ev = parseOperand(expr, parseStateOf(ctx));
  return (doc) => externalValue(ev(evalContextOf(ctx, doc)));
}

/** Compiles the argument of `$expr` into a document predicate (aggregation truthiness). */
export function compileExpressionPredicate(expr: unknown, ctx: PipelineContext): (doc: Document) => boolean {
  const ev = parseOperand(expr, parseStateOf(ctx));
  return (doc) => toBool(ev(evalContextOf(ctx, doc)));
}
