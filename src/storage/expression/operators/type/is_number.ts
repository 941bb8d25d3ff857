/** `$isNumber` (ExpressionIsNumber): true for an Int32, Int64, Double or Decimal128, false otherwise (missing too). */
import { isNumber as isNumeric } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';

/** `{$isNumber: <expression>}`. */
export const isNumber: ExpressionOperator = {
  name: '$isNumber',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$isNumber', arg, 1) as [Evaluator];
    return (frame) => isNumeric(a(frame));
  },
};
