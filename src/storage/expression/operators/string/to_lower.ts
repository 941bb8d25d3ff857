/** `$toLower` (ExpressionToLower): its argument as a string (`coerceToString`), ASCII letters in lower case. */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { coerceToString, mapAscii, stringValue } from './_internal/coerce.js';

/** `{$toLower: <expression>}`. */
export const toLower: ExpressionOperator = {
  name: '$toLower',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$toLower', arg, 1) as [Evaluator];
    return (frame) => mapAscii(stringValue(coerceToString(a(frame))), false);
  },
};
