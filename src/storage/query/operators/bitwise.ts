/**
 * Bitwise operators: $bitsAllSet, $bitsAllClear, $bitsAnySet, $bitsAnyClear, over integral
 * numbers (two's complement, sign-extended past bit 63) and BinData (zero-extended).
 */
import type { Binary } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { exactInt64, fitsLong, integerOf, isNumber, parseIntegerToNonNegativeInt, parseIntegerToNonNegativeLong } from '../../values/numeric.js';
import { formatElement } from '../../values/format.js';
import { leaf, type Clause } from '../types.js';

/** The bit-test operators. */
export type BitOp = '$bitsAllSet' | '$bitsAllClear' | '$bitsAnySet' | '$bitsAnyClear';

const MASK64 = (1n << 64n) - 1n;

/** `{path: {$bitsXxx: positions | mask | BinData}}`. */
export function parseBitTest(op: BitOp, name: string | null, rhs: unknown): Clause {
  let positions: number[];
  let mask: bigint;
  if (Array.isArray(rhs)) {
    positions = rhs.map((e, i) => {
      const r = parseIntegerToNonNegativeInt(String(i), e);
      if (!r.ok) throw new CommandError('BadValue', `Failed to parse bit position. ${r.reason}`);
      return Number(r.value);
    });
    mask = 0n;
    for (const p of positions) mask |= 1n << BigInt(Math.min(p, 63));
  } else if (isNumber(rhs)) {
    const r = parseIntegerToNonNegativeLong(op, rhs);
    if (!r.ok) throw new CommandError('FailedToParse', r.reason);
    mask = r.value;
    positions = [];
    for (let b = 0; b < 64; b++) if ((mask >> BigInt(b)) & 1n) positions.push(b);
  } else if (bsonTypeOf(rhs) === 'binData') {
    const bin = rhs as Binary;
    const bytes = bin.buffer.subarray(0, bin.position);
    positions = [];
    mask = 0n;
    for (let byte = 0; byte < bytes.length; byte++) {
      const value = bytes[byte]!;
      if (value === 0) continue;
      if (byte < 8) mask |= BigInt(value) << BigInt(byte * 8);
      else mask |= 1n << 63n;
      for (let bit = 0; bit < 8; bit++) if (value & (1 << bit)) positions.push(byte * 8 + bit);
    }
  } else {
    throw new CommandError(
      'BadValue',
      `${name ?? '(None)'} takes an Array, a number, or a BinData but received: ${formatElement(op, rhs)}`,
    );
  }
  const numberTest = makeNumberTest(op, mask & MASK64);
  const binaryTest = makeBinaryTest(op, positions);
  return leaf((v) => {
    const t = bsonTypeOf(v);
    if (t === 'binData') {
      const b = v as Binary;
      return binaryTest(b.buffer, b.position);
    }
    const n = integralValue(v, t);
    return n !== null && numberTest(n);
  });
}

/**
 * A number's value as an unsigned 64-bit pattern, or null when it is not an integral Int64 (a
 * Decimal128's fraction is dropped).
 */
function integralValue(v: unknown, t: string): bigint | null {
  const n = t === 'decimal' ? integerOf(v, 'truncate') : exactInt64(v);
  return n === null || n === undefined || !fitsLong(n) ? null : BigInt.asUintN(64, n);
}

function makeNumberTest(op: BitOp, mask: bigint): (x: bigint) => boolean {
  switch (op) {
    case '$bitsAllSet':
      return (x) => (x & mask) === mask;
    case '$bitsAllClear':
      return (x) => (x & mask) === 0n;
    case '$bitsAnySet':
      return (x) => (x & mask) !== 0n;
    default:
      return (x) => (x & mask) !== mask;
  }
}

function makeBinaryTest(op: BitOp, positions: readonly number[]): (bytes: Uint8Array, length: number) => boolean {
  const wantSet = op === '$bitsAllSet' || op === '$bitsAnySet';
  const all = op === '$bitsAllSet' || op === '$bitsAllClear';
  return (bytes, length) => {
    for (const p of positions) {
      const set = p < length * 8 && (bytes[p >> 3]! & (1 << (p & 7))) !== 0;
      if (set === wantSet) {
        if (!all) return true;
      } else if (all) {
        return false;
      }
    }
    return all;
  };
}
