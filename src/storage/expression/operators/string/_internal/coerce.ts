/**
 * What most string operators share: `Value::coerceToString`, the 16MB ceiling of a string value
 * (values/string_value.ts, re-exported), UTF-8 lengths of JS strings and ASCII case mapping.
 */
import type { Timestamp } from '../../../../../bson/library.js';
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { formatG } from '../../../../values/format.js';
import { MISSING } from '../../../../values/missing.js';
import { toDouble } from '../../../../values/numeric.js';
import { typeName } from '../../../value.js';

export { stringValue } from '../../../../values/string_value.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `Timestamp::toString`: `%b %e %H:%M:%S` of the seconds in UTC, then `:` and the increment. */
export function timestampToString(t: Timestamp): string {
  const d = new Date(t.t * 1000);
  const day = d.getUTCDate();
  return `${MONTHS[d.getUTCMonth()]} ${day < 10 ? ` ${day}` : day} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}:${t.i}`;
}

/** `Value::coerceToString`: numbers as text, dates in ISO form, timestamps as text, null/missing as "". */
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
    case 'timestamp':
      return timestampToString(v as Timestamp);
    default:
      throw new CommandError(16007, `can't convert from BSON type ${typeName(v)} to String`);
  }
}

/** The number of UTF-8 bytes of `s` (lone surrogates count 3, as U+FFFD would). */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** The number of code points of `s`. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const ASCII_LOWER = /[a-z]+/g;
const ASCII_UPPER = /[A-Z]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** ASCII case mapping, as mongod's `$toUpper`/`$toLower`/`$strcasecmp` do (`str::toLower`). */
export function mapAscii(s: string, upper: boolean): string {
  // An ASCII string's JS case mapping is ASCII's.
  if (!NON_ASCII.test(s)) return upper ? s.toUpperCase() : s.toLowerCase();
  // Otherwise only the runs of ASCII letters are mapped.
  return upper ? s.replace(ASCII_LOWER, (m) => m.toUpperCase()) : s.replace(ASCII_UPPER, (m) => m.toLowerCase());
}
