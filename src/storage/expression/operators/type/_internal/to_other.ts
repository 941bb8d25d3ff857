/**
 * Conversions to bool and to objectId: every value is a bool (`Value::coerceToBool`: numeric
 * zero is false, every string true); an ObjectId is itself or a string of 24 hex digits.
 */
import { ObjectId } from '../../../../../bson/library.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { toBool } from '../../../value.js';
import { conversionFailure, unsupported } from './failure.js';
import type { ConvertOptions } from './options.js';

/** `$toBool`, `$convert` to 'bool'. */
export function convertToBool(input: unknown): boolean {
  return toBool(input);
}

const HEX24 = /^[0-9A-Fa-f]{24}$/;

/** `$toObjectId`, `$convert` to 'objectId'. */
export function convertToObjectId(input: unknown, opts: ConvertOptions): ObjectId {
  const t = bsonTypeOf(input);
  if (t === 'objectId') return input as ObjectId;
  if (t !== 'string') throw unsupported(input, opts.target);
  const s = input as string;
  if (s.length !== 24) {
    throw conversionFailure(
      `Failed to parse objectId '${s}' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found ${s.length}`,
    );
  }
  if (!HEX24.test(s)) {
    const bad = [...s].find((c) => !/[0-9A-Fa-f]/.test(c)) ?? '';
    throw conversionFailure(`Failed to parse objectId '${s}' in $convert with no onError value: Invalid character found in hex string: ${bad}`);
  }
  return ObjectId.createFromHexString(s.toLowerCase());
}
