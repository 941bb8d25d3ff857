/**
 * `$binarySize` (ExpressionBinarySize): the byte length of a string (UTF-8) or of a BinData's
 * payload, an Int32; null for null, undefined or missing; anything else is 51276.
 */
import type { Binary } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$binarySize: <string or binData>}`. */
export const binarySize: ExpressionOperator = {
  name: '$binarySize',
  parse(arg, scope) {
    const [input] = scope.parseFixedArguments('$binarySize', arg, 1) as [Evaluator];
    return (frame) => {
      const v = input(frame);
      if (isNullish(v)) return null;
      if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
      if (bsonTypeOf(v) === 'binData') return (v as Binary).length();
      throw new CommandError(51276, `$binarySize requires a string or BinData argument, found: ${typeName(v)}`);
    };
  },
};
