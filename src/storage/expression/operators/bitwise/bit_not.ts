/**
 * `$bitNot` (ExpressionBitNot): the bitwise complement of an Int32 (an Int32) or an Int64 (an
 * Int64); null or missing makes null; another number is 14 TypeMismatch, a non-number 28765.
 */
import { Long } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { numKind, toBigInt } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$bitNot: <integer>}`. */
export const bitNot: ExpressionOperator = {
  name: '$bitNot',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$bitNot', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (isNullish(v)) return null;
      const kind = numKind(v);
      if (kind === null) throw new CommandError(28765, `$bitNot only supports numeric types, not ${typeName(v)}`);
      if (kind === 'int') return ~(v as number);
      if (kind === 'long') return Long.fromBigInt(~toBigInt(v));
      throw new CommandError('TypeMismatch', `$bitNot only supports int and long, not: ${bsonTypeOf(v)}.`);
    };
  },
};
