/**
 * `$linearFill` (window_function_exec_linear_fill.cpp): `{$linearFill: <expression>}`, no
 * `window`, a single-field `sortBy` required (605001). A numeric value stays; a null or missing
 * one between two numeric values of the partition is interpolated along the sortBy values
 * (numbers or dates), a Double; before the first or after the last numeric value it is null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator } from '../../../expression/types.js';
import { isNullish } from '../../../values/missing.js';
import { doubleOf, isNumber, toDouble } from '../../../values/numeric.js';
import { parseFramelessExpression } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$linearFill`. */
export const linearFill: WindowFunctionDefinition = {
  name: '$linearFill',
  parse(spec, ctx) {
    const input: Evaluator = parseFramelessExpression('$linearFill', spec, ctx);
    const sortBy = ctx.sortBy;
    if (sortBy === null || sortBy.keys.length !== 1) {
      throw new CommandError(605001, '$linearFill must be specified with a top level sortBy expression with exactly one element');
    }
    const x = ctx.expressions.parse(`$${sortBy.keys[0]!.path}`);
    const toX = (v: unknown): number => {
      if (v instanceof Date) return v.getTime();
      if (isNumber(v)) return toDouble(v);
      throw new CommandError(6050105, 'The sortBy field of $linearFill must be numeric or a date');
    };
    return {
      compute(p, out) {
        const n = p.docs.length;
        const ys = new Array<unknown>(n);
        for (let i = 0; i < n; i++) {
          const y = input(p.frame(i));
          if (!isNullish(y) && !isNumber(y)) throw new CommandError(6050106, 'Value to be filled with $linearFill must be numeric or nullish');
          ys[i] = y;
        }
        let prev = -1;
        for (let i = 0; i < n; i++) {
          const y = ys[i];
          if (isNullish(y)) {
            out[i] = null;
            continue;
          }
          out[i] = y;
          if (prev >= 0 && i - prev > 1) {
            const x1 = toX(x(p.frame(prev)));
            const x2 = toX(x(p.frame(i)));
            const y1 = toDouble(ys[prev]);
            const y2 = toDouble(y);
            for (let j = prev + 1; j < i; j++) out[j] = doubleOf(y1 + ((toX(x(p.frame(j))) - x1) * (y2 - y1)) / (x2 - x1));
          }
          prev = i;
        }
      },
    };
  },
};
