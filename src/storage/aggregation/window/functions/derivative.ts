/**
 * `$derivative` (window_function_exec_derivative.cpp): `{$derivative: {input, unit?}, window}`,
 * the rise of `input` over the run of the `sortBy` field between the first and the last document
 * of the frame (with `unit`, the sortBy values are dates and the run is in that unit); null for
 * an empty frame or a zero run. The window is required, `sortBy` must be one plain field.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator } from '../../../expression/types.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { formatElement } from '../../../values/format.js';
import { isNullish } from '../../../values/missing.js';
import { isNumber } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import { arithmetic, parseOutputUnit, requireSingleSortBy } from '../_internal.js';
import { frames, parseWindowBounds, type WindowBounds } from '../bounds.js';
import type { WindowFunctionDefinition } from '../types.js';

const parseError = (message: string): CommandError => new CommandError('FailedToParse', message);

/** `$derivative`. */
export const derivative: WindowFunctionDefinition = {
  name: '$derivative',
  parse(spec, ctx) {
    const sortBy = requireSingleSortBy('$derivative', ctx);
    let bounds: WindowBounds | undefined;
    for (const field of Object.keys(spec)) {
      if (field === 'window') bounds = parseWindowBounds(spec.window, ctx);
      else if (field !== '$derivative') throw parseError(`$derivative got unexpected argument: ${field}`);
    }
    const args = spec.$derivative;
    if (!isDocument(args)) {
      throw parseError(`$derivative expects an object, but got a ${bsonTypeOf(args)}: ${formatElement('$derivative', args)}`);
    }
    let input: Evaluator | undefined;
    let unitMs: number | null = null;
    for (const [name, v] of Object.entries(args)) {
      if (name === 'input') input = ctx.expressions.parse(v);
      else if (name === 'unit') unitMs = parseOutputUnit(v);
      else throw parseError(`$derivative got unexpected argument: ${name}`);
    }
    if (input === undefined) throw parseError("$derivative requires an 'input' expression");
    if (bounds === undefined) throw parseError('$derivative requires explicit window bounds');
    const y = input;
    const x = ctx.expressions.parse(`$${sortBy.keys[0]!.path}`);
    const subtract = arithmetic(ctx, '$subtract');
    const divide = arithmetic(ctx, '$divide');
    const multiply = arithmetic(ctx, '$multiply');
    const window = bounds;
    const unit = unitMs;
    return {
      compute(p, out) {
        const f = frames(window, p);
        for (let i = 0; i < p.docs.length; i++) {
          const s = f.starts[i]!;
          const e = f.ends[i]!;
          if (s >= e) {
            out[i] = null;
            continue;
          }
          const left = p.frame(s);
          const right = p.frame(e - 1);
          const lx = x(left);
          const rx = x(right);
          if (unit !== null) {
            if (!(lx instanceof Date && rx instanceof Date)) {
              throw new CommandError(5624900, "$derivative with 'unit' expects the sortBy field to be a Date");
            }
          } else {
            if (lx instanceof Date || rx instanceof Date) throw new CommandError(5624901, "$derivative where the sortBy is a Date requires an 'unit'");
            if (!isNumber(lx) || !isNumber(rx)) throw new CommandError(5624902, "$derivative (with no 'unit') expects the sortBy field to be numeric");
          }
          const run = subtract(rx, lx);
          const rise = subtract(y(right), y(left));
          if (isNullish(rise)) throw new CommandError(5624903, '$derivative input must not be null or missing');
          let result: unknown;
          try {
            result = divide(rise, run);
          } catch (err) {
            if (err instanceof CommandError && err.code === 2) {
              out[i] = null;
              continue;
            }
            throw err;
          }
          out[i] = unit === null ? result : multiply(result, unit);
        }
      },
    };
  },
};
