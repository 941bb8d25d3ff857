/**
 * Arithmetic expression operators: `$add $subtract $multiply $divide $mod $abs`
 * (mongo/src/mongo/db/pipeline/expression.cpp). Null or missing operands make the result
 * null; Int32 results widen to Int64 on overflow, Int64 to Double; Decimal128 wins.
 */
import { Long } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { toDouble, addNumbers, multiplyNumbers, toDecimalParts, divideDecimal, doubleOf, fitsLong, intOrLong, isZeroParts, longOf, modDecimal, numKind, subtractDecimal, toBigInt, widest, type NumKind } from '../../values/numeric.js';
import { encodeDecimal } from '../../values/decimal.js';
import { parseArguments, parseFixedArguments, type Evaluator, type OperatorParser } from '../expression_core.js';
import { isNullish, typeName } from '../value.js';

function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** `$add` of already-evaluated operands. */
export function addValues(values: readonly unknown[]): unknown {
  let total: unknown = 0;
  let date: Date | null = null;
  for (const v of values) {
    if (isNullish(v)) return null;
    if (v instanceof Date) {
      if (date !== null) throw new CommandError(16612, 'only one date allowed in an $add expression');
      date = v;
      continue;
    }
    if (numKind(v) === null) {
      throw new CommandError('TypeMismatch', `$add only supports numeric or date types, not ${typeName(v)}`);
    }
    total = addNumbers(total, v);
  }
  if (date === null) return total;
  let millis: number;
  switch (numKind(total)) {
    case 'double':
    case 'decimal': {
      const sum = toDouble(total) + date.getTime();
      if (!(sum >= -9223372036854775808 && sum < 9223372036854775808)) {
        throw new CommandError('Overflow', 'date overflow in $add');
      }
      millis = roundHalfAwayFromZero(sum);
      break;
    }
    default: {
      const sum = toBigInt(total) + BigInt(date.getTime());
      if (!fitsLong(sum)) throw new CommandError('Overflow', 'date overflow in $add');
      millis = Number(sum);
    }
  }
  return new Date(millis);
}

/** `$subtract` of two evaluated operands. */
export function subtractValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    switch (widest(kl, kr)) {
      case 'decimal':
        return subtractDecimal(lhs, rhs);
      case 'double':
        return doubleOf(toDouble(lhs) - toDouble(rhs));
      case 'long': {
        const r = toBigInt(lhs) - toBigInt(rhs);
        return fitsLong(r) ? longOf(r) : doubleOf(toDouble(lhs) - toDouble(rhs));
      }
      default:
        return intOrLong(toBigInt(lhs) - toBigInt(rhs));
    }
  }
  if (isNullish(lhs) || isNullish(rhs)) return null;
  if (lhs instanceof Date) {
    if (rhs instanceof Date) return Long.fromNumber(lhs.getTime() - rhs.getTime());
    if (kr !== null) return new Date(lhs.getTime() - Math.trunc(toDouble(rhs)));
    throw new CommandError('TypeMismatch', `can't $subtract ${typeName(rhs)} from Date`);
  }
  throw new CommandError('TypeMismatch', `can't $subtract ${typeName(rhs)} from ${typeName(lhs)}`);
}

/** `$multiply` of already-evaluated operands. */
export function multiplyValues(values: readonly unknown[]): unknown {
  let product: unknown = 1;
  for (const v of values) {
    if (isNullish(v)) return null;
    if (numKind(v) === null) {
      throw new CommandError('TypeMismatch', `$multiply only supports numeric types, not ${typeName(v)}`);
    }
    product = multiplyNumbers(product, v);
  }
  return product;
}

/** `$divide` of two evaluated operands. */
export function divideValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    if (kl === 'decimal' || kr === 'decimal') {
      if (isZeroParts(toDecimalParts(rhs))) throw new CommandError('BadValue', "can't $divide by zero");
      return divideDecimal(lhs, rhs);
    }
    const denom = toDouble(rhs);
    if (denom === 0) throw new CommandError('BadValue', "can't $divide by zero");
    return doubleOf(toDouble(lhs) / denom);
  }
  if (isNullish(lhs) || isNullish(rhs)) return null;
  throw new CommandError(
    'TypeMismatch',
    `$divide only supports numeric types, not ${typeName(lhs)} and ${typeName(rhs)}`,
  );
}

/** `$mod` of two evaluated operands (the result has the sign of the dividend). */
export function modValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    const k: NumKind = widest(kl, kr);
    switch (k) {
      case 'decimal': {
        const r = modDecimal(lhs, rhs);
        if (r === null) throw new CommandError(5733415, "can't $mod by zero");
        return r;
      }
      case 'double': {
        const d = toDouble(rhs);
        if (d === 0) throw new CommandError(16610, "can't $mod by zero");
        return doubleOf(toDouble(lhs) % d);
      }
      case 'long': {
        const d = toBigInt(rhs);
        if (d === 0n) throw new CommandError(16610, "can't $mod by zero");
        return longOf(d === -1n ? 0n : toBigInt(lhs) % d);
      }
      default: {
        const d = rhs as number;
        if (d === 0) throw new CommandError(16610, "can't $mod by zero");
        const r = (lhs as number) % d;
        return r === 0 ? 0 : r;
      }
    }
  }
  if (isNullish(lhs) || isNullish(rhs)) return null;
  throw new CommandError(16611, `$mod only supports numeric types, not ${typeName(lhs)} and ${typeName(rhs)}`);
}

/** `$abs` of an evaluated operand. */
export function absValue(v: unknown): unknown {
  if (isNullish(v)) return null;
  switch (numKind(v)) {
    case 'int':
      return intOrLong(toBigInt(v) < 0n ? -toBigInt(v) : toBigInt(v));
    case 'long': {
      const b = toBigInt(v);
      if (b === -(2n ** 63n)) throw new CommandError(28680, "can't take $abs of long long min");
      return longOf(b < 0n ? -b : b);
    }
    case 'double':
      return doubleOf(Math.abs(toDouble(v)));
    case 'decimal': {
      const p = toDecimalParts(v);
      return encodeDecimal(p.kind === 'nan' ? p : ({ ...p, negative: false } as typeof p));
    }
    default:
      throw new CommandError(28765, `$abs only supports numeric types, not ${bsonTypeOf(v)}`);
  }
}

function nary(apply: (values: unknown[]) => unknown): OperatorParser {
  return (arg, ps) => {
    const args = parseArguments(arg, ps);
    return (ctx) => apply(args.map((a) => a(ctx)));
  };
}

function binary(apply: (a: unknown, b: unknown) => unknown): OperatorParser {
  return (arg, ps, name) => {
    const [a, b] = parseFixedArguments(name, arg, ps, 2) as [Evaluator, Evaluator];
    return (ctx) => apply(a(ctx), b(ctx));
  };
}

/** The arithmetic operators. */
export const ARITHMETIC_OPERATORS: Readonly<Record<string, OperatorParser>> = {
  $add: nary(addValues),
  $multiply: nary(multiplyValues),
  $subtract: binary(subtractValues),
  $divide: binary(divideValues),
  $mod: binary(modValues),
  $abs: (arg, ps, name) => {
    const [a] = parseFixedArguments(name, arg, ps, 1) as [Evaluator];
    return (ctx) => absValue(a(ctx));
  },
};
