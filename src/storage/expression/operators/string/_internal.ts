/**
 * What the string operators share: `Value::coerceToString`, and the UTF-8 byte substring of
 * `$substrBytes` (and `$substr`, its older name), which refuses to cut a character in two.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { formatG } from '../../../values/format.js';
import { MISSING } from '../../../values/missing.js';
import { toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';

/** `Value::coerceToString`: numbers as text, dates in ISO form, null/missing as "". */
export function coerceToString(v: unknown): string {
  if (v === MISSING || v === null || v === undefined) return '';
  switch (bsonTypeOf(v)) {
    case 'string':
      return v as string;
    case 'int':
    case 'long':
    case 'decimal':
      return String(v);
    case 'double':
      return formatG(toDouble(v), 6);
    case 'symbol':
      return String((v as { value: unknown }).value);
    case 'javascript':
      return String((v as { code: string }).code);
    case 'date':
      return (v as Date).toISOString();
    default:
      throw new CommandError(16007, `can't convert from BSON type ${typeName(v)} to String`);
  }
}

function isContinuationByte(b: number | undefined): boolean {
  return b !== undefined && (b & 0xc0) === 0x80;
}

function isSubstrNumber(v: unknown): boolean {
  const t = bsonTypeOf(v);
  return v !== MISSING && (t === 'int' || t === 'long' || t === 'double');
}

/** `$substrBytes` of evaluated operands. */
export function substrBytes(strV: unknown, lowerV: unknown, lengthV: unknown): string {
  const str = Buffer.from(coerceToString(strV), 'utf8');
  if (!isSubstrNumber(lowerV)) {
    throw new CommandError(16034, `$substrBytes:  starting index must be a numeric type (is BSON type ${typeName(lowerV)})`);
  }
  if (!isSubstrNumber(lengthV)) {
    throw new CommandError(16035, `$substrBytes:  length must be a numeric type (is BSON type ${typeName(lengthV)})`);
  }
  const lower = Math.trunc(toDouble(lowerV));
  if (lower < 0) throw new CommandError(50752, `$substrBytes:  starting index must be non-negative (got: ${lower})`);
  const signedLength = Math.trunc(toDouble(lengthV));
  const length = signedLength < 0 ? str.length : signedLength;
  if (lower < str.length && isContinuationByte(str[lower])) {
    throw new CommandError(28656, '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.');
  }
  if (lower + length < str.length && isContinuationByte(str[lower + length])) {
    throw new CommandError(28657, '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.');
  }
  if (lower >= str.length) return '';
  return str.subarray(lower, Math.min(str.length, lower + length)).toString('utf8');
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

/** ASCII case mapping, as mongod's `$toUpper`/`$toLower` do. */
export function mapAscii(s: string, upper: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (upper && c >= 97 && c <= 122) out += String.fromCharCode(c - 32);
    else if (!upper && c >= 65 && c <= 90) out += String.fromCharCode(c + 32);
    else out += s[i];
  }
  return out;
}
