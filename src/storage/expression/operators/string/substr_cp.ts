/**
 * `$substrCP` (ExpressionSubstrCP): a substring by code points. The string is coerced
 * (`coerceToString`); the start and the count must be numbers exactly representable as an
 * Int32, the count non-negative, the start non-negative.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { coerceToString, stringValue } from './_internal/coerce.js';
import { coerceToInt, isIntegral, isNumeric } from './_internal/numbers.js';

/** The UTF-16 offset of code point `cp` of `s` counted from UTF-16 offset `from` (s.length past the end). */
function offsetOfCodePoint(s: string, from: number, cp: number): number {
  let i = from;
  for (let n = 0; n < cp && i < s.length; n++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

/** `{$substrCP: [<string>, <start>, <count>]}`. */
export const substrCP: ExpressionOperator = {
  name: '$substrCP',
  parse(arg, scope) {
    const [s, start, count] = scope.parseFixedArguments('$substrCP', arg, 3) as [Evaluator, Evaluator, Evaluator];
    return (frame) => {
      const str = stringValue(coerceToString(s(frame)));
      const startV = start(frame);
      const countV = count(frame);
      if (!isNumeric(startV)) {
        throw new CommandError(34450, `$substrCP: starting index must be a numeric type (is BSON type ${typeName(startV)})`);
      }
      if (!isIntegral(startV)) {
        throw new CommandError(34451, `$substrCP: starting index cannot be represented as a 32-bit integral value: ${docValueToString(startV)}`);
      }
      if (!isNumeric(countV)) {
        throw new CommandError(34452, `$substrCP: length must be a numeric type (is BSON type ${typeName(countV)})`);
      }
      if (!isIntegral(countV)) {
        throw new CommandError(34453, `$substrCP: length cannot be represented as a 32-bit integral value: ${docValueToString(countV)}`);
      }
      const startCP = coerceToInt(startV);
      const length = coerceToInt(countV);
      if (length < 0) throw new CommandError(34454, '$substrCP: length must be a nonnegative integer.');
      if (startCP < 0) throw new CommandError(34455, '$substrCP: the starting index must be nonnegative integer.');
      const from = offsetOfCodePoint(str, 0, startCP);
      return str.slice(from, offsetOfCodePoint(str, from, length));
    };
  },
};
