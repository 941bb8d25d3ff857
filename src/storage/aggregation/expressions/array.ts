/**
 * Array expression operators: `$size $arrayElemAt $in` (mongo/src/mongo/db/pipeline/
 * expression.cpp).
 */
import { CommandError } from '../../../errors/command_error.js';
import { toDouble, numKind } from '../../values/numeric.js';
import { valuesEqual } from '../../values/compare.js';
import { parseFixedArguments, type Evaluator, type OperatorParser } from '../expression_core.js';
import { formatG } from '../../values/format.js';
import { MISSING, isNullish, typeName } from '../value.js';

/** `$arrayElemAt` of evaluated operands (MISSING when out of range). */
export function arrayElemAt(array: unknown, index: unknown): unknown {
  if (isNullish(array) || isNullish(index)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(28689, `$arrayElemAt's first argument must be an array, but is ${typeName(array)}`);
  }
  if (numKind(index) === null) {
    throw new CommandError(28690, `$arrayElemAt's second argument must be a numeric value, but is ${typeName(index)}`);
  }
  const d = toDouble(index);
  if (!Number.isInteger(d) || d < -2147483648 || d > 2147483647) {
    throw new CommandError(
      28691,
      `$arrayElemAt's second argument must be representable as a 32-bit integer: ${formatG(d, 6)}`,
    );
  }
  const i = d < 0 ? array.length + d : d;
  if (i < 0 || i >= array.length) return MISSING;
  return array[i];
}

/** The array operators. */
export const ARRAY_OPERATORS: Readonly<Record<string, OperatorParser>> = {
  $size: (arg, ps, name) => {
    const [a] = parseFixedArguments(name, arg, ps, 1) as [Evaluator];
    return (ctx) => {
      const v = a(ctx);
      if (!Array.isArray(v)) {
        throw new CommandError(17124, `The argument to $size must be an array, but was of type: ${typeName(v)}`);
      }
      return v.length;
    };
  },
  $arrayElemAt: (arg, ps, name) => {
    const [a, i] = parseFixedArguments(name, arg, ps, 2) as [Evaluator, Evaluator];
    return (ctx) => arrayElemAt(a(ctx), i(ctx));
  },
  $in: (arg, ps, name) => {
    const [needle, haystack] = parseFixedArguments(name, arg, ps, 2) as [Evaluator, Evaluator];
    return (ctx) => {
      const v = needle(ctx);
      const arr = haystack(ctx);
      if (!Array.isArray(arr)) {
        throw new CommandError(40081, `$in requires an array as a second argument, found: ${typeName(arr)}`);
      }
      const x = v === MISSING ? undefined : v;
      return arr.some((el) => valuesEqual(el, x, ctx.collator));
    };
  },
};
