/**
 * `$range` (ExpressionRange): the Int32s from a start, by a step (default 1), up to (or, for a
 * negative step, down to) an end it excludes. Start, end and step must be numbers exactly
 * representable as Int32 (34443-34448; null and missing included), the step non-zero (34449);
 * the memory the result would take is checked first, as mongod estimates it (a vector, then one
 * start-sized Value per element, even for an empty range) against `internalQueryMaxRangeBytes`.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { numKind } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { integral, parseRangedArguments } from './_internal.js';

/** `internalQueryMaxRangeBytes`'s default (100 MB). */
const MAX_RANGE_BYTES = 100 * 1024 * 1024;
/** `sizeof(std::vector<Value>)`. */
const VECTOR_BYTES = 24;
/** `sizeof(Value)`: `Value::getApproximateSize()` of an Int32, Int64 or Double. */
const VALUE_BYTES = 16;
/** A Decimal128 Value also holds its ref-counted 16 bytes (approximately: refcount, vtable). */
const DECIMAL_VALUE_BYTES = VALUE_BYTES + 32;

function bound(v: unknown, notNumeric: [number, string], notInt32: [number, string]): number {
  if (numKind(v) === null) throw new CommandError(notNumeric[0], `${notNumeric[1]}${typeName(v)}`);
  const i = integral(v);
  if (i === undefined) throw new CommandError(notInt32[0], `${notInt32[1]}${docValueToString(v)}`);
  return i;
}

const START: [[number, string], [number, string]] = [
  [34443, '$range requires a numeric starting value, found value of type: '],
  [34444, '$range requires a starting value that can be represented as a 32-bit integer, found value: '],
];
const END: [[number, string], [number, string]] = [
  [34445, '$range requires a numeric ending value, found value of type: '],
  [34446, '$range requires an ending value that can be represented as a 32-bit integer, found value: '],
];
const STEP: [[number, string], [number, string]] = [
  [34447, '$range requires a numeric step value, found value of type:'],
  [34448, '$range requires a step value that can be represented as a 32-bit integer, found value: '],
];

/** `{$range: [<start>, <end>, <step>?]}`. */
export const range: ExpressionOperator = {
  name: '$range',
  parse(arg, scope) {
    const [startArg, endArg, stepArg] = parseRangedArguments(scope, '$range', arg, 2, 3) as [Evaluator, Evaluator, Evaluator | undefined];
    return (frame) => {
      const startValue = startArg(frame);
      const start = bound(startValue, ...START);
      const end = bound(endArg(frame), ...END);
      let step = 1;
      if (stepArg !== undefined) {
        step = bound(stepArg(frame), ...STEP);
        if (step === 0) throw new CommandError(34449, '$range requires a non-zero step value');
      }
      const steps = Math.trunc((end - start) / step);
      const length = steps >= 0 ? 1 + steps : 0;
      const bytes = VECTOR_BYTES + length * (numKind(startValue) === 'decimal' ? DECIMAL_VALUE_BYTES : VALUE_BYTES);
      if (bytes >= MAX_RANGE_BYTES) {
        throw new CommandError(
          'ExceededMemoryLimit',
          `$range would use too much memory (${bytes} bytes) and cannot spill to disk. Memory limit: ${MAX_RANGE_BYTES} bytes`,
        );
      }
      const out: number[] = [];
      for (let v = start; step > 0 ? v < end : v > end; v += step) out.push(v);
      return out;
    };
  },
};
