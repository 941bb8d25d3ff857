/**
 * `$objectToArray` (ExpressionObjectToArray): a document as `[{k, v}, ...]` in field order;
 * null for null and missing, 40390 for anything else not a document.
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$objectToArray: <document>}`. */
export const objectToArray: ExpressionOperator = {
  name: '$objectToArray',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$objectToArray', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (isNullish(v)) return null;
      if (typeName(v) !== 'object') {
        throw new CommandError(40390, `$objectToArray requires a document input, found: ${typeName(v)}`);
      }
      const doc = v as Document;
      return Object.keys(doc).map((k) => ({ k, v: doc[k] }));
    };
  },
};
