/**
 * Conversions to BinData (`$convert` to 'binData', 8.0; `$toUUID`): strings through `format`
 * (base64, base64url, hex, utf8, uuid; `uuid` only with subtype 4 and subtype 4 only with
 * `uuid`), Int32 as 4 bytes, Int64 and doubles as 8, in `byteOrder`, and a BinData of the same
 * subtype as itself.
 */
import { Binary, type Long } from '../../../../../bson/library.js';
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { toDouble } from '../../../../values/numeric.js';
import { binData, float64Bytes, int32Bytes, int64Bytes } from './bytes.js';
import { conversionFailure, unsupported } from './failure.js';
import { binDataSubtype, type BinDataFormat, type ConvertOptions } from './options.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$/;
const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

function failed(s: string, reason: string): CommandError {
  return conversionFailure(`Failed to parse BinData '${s}' in $convert with no onError value: ${reason}`);
}

/** The bytes `s` stands for in `format`. */
export function stringToBytes(s: string, format: BinDataFormat): Uint8Array {
  switch (format) {
    case 'base64':
      if (!BASE64.test(s)) throw failed(s, 'invalid base64');
      return Buffer.from(s, 'base64');
    case 'base64url':
      if (!BASE64URL.test(s)) throw failed(s, 'invalid base64url');
      return Buffer.from(s, 'base64url');
    case 'hex':
      if (!HEX.test(s)) throw failed(s, 'string passed in is not a valid hex string');
      return Buffer.from(s, 'hex');
    case 'utf8':
      return Buffer.from(s, 'utf8');
    case 'uuid':
      if (!UUID.test(s)) throw failed(s, `Invalid UUID string: ${s}`);
      return Buffer.from(s.replace(/-/g, ''), 'hex');
    case 'auto':
      throw failed(s, "Invalid format 'auto'");
  }
}

/** A string as a BinData of `subtype` in `format`. */
export function stringToBinData(s: string, format: BinDataFormat, subtype: number): Binary {
  if ((format === 'uuid') !== (subtype === 4)) throw failed(s, "Only the 'uuid' format is allowed with the UUID subtype");
  return binData(stringToBytes(s, format), subtype);
}

/** `$convert` to 'binData'. */
export function convertToBinData(input: unknown, opts: ConvertOptions): Binary {
  const type = bsonTypeOf(input);
  if (type !== 'string' && type !== 'int' && type !== 'long' && type !== 'double' && type !== 'binData') {
    throw unsupported(input, 'binData');
  }
  if (type === 'string' && opts.format === null) {
    throw new CommandError(4341115, "Format must be speficied when converting from 'string' to 'binData'");
  }
  const subtype = binDataSubtype(opts.subtype);
  switch (type) {
    case 'string':
      return stringToBinData(input as string, opts.format!, subtype);
    case 'int':
      return binData(int32Bytes(toDouble(input), opts.littleEndian), subtype);
    case 'long':
      return binData(int64Bytes((input as Long).toBigInt(), opts.littleEndian), subtype);
    case 'double':
      return binData(float64Bytes(toDouble(input), opts.littleEndian), subtype);
    case 'binData': {
      const b = input as Binary;
      if (b.sub_type !== subtype) throw conversionFailure('Conversions between different BinData subtypes are not supported');
      return b;
    }
    default:
      throw unsupported(input, 'binData');
  }
}
