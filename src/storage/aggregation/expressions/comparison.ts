/**
 * Comparison expression operators: `$eq $ne $gt $gte $lt $lte $cmp` (mongo/src/mongo/db/
 * pipeline/expression.cpp, `ExpressionCompare`). Values compare in BSON order with numeric
 * equivalence, strings under the command's collation; a missing value sorts with undefined,
 * below null.
 */
import type { Collator } from '../../values/collator.js';
import { compareValues } from '../../values/compare.js';
import { parseFixedArguments, type Evaluator, type OperatorParser } from '../expression_core.js';
import { MISSING } from '../value.js';

/** Compares two evaluated operands as `ExpressionCompare` does (-1, 0 or 1). */
export function compareOperands(a: unknown, b: unknown, collator?: Collator | null): number {
  const c = compareValues(a === MISSING ? undefined : a, b === MISSING ? undefined : b, collator);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

function comparison(test: (cmp: number) => unknown): OperatorParser {
  return (arg, ps, name) => {
    const [a, b] = parseFixedArguments(name, arg, ps, 2) as [Evaluator, Evaluator];
    return (ctx) => test(compareOperands(a(ctx), b(ctx), ctx.collator));
  };
}

/** The comparison operators. */
export const COMPARISON_OPERATORS: Readonly<Record<string, OperatorParser>> = {
  $eq: comparison((c) => c === 0),
  $ne: comparison((c) => c !== 0),
  $gt: comparison((c) => c > 0),
  $gte: comparison((c) => c >= 0),
  $lt: comparison((c) => c < 0),
  $lte: comparison((c) => c <= 0),
  $cmp: comparison((c) => c),
};
