/**
 * `$or` (ExpressionOr): true when an argument is truthy (`Value::coerceToBool`); false for none.
 * As mongod's optimizer does, a truthy constant argument makes the whole expression `true`
 * (nothing else is evaluated) and falsy constants are dropped.
 */
import { constantOperand, isConstant } from '../../../values/constant_operand.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { toBool } from '../../value.js';

/** `{$or: [<expression>, ...]}`. */
export const or: ExpressionOperator = {
  name: '$or',
  parse(arg, scope) {
    const raws = Array.isArray(arg) ? arg : [arg];
    const args: Evaluator[] = [];
    let alwaysTrue = false;
    for (const raw of raws) {
      const ev = scope.parse(raw);
      const c = constantOperand(raw);
      if (!isConstant(c)) args.push(ev);
      else if (toBool(c)) alwaysTrue = true;
    }
    if (alwaysTrue) return () => true;
    return (frame) => args.some((a) => toBool(a(frame)));
  },
};
