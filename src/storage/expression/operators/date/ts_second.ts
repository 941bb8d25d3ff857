/**
 * `$tsSecond` (ExpressionTsSecond): the seconds of a Timestamp, an Int64; null for null or
 * missing; 5687301 for anything else.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { Timestamp } from '../../../../bson/library.js';
import { longOf } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$tsSecond: <timestamp>}`. */
export const tsSecond: ExpressionOperator = {
  name: '$tsSecond',
  parse(arg, scope) {
    const [operand] = scope.parseFixedArguments('$tsSecond', arg, 1) as [Evaluator];
    return (frame) => {
      const v = operand(frame);
      if (isNullish(v)) return null;
      if (!(v instanceof Timestamp)) {
        throw new CommandError(5687301, ` Argument to $tsSecond must be a timestamp, but is ${typeName(v)}`);
      }
      return longOf(BigInt(v.t));
    };
  },
};
