/**
 * Conversions to string (`$toString`, `$convert` to 'string'): doubles in their shortest
 * round-trip digits, in exponent form below 1e-4 and from 1e16 (`1e+16`, `9e-05`, `-0`, `NaN`,
 * `Infinity`), Decimal128 exactly, dates as `%Y-%m-%dT%H:%M:%S.%LZ` for years 0–9999 (18537
 * outside), ObjectIds as hex, BinData through a `format` (`$toString`: `auto`).
 */
import { Binary, type Decimal128, type Long, type ObjectId } from '../../../../../bson/library.js';
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { docValueToString } from '../../../../values/format.js';
import { toDouble } from '../../../../values/numeric.js';
import { STRING_VALUE_LIMIT, stringValue } from '../../../../values/string_value.js';
import { binDataBytes } from './bytes.js';
import { conversionFailure, unsupported } from './failure.js';
import type { BinDataFormat, ConvertOptions } from './options.js';

/** A double as mongod's `$toString` writes it. */
export function doubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const e = d.toExponential();
  const [mantissa, expText] = e.split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const digits = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(d);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A date as `%Y-%m-%dT%H:%M:%S.%LZ` (18537 for a year outside 0–9999). */
export function dateToString(date: Date): string {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) {
    throw new CommandError(
      18537,
      `Could not convert date to string: date component was outside the supported range of 0-9999: ${Number.isNaN(year) ? 'NaN' : year}`,
    );
  }
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}T` +
    `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}

/** The canonical text of a 16-byte UUID. */
export function uuidText(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function isUuid(b: Binary): boolean {
  return b.sub_type === 4 && b.position === 16;
}

/** A BinData as text in `format`, refused at 16 MB (241; 16493, as any string value, for utf8). */
export function binDataToString(b: Binary, format: BinDataFormat): string {
  const text = binDataText(b, format);
  if (format === 'utf8') return stringValue(text);
  // The other formats are ASCII: one byte per character.
  if (text.length >= STRING_VALUE_LIMIT) throw cannotConvert(b, 'Tried to create string longer than 16MB');
  return text;
}

function cannotConvert(b: Binary, reason: string): Error {
  return conversionFailure(`Failed to convert '${docValueToString(b)}' to string in $convert with no onError value: ${reason}`);
}

function binDataText(b: Binary, format: BinDataFormat): string {
  const bytes = binDataBytes(b);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (format) {
    case 'auto':
      return isUuid(b) ? uuidText(bytes) : buffer.toString('base64');
    case 'base64':
      return buffer.toString('base64');
    case 'base64url':
      return buffer.toString('base64url');
    case 'hex':
      return buffer.toString('hex').toUpperCase();
    case 'utf8': {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw cannotConvert(b, 'BinData does not represent a valid UTF-8 string');
      }
    }
    case 'uuid':
      if (!isUuid(b)) throw cannotConvert(b, 'BinData does not represent a valid UUID');
      return uuidText(bytes);
  }
}

/** `$toString`, `$convert` to 'string'. */
export function convertToString(input: unknown, opts: ConvertOptions): string {
  switch (bsonTypeOf(input)) {
    case 'string':
      return input as string;
    case 'double':
      return doubleToString(toDouble(input));
    case 'int':
      return String(typeof input === 'number' ? input : (input as { value: number }).value);
    case 'long':
      return (input as Long).toString();
    case 'decimal':
      return (input as Decimal128).toString();
    case 'bool':
      return input === true ? 'true' : 'false';
    case 'objectId':
      return (input as ObjectId).toHexString();
    case 'date':
      return dateToString(input as Date);
    case 'binData':
      if (opts.format === null) {
        throw new CommandError(4341115, "Format must be speficied when converting from 'binData' to 'string'");
      }
      return binDataToString(input as Binary, opts.format);
    default:
      throw unsupported(input, 'string');
  }
}
