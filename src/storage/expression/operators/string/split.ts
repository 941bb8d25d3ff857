/**
 * `$split` (ExpressionSplit): a string cut at every occurrence of a separator. Null or missing in
 * either argument makes null, before any type is checked; then the string (40085), the separator
 * (10503900, mongod 8.2's code) and its emptiness (40087).
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { stringValue } from './_internal/coerce.js';

/** `{$split: [<string>, <separator>]}`. */
export const split: ExpressionOperator = {
  name: '$split',
  parse(arg, scope) {
    const [s, sep] = scope.parseFixedArguments('$split', arg, 2) as [Evaluator, Evaluator];
    return (frame) => {
      const input = s(frame);
      const separator = sep(frame);
      if (isNullish(input) || isNullish(separator)) return null;
      if (typeof input !== 'string') {
        throw new CommandError(40085, `$split requires an expression that evaluates to a string as a first argument, found: ${typeName(input)}`);
      }
      if (typeof separator !== 'string') {
        throw new CommandError(10503900, `$split requires an expression that evaluates to a string as a second argument, found: ${typeName(separator)}`);
      }
      if (separator.length === 0) throw new CommandError(40087, '$split requires a non-empty separator');
      return stringValue(input).split(stringValue(separator));
    };
  },
};
