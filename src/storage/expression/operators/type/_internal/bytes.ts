/**
 * The bytes of a BinData as mongod sees them, and numbers read from and written to bytes in
 * either byte order (`$convert`'s `byteOrder`, 8.0): js-bson drops the inner length of the old
 * binary subtype 2, which mongod keeps as part of the value.
 */
import { Binary } from '../../../../../bson/library.js';

/** The stored bytes of `b` (subtype 2 with its 4-byte little-endian inner length). */
export function binDataBytes(b: Binary): Uint8Array {
  const data = b.buffer.subarray(0, b.position);
  if (b.sub_type !== 2) return data;
  const out = new Uint8Array(data.length + 4);
  new DataView(out.buffer).setInt32(0, data.length, true);
  out.set(data, 4);
  return out;
}

/** A BinData of `bytes` with `subtype`. */
export function binData(bytes: Uint8Array, subtype: number): Binary {
  return new Binary(bytes, subtype);
}

/** The signed integer of 1, 2, 4 or 8 bytes; undefined for another length. */
export function readSigned(bytes: Uint8Array, littleEndian: boolean): bigint | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (bytes.length) {
    case 1:
      return BigInt(view.getInt8(0));
    case 2:
      return BigInt(view.getInt16(0, littleEndian));
    case 4:
      return BigInt(view.getInt32(0, littleEndian));
    case 8:
      return view.getBigInt64(0, littleEndian);
    default:
      return undefined;
  }
}

/** The float of 4 or 8 bytes; undefined for another length. */
export function readFloat(bytes: Uint8Array, littleEndian: boolean): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length === 4) return view.getFloat32(0, littleEndian);
  if (bytes.length === 8) return view.getFloat64(0, littleEndian);
  return undefined;
}

/** `n` as 4 bytes. */
export function int32Bytes(n: number, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, n, littleEndian);
  return out;
}

/** `n` as 8 bytes. */
export function int64Bytes(n: bigint, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, n, littleEndian);
  return out;
}

/** `d` as 8 bytes. */
export function float64Bytes(d: number, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setFloat64(0, d, littleEndian);
  return out;
}
