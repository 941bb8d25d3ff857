/**
 * What the comparison operators share (ExpressionCompare): values compare in BSON order with
 * numeric equivalence, strings under the command's collation; a missing value sorts with
 * undefined, below null.
 */
import type { Collator } from '../../../values/collator.js';
import { compareValues } from '../../../values/compare.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';

/** Compares two evaluated operands as `ExpressionCompare` does (-1, 0 or 1). */
export function compareOperands(a: unknown, b: unknown, collator?: Collator | null): number {
  const c = compareValues(a === MISSING ? undefined : a, b === MISSING ? undefined : b, collator);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

/** A two-argument comparison operator whose result is `test` of the comparison. */
export function comparison(name: `$${string}`, test: (cmp: number) => unknown): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const [a, b] = scope.parseFixedArguments(name, arg, 2) as [Evaluator, Evaluator];
      return (frame) => test(compareOperands(a(frame), b(frame), frame.runtime.collator));
    },
  };
}
