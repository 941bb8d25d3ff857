/**
 * `$strcasecmp` (ExpressionStrcasecmp): both arguments as strings (`coerceToString`, null and
 * missing are ""), ASCII letters folded to upper case, compared by bytes: -1, 0 or 1 (Int32).
 * The collation plays no part.
 */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { compareStrings } from '../../../values/compare.js';
import { coerceToString, mapAscii, stringValue } from './_internal/coerce.js';

/** `{$strcasecmp: [<expression>, <expression>]}`. */
export const strcasecmp: ExpressionOperator = {
  name: '$strcasecmp',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$strcasecmp', arg, 2) as [Evaluator, Evaluator];
    return (frame) => {
      const x = mapAscii(stringValue(coerceToString(a(frame))), true);
      const y = mapAscii(stringValue(coerceToString(b(frame))), true);
      return compareStrings(x, y);
    };
  },
};
