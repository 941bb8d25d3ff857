/**
 * `$bsonSize` (ExpressionBsonSize): the size in bytes of a document's BSON encoding, an Int32;
 * null for null, undefined or missing; anything else is 31393.
 */
import { bsonSize as encodedSize } from '../../../../bson/encode.js';
import { CommandError } from '../../../../errors/command_error.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$bsonSize: <object>}`. */
export const bsonSize: ExpressionOperator = {
  name: '$bsonSize',
  parse(arg, scope) {
    const [input] = scope.parseFixedArguments('$bsonSize', arg, 1) as [Evaluator];
    return (frame) => {
      const v = input(frame);
      if (isNullish(v)) return null;
      if (!isDocument(v)) throw new CommandError(31393, `$bsonSize requires a document input, found: ${typeName(v)}`);
      return encodedSize(v);
    };
  },
};
