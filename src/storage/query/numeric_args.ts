/**
 * mongod's integer-argument parsing (BSONElement::parseIntegerElementToLong and friends), with
 * its messages: "Expected a number in: $size: \"x\"", "Expected an integer: $size: 2.5", ...
 * The label is the element as mongod prints it (`name: value`).
 */
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf, isNumber } from '../values/bson_type.js';
import { formatElement } from '../values/bson_to_string.js';
import { decodeDecimal } from '../values/decimal.js';
import type { Decimal128, Long } from '../../bson.js';

const TWO_POW_63 = 9223372036854775808;

/** The outcome of an integer parse: the value, or mongod's failure reason (FailedToParse). */
export type IntegerParse = { ok: true; value: bigint } | { ok: false; reason: string };

/** parseIntegerElementToLong. */
export function parseIntegerToLong(name: string, v: unknown): IntegerParse {
  const label = formatElement(name, v);
  if (!isNumber(v)) return { ok: false, reason: `Expected a number in: ${label}` };
  switch (bsonTypeOf(v)) {
    case 'double': {
      const d = typeof v === 'number' ? v : (v as { value: number }).value;
      if (Number.isNaN(d)) return { ok: false, reason: `Expected an integer, but found NaN in: ${label}` };
      if (d >= TWO_POW_63 || d < -TWO_POW_63) {
        return { ok: false, reason: `Cannot represent as a 64-bit integer: ${label}` };
      }
      if (!Number.isInteger(d)) return { ok: false, reason: `Expected an integer: ${label}` };
      return { ok: true, value: BigInt(d) };
    }
    case 'decimal': {
      const p = decodeDecimal(v as Decimal128);
      if (p.kind !== 'finite') return { ok: false, reason: `Cannot represent as a 64-bit integer: ${label}` };
      let c = p.coefficient;
      if (p.exponent >= 0) c *= 10n ** BigInt(p.exponent);
      else {
        const div = 10n ** BigInt(-p.exponent);
        if (c % div !== 0n) return { ok: false, reason: `Cannot represent as a 64-bit integer: ${label}` };
        c /= div;
      }
      const value = p.negative ? -c : c;
      if (value < -(2n ** 63n) || value >= 2n ** 63n) {
        return { ok: false, reason: `Cannot represent as a 64-bit integer: ${label}` };
      }
      return { ok: true, value };
    }
    case 'long':
      return { ok: true, value: (v as Long).toBigInt() };
    default:
      return { ok: true, value: BigInt(typeof v === 'number' ? v : (v as { value: number }).value) };
  }
}

/** parseIntegerElementToNonNegativeLong. */
export function parseIntegerToNonNegativeLong(name: string, v: unknown): IntegerParse {
  const r = parseIntegerToLong(name, v);
  if (r.ok && r.value < 0n) {
    return { ok: false, reason: `Expected a non-negative number in: ${formatElement(name, v)}` };
  }
  return r;
}

/** parseIntegerElementToInt. */
export function parseIntegerToInt(name: string, v: unknown): IntegerParse {
  const r = parseIntegerToLong(name, v);
  if (r.ok && (r.value < -2147483648n || r.value > 2147483647n)) {
    return { ok: false, reason: `Cannot represent as a 32-bit integer: ${formatElement(name, v)}` };
  }
  return r;
}

/** parseIntegerElementToNonNegativeInt. */
export function parseIntegerToNonNegativeInt(name: string, v: unknown): IntegerParse {
  const r = parseIntegerToInt(name, v);
  if (r.ok && r.value < 0n) {
    return { ok: false, reason: `Expected a non-negative number in: ${formatElement(name, v)}` };
  }
  return r;
}

/** Throws the parse failure as mongod's FailedToParse (9). */
export function unwrapOrFailedToParse(r: IntegerParse): bigint {
  if (!r.ok) throw new CommandError('FailedToParse', r.reason);
  return r.value;
}
