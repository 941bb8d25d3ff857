/**
 * `$convert`'s options after evaluation: the target type (a `$type` name, a BSON type number or,
 * in 8.0, `{type, subtype}`), the BinData subtype, `format` for BinData⇄string and `byteOrder`
 * for BinData⇄number. Codes and messages are mongod's (ExpressionConvert::parseTargetType and
 * friends).
 */
import { CommandError } from '../../../../../errors/command_error.js';
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
  /** The BinData subtype of a BinData target (0 unless given). */
  readonly subtype: number;
  /** The BinData⇄string format, null when not given. */
  readonly format: BinDataFormat | null;
  /** BinData⇄number byte order (little unless `byteOrder: 'big'`). */
  readonly littleEndian: boolean;
}

/** The defaults of `$toInt` and its siblings: no format, little-endian, subtype 0. */
export function plainOptions(target: string): ConvertOptions {
  return { target, subtype: 0, format: null, littleEndian: true };
}

function typeFromName(name: string): string {
  if (Object.prototype.hasOwnProperty.call(BSON_TYPE_CODES, name)) return name;
  throw new CommandError(2, `Unknown type name: ${name}`);
}

function typeFromNumber(v: unknown): string {
  const n = integerOf(v, 'exact');
  if (typeof n === 'bigint') {
    if (n === 0n) return 'missing';
    if (n >= -1n && n <= 127n) {
      const name = BSON_TYPE_NAMES_BY_CODE.get(Number(n));
      if (name !== undefined) return name;
    }
  }
  throw new CommandError(9, `In $convert, numeric value for 'to' does not correspond to a BSON type: ${String(v)}`);
}

function typeFromValue(v: unknown): string {
  if (typeof v === 'string') return typeFromName(v);
  if (isNumber(v)) return typeFromNumber(v);
  throw new CommandError(9, `$convert's 'to' argument must be a string or number, but is ${typeName(v)}`);
}

const SUBTYPES_LOW_MAX = 9;

function subtypeOf(v: unknown): number {
  if (!isNumber(v)) {
    throw new CommandError(4341108, `$convert's 'subtype' argument must be a number, but is ${typeName(v)}`);
  }
  const n = integerOf(v, 'exact');
  if (typeof n !== 'bigint') {
    throw new CommandError(4341106, `In $convert, 'subtype' must be an integer, but found: ${String(v)}`);
  }
  if (n < 0n || n > 255n || (n > BigInt(SUBTYPES_LOW_MAX) && n < 128n)) {
    throw new CommandError(4341107, `In $convert, numeric value for 'subtype' does not correspond to a BinData type: ${n}`);
  }
  return Number(n);
}

/** The target and subtype of an evaluated, non-nullish `to`. */
export function parseTarget(to: unknown): { target: string; subtype: number } {
  if (bsonTypeOf(to) !== 'object' || to === MISSING) return { target: typeFromValue(to), subtype: 0 };
  const doc = to as Record<string, unknown>;
  let type: unknown = MISSING;
  let subtype: unknown = MISSING;
  // Other fields (and a miscased `Subtype`) are ignored, as mongod ignores them.
  if (Object.prototype.hasOwnProperty.call(doc, 'type')) type = doc['type'];
  if (Object.prototype.hasOwnProperty.call(doc, 'subtype')) subtype = doc['subtype'];
  if (type === MISSING) throw new CommandError(9, "$convert's 'to' document must have a 'type' field");
  if (type === null || type === undefined) {
    throw new CommandError(9, `$convert's 'to.type' argument must be a string or number, but is ${typeName(type)}`);
  }
  const target = typeFromValue(type);
  if (target !== 'binData' || subtype === MISSING) return { target, subtype: 0 };
  return { target, subtype: subtypeOf(subtype) };
}

/** An evaluated `format` (nullish: none). */
export function parseFormat(v: unknown): BinDataFormat | null {
  if (isNullish(v)) return null;
  if (typeof v !== 'string') {
    throw new CommandError(4341114, `$convert's 'format' argument must be a string, but is ${typeName(v)}`);
  }
  if (!FORMATS.has(v)) throw new CommandError(4341125, `Invalid 'format' argument for $convert: ${v}`);
  return v as BinDataFormat;
}

/** An evaluated `byteOrder` (nullish: little). */
export function parseByteOrder(v: unknown): boolean {
  if (isNullish(v)) return true;
  if (typeof v !== 'string') {
    throw new CommandError(9130001, `$convert's 'byteOrder' argument must be a string, but is ${typeName(v)}`);
  }
  if (v === 'little') return true;
  if (v === 'big') return false;
  throw new CommandError(9130002, `Invalid 'byteOrder' argument for $convert: ${v}`);
}
