/**
 * `$multiply` (ExpressionMultiply): the product of its numeric arguments with BSON type
 * promotion; null or missing makes null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { multiplyNumbers, numKind } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `$multiply` of already-evaluated operands. */
export function multiplyValues(values: readonly unknown[]): unknown {
  let product: unknown = 1;
  for (const v of values) {
    if (isNullish(v)) return null;
    if (numKind(v) === null) {
      throw new CommandError('TypeMismatch', `$multiply only supports numeric types, not ${typeName(v)}`);
    }
    product = multiplyNumbers(product, v);
  }
  return product;
}

/** `{$multiply: [<expression>, ...]}`. */
export const multiply: ExpressionOperator = {
  name: '$multiply',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => multiplyValues(args.map((a) => a(frame)));
  },
};
