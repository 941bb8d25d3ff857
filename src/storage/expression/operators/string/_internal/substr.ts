/**
 * The UTF-8 byte substring of `$substrBytes` (and `$substr`, its older name), which refuses to
 * cut a character in two (ExpressionSubstrBytes).
 */
import { CommandError } from '../../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../../types.js';
import { typeName } from '../../../value.js';
import { coerceToString, stringValue } from './coerce.js';
import { coerceToLong, isNumeric } from './numbers.js';

const ASCII = /^[\x00-\x7f]*$/;

function isContinuationByte(b: number | undefined): boolean {
  return b !== undefined && (b & 0xc0) === 0x80;
}

/** `$substrBytes` of evaluated operands. */
export function substrBytes(strV: unknown, lowerV: unknown, lengthV: unknown): string {
  const text = stringValue(coerceToString(strV));
  if (!isNumeric(lowerV)) {
    throw new CommandError(16034, `$substrBytes:  starting index must be a numeric type (is BSON type ${typeName(lowerV)})`);
  }
  if (!isNumeric(lengthV)) {
    throw new CommandError(16035, `$substrBytes:  length must be a numeric type (is BSON type ${typeName(lengthV)})`);
  }
  const signedLower = coerceToLong(lowerV);
  if (signedLower < 0n) throw new CommandError(50752, `$substrBytes:  starting index must be non-negative (got: ${signedLower})`);
  // A negative length is the rest of the string.
  const signedLength = coerceToLong(lengthV);
  if (ASCII.test(text)) {
    // One byte per character: no character to cut.
    const n = BigInt(text.length);
    if (signedLower >= n) return '';
    const stop = signedLength < 0n || signedLower + signedLength > n ? n : signedLower + signedLength;
    return text.slice(Number(signedLower), Number(stop));
  }
  const str = Buffer.from(text, 'utf8');
  const size = BigInt(str.length);
  const lower = signedLower;
  const length = signedLength < 0n ? size : signedLength;
  if (lower < size && isContinuationByte(str[Number(lower)])) {
    throw new CommandError(28656, '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.');
  }
  if (lower + length < size && isContinuationByte(str[Number(lower + length)])) {
    throw new CommandError(28657, '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.');
  }
  if (lower >= size) return '';
  const end = lower + length > size ? size : lower + length;
  return str.subarray(Number(lower), Number(end)).toString('utf8');
}

/** `$substrBytes` under the name `name` (its arity errors name `$substrBytes`, as mongod's do). */
export function substrOperator(name: '$substr' | '$substrBytes'): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const [s, lower, length] = scope.parseFixedArguments('$substrBytes', arg, 3) as [Evaluator, Evaluator, Evaluator];
      return (frame) => substrBytes(s(frame), lower(frame), length(frame));
    },
  };
}
