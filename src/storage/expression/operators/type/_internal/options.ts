/**
 * `$convert`'s options after evaluation: the target type (a `$type` name, a BSON type number or,
 * in 8.0, `{type, subtype}`), the BinData subtype, `format` for BinData⇄string and `byteOrder`
 * for BinData⇄number. Codes and messages are mongod's (ExpressionConvert::parseTargetType and
 * friends).
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { docValueToString } from '../../../../values/format.js';
import { BSON_TYPE_CODES, BSON_TYPE_NAMES_BY_CODE, bsonTypeOf } from '../../../../values/bson_type.js';
import { MISSING, isNullish } from '../../../../values/missing.js';
import { integerOf, isNumber } from '../../../../values/numeric.js';
import { typeName } from '../../../value.js';

/** A BinData format of `$convert`. */
export type BinDataFormat = 'base64' | 'base64url' | 'hex' | 'utf8' | 'uuid' | 'auto';

const FORMATS: ReadonlySet<string> = new Set(['base64', 'base64url', 'hex', 'utf8', 'uuid', 'auto']);

/** What a conversion needs besides its input. */
export interface ConvertOptions {
  /** The `$type` name of the target ('missing' for type number 0). */
  readonly target: string;
  /** The subtype of a BinData target as given (MISSING: 0), checked by `binDataSubtype`. */
  readonly subtype: unknown;
  /** The BinData⇄string format, null when not given. */
  readonly format: BinDataFormat | null;
  /** BinData⇄number byte order (little unless `byteOrder: 'big'`). */
  readonly littleEndian: boolean;
}

/** The defaults of `$toInt` and its siblings: no format, little-endian, subtype 0. */
export function plainOptions(target: string): ConvertOptions {
  return { target, subtype: MISSING, format: null, littleEndian: true };
}

function typeFromName(name: string): string {
  if (Object.prototype.hasOwnProperty.call(BSON_TYPE_CODES, name)) return name;
  throw new CommandError(2, `Unknown type name: ${name}`);
}

function typeFromNumber(v: unknown): string {
  const n = integerOf(v, 'exact');
  if (typeof n !== 'bigint') throw new CommandError(9, "In $convert, numeric 'to' argument is not an integer");
  if (n === 0n) return 'missing';
  if (n >= -1n && n <= 127n) {
    const name = BSON_TYPE_NAMES_BY_CODE.get(Number(n));
    if (name !== undefined) return name;
  }
  throw new CommandError(9, `In $convert, numeric value for 'to' does not correspond to a BSON type: ${n}`);
}

function typeFromValue(v: unknown): string {
  if (typeof v === 'string') return typeFromName(v);
  if (isNumber(v)) return typeFromNumber(v);
  throw new CommandError(9, `$convert's 'to' argument must be a string or number, but is ${typeName(v)}`);
}

/** The last predefined BinData subtype (9, vector); 128–255 are user-defined. */
const LAST_PREDEFINED_SUBTYPE = 9n;

/**
 * `computeBinDataType`: the subtype a BinData target is made with, checked only when a BinData
 * is made (an input that is nullish, or a target other than BinData, never looks at it).
 */
export function binDataSubtype(v: unknown): number {
  if (v === MISSING) return 0;
  if (!isNumber(v)) {
    throw new CommandError(4341108, `For BinData, $convert's 'subtype' argument must be a number, but is ${typeName(v)}`);
  }
  const n = integerOf(v, 'exact');
  if (typeof n !== 'bigint') throw new CommandError(4341106, "In $convert, numeric 'subtype' argument is not an integer");
  if (n < 0n || n > 255n || (n > LAST_PREDEFINED_SUBTYPE && n < 128n)) {
    throw new CommandError(4341107, `In $convert, numeric value for 'subtype' does not correspond to a BinData type: ${safeInt(n)}`);
  }
  return Number(n);
}

function safeInt(n: bigint): bigint {
  return n > 2147483647n ? 2147483647n : n < -2147483648n ? -2147483648n : n;
}

/**
 * `ConvertTargetTypeInfo::parse` of an evaluated `to`: null when nullish, else the target and
 * the raw subtype (MISSING when not given; other fields of the document are ignored).
 */
export function parseTarget(to: unknown): { target: string; subtype: unknown } | null {
  if (isNullish(to)) return null;
  if (bsonTypeOf(to) !== 'object') return { target: typeFromValue(to), subtype: MISSING };
  const doc = to as Record<string, unknown>;
  const type = Object.prototype.hasOwnProperty.call(doc, 'type') ? doc['type'] : MISSING;
  const subtype = Object.prototype.hasOwnProperty.call(doc, 'subtype') ? doc['subtype'] : MISSING;
  if (type === MISSING) throw new CommandError(9, "$convert's 'to' argument must have a 'type' field");
  return { target: typeFromValue(type), subtype };
}

/** An evaluated `format` (nullish: none). */
export function parseFormat(v: unknown): BinDataFormat | null {
  if (isNullish(v)) return null;
  if (typeof v !== 'string') {
    throw new CommandError(4341114, `$convert requires that 'format' be a string, found: ${typeName(v)} with value ${docValueToString(v)}`);
  }
  if (!FORMATS.has(v)) throw new CommandError(4341125, `Invalid 'format' argument for $convert: ${v}`);
  return v as BinDataFormat;
}

/** An evaluated `byteOrder` (nullish: little). */
export function parseByteOrder(v: unknown): boolean {
  if (isNullish(v)) return true;
  if (typeof v !== 'string') {
    throw new CommandError(9130001, `$convert requires that 'byteOrder' be a string, found: ${typeName(v)} with value ${docValueToString(v)}`);
  }
  if (v === 'little') return true;
  if (v === 'big') return false;
  throw new CommandError(9130002, `Invalid 'byteOrder' argument for $convert: ${v}`);
}
