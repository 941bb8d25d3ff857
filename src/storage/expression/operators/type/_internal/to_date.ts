/**
 * Conversions to date (`$toDate`, `$convert` to 'date'): strings through the shared date reader
 * (`values/date_parse.ts`, UTC), Int64, doubles and Decimal128s as milliseconds since the epoch
 * (truncated; NaN, the infinities and values outside Int64 fail), ObjectIds and Timestamps by
 * their seconds.
 */
import type { Decimal128, Long, ObjectId, Timestamp } from '../../../../../bson/library.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { parseDateString } from '../../../../values/date_parse.js';
import { decodeDecimal } from '../../../../values/decimal.js';
import { UTC } from '../../../../values/timezone.js';
import { toDouble } from '../../../../values/numeric.js';
import { conversionFailure, unsupported } from './failure.js';
import type { ConvertOptions } from './options.js';

const TWO_POW_63 = 9223372036854775808;

function fromMillis(ms: number): Date {
  return new Date(ms);
}

function overflow(text: string): Error {
  return conversionFailure(`Conversion would overflow target type in $convert with no onError value: ${text}`);
}

/** `$toDate`, `$convert` to 'date'. */
export function convertToDate(input: unknown, opts: ConvertOptions): Date {
  switch (bsonTypeOf(input)) {
    case 'date':
      return input as Date;
    case 'string':
      return fromMillis(parseDateString(input as string, UTC));
    case 'long':
      return fromMillis(Number((input as Long).toBigInt()));
    case 'double': {
      const d = toDouble(input);
      if (Number.isNaN(d)) throw conversionFailure('Attempt to convert NaN value to integer type in $convert with no onError value');
      if (!Number.isFinite(d)) {
        throw conversionFailure('Attempt to convert infinity value to integer type in $convert with no onError value');
      }
      if (d >= TWO_POW_63 || d < -TWO_POW_63) throw overflow(String(d));
      return fromMillis(Math.trunc(d));
    }
    case 'decimal': {
      const p = decodeDecimal(input as Decimal128);
      if (p.kind === 'nan') throw conversionFailure('Attempt to convert NaN value to integer type in $convert with no onError value');
      if (p.kind === 'inf') {
        throw conversionFailure('Attempt to convert infinity value to integer type in $convert with no onError value');
      }
      const d = toDouble(input);
      if (d >= TWO_POW_63 || d < -TWO_POW_63) throw overflow(String(input));
      return fromMillis(Math.trunc(d));
    }
    case 'objectId':
      // The ObjectId's first four bytes, a signed count of seconds (0x80000000 is 1901). `id`
      // builds a fresh buffer on each read (from Node's pool): read it once.
      const id = (input as ObjectId).id;
      return fromMillis(((id[0]! << 24) | (id[1]! << 16) | (id[2]! << 8) | id[3]!) * 1000);
    case 'timestamp':
      // The Timestamp's seconds, unsigned.
      return fromMillis((input as Timestamp).t * 1000);
    default:
      throw unsupported(input, opts.target);
  }
}
