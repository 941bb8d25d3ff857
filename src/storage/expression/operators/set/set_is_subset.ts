/**
 * `$setIsSubset` (ExpressionSetIsSubset): true when every element of the first array is in the
 * second (collation-aware); exactly two arguments (16020); any non-array, null included, is
 * 17046 (first) or 17042 (second), the first checked before the second is evaluated.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { keySetOf } from './_internal.js';

/** `{$setIsSubset: [<array>, <array>]}`. */
export const setIsSubset: ExpressionOperator = {
  name: '$setIsSubset',
  parse(arg, scope) {
    const [lhsE, rhsE] = scope.parseFixedArguments('$setIsSubset', arg, 2) as [Evaluator, Evaluator];
    return (frame) => {
      const lhs = lhsE(frame);
      if (!Array.isArray(lhs)) {
        throw new CommandError(17046, `both operands of $setIsSubset must be arrays. First argument is of type: ${typeName(lhs)}`);
      }
      const rhs = rhsE(frame);
      if (!Array.isArray(rhs)) {
        throw new CommandError(17042, `both operands of $setIsSubset must be arrays. Second argument is of type: ${typeName(rhs)}`);
      }
      const set = keySetOf(rhs, frame.runtime.collator);
      for (const v of lhs) if (!set.has(v)) return false;
      return true;
    };
  },
};
