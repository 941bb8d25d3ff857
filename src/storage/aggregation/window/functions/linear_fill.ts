/**
 * `$linearFill` (window_function_expression.h ExpressionLinearFill,
 * window_function_exec_linear_fill.cpp): `{$linearFill: <expression>}`, no `window`, a
 * single-field `sortBy` required (605001). A numeric value stays; a null or missing one between
 * two numeric values of the partition is `y₁ + (x − x₁)·((y₂ − y₁) / (x₂ − x₁))` along the sortBy
 * values (numbers or dates, in mongod's value arithmetic); before the first or after the last
 * numeric value it is null. A value that is neither numeric nor nullish, a sortBy value that is
 * neither numeric nor a date, or of the other kind than the one before, is TypeMismatch; a
 * repeated sortBy value is 6050106.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator } from '../../../expression/types.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { compareValues } from '../../../values/compare.js';
import { isNullish, MISSING } from '../../../values/missing.js';
import { isNumber } from '../../../values/numeric.js';
import { arithmetic, parseFramelessExpression } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

const typeName = (v: unknown): string => (v === MISSING ? 'missing' : bsonTypeOf(v));

/** `$linearFill`. */
export const linearFill: WindowFunctionDefinition = {
  name: '$linearFill',
  parse(spec, ctx) {
    const input: Evaluator = parseFramelessExpression('$linearFill', spec, ctx);
    const sortBy = ctx.sortBy;
    if (sortBy === null || sortBy.keys.length !== 1) {
      throw new CommandError(605001, '$linearFill must be specified with a top level sortBy expression with exactly one element');
    }
    const sortValue = ctx.expressions.parse(`$${sortBy.keys[0]!.path}`);
    const add = arithmetic(ctx, '$add');
    const subtract = arithmetic(ctx, '$subtract');
    const multiply = arithmetic(ctx, '$multiply');
    const divide = arithmetic(ctx, '$divide');
    const interpolate = (x1: unknown, y1: unknown, x2: unknown, y2: unknown, x: unknown): unknown =>
      add(y1, multiply(subtract(x, x1), divide(subtract(y2, y1), subtract(x2, x1))));
    return {
      compute(p, out) {
        const n = p.docs.length;
        const ys = new Array<unknown>(n);
        const xs = new Array<unknown>(n);
        let last: unknown = MISSING;
        for (let i = 0; i < n; i++) {
          const frame = p.frame(i);
          const y = input(frame);
          if (!isNumber(y) && !isNullish(y)) {
            throw new CommandError('TypeMismatch', `Value to be filled must be numeric or nullish, but found ${typeName(y)}`);
          }
          const x = sortValue(frame);
          if (!isNumber(x) && !(x instanceof Date)) {
            throw new CommandError('TypeMismatch', `Value of the sortBy field must be numeric or a date, but found ${typeName(x)}`);
          }
          if (last !== MISSING) {
            if (compareValues(x, last) === 0) throw new CommandError(6050106, 'There can be no repeated values in the sort field');
            if (x instanceof Date !== last instanceof Date) {
              throw new CommandError(
                'TypeMismatch',
                `Conflicting sort value types, previously received type ${typeName(last)}, but found ${typeName(x)}`,
              );
            }
          }
          last = x;
          ys[i] = y;
          xs[i] = x;
        }
        let prev = -1;
        for (let i = 0; i < n; i++) {
          const y = ys[i];
          if (isNullish(y)) {
            out[i] = null;
            continue;
          }
          out[i] = y;
          if (prev >= 0) for (let j = prev + 1; j < i; j++) out[j] = interpolate(xs[prev], ys[prev], xs[i], y, xs[j]);
          prev = i;
        }
      },
    };
  },
};
