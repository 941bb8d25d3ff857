/** `$toUpper` (ExpressionToUpper): its argument as a string (`coerceToString`), ASCII letters in upper case. */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { coerceToString, mapAscii, stringValue } from './_internal/coerce.js';

/** `{$toUpper: <expression>}`. */
export const toUpper: ExpressionOperator = {
  name: '$toUpper',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$toUpper', arg, 1) as [Evaluator];
    return (frame) => mapAscii(stringValue(coerceToString(a(frame))), true);
  },
};
