/**
 * `$tsIncrement` (ExpressionTsIncrement): the increment of a Timestamp, an Int64; null for null or
 * missing; 5687302 for anything else.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { Timestamp } from '../../../../bson/library.js';
import { longOf } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$tsIncrement: <timestamp>}`. */
export const tsIncrement: ExpressionOperator = {
  name: '$tsIncrement',
  parse(arg, scope) {
    const [operand] = scope.parseFixedArguments('$tsIncrement', arg, 1) as [Evaluator];
    return (frame) => {
      const v = operand(frame);
      if (isNullish(v)) return null;
      if (!(v instanceof Timestamp)) {
        throw new CommandError(5687302, ` Argument to $tsIncrement must be a timestamp, but is ${typeName(v)}`);
      }
      return longOf(BigInt(v.i));
    };
  },
};
