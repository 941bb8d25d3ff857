/**
 * `$setDifference` (ExpressionSetDifference): the distinct elements of the first array that are
 * not in the second, in the first array's order; null when either is nullish; 17048/17049 for a
 * non-array. Membership follows the collation.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { keySetOf } from './_internal.js';

/** `{$setDifference: [<array>, <array>]}`. */
export const setDifference: ExpressionOperator = {
  name: '$setDifference',
  parse(arg, scope) {
    const [lhsE, rhsE] = scope.parseFixedArguments('$setDifference', arg, 2) as [Evaluator, Evaluator];
    return (frame) => {
      const lhs = lhsE(frame);
      const rhs = rhsE(frame);
      if (isNullish(lhs) || isNullish(rhs)) return null;
      if (!Array.isArray(lhs)) {
        throw new CommandError(17048, `both operands of $setDifference must be arrays. First argument is of type: ${typeName(lhs)}`);
      }
      if (!Array.isArray(rhs)) {
        throw new CommandError(17049, `both operands of $setDifference must be arrays. Second argument is of type: ${typeName(rhs)}`);
      }
      // The set of the second array also drops the first array's duplicates.
      const seen = keySetOf(rhs, frame.runtime.collator);
      const out: unknown[] = [];
      for (const v of lhs) if (seen.add(v)) out.push(v);
      return out;
    };
  },
};
