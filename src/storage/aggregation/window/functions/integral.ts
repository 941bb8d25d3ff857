/**
 * `$integral` (window_function_expression.h ExpressionIntegral, window_function_integral.cpp):
 * `{$integral: {input, unit?}, window?}`, the area under `input` against the `sortBy` field over
 * the frame by the trapezoidal rule; with `unit` (week or smaller) the sortBy values are dates
 * and the area is per unit. `sortBy` must be one plain field.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator } from '../../../expression/types.js';
import { isDocument } from '../../../values/paths.js';
import { formatElement } from '../../../values/format.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { overFrames } from '../accumulator.js';
import { arithmetic, parseOutputUnit, requireSingleSortBy } from '../_internal.js';
import { parseWindowBounds, WHOLE_PARTITION, type WindowBounds } from '../bounds.js';
import { IntegralState } from '../states.js';
import type { WindowFunctionDefinition } from '../types.js';

const parseError = (message: string): CommandError => new CommandError('FailedToParse', message);

/** `$integral`. */
export const integral: WindowFunctionDefinition = {
  name: '$integral',
  parse(spec, ctx) {
    const sortBy = requireSingleSortBy('$integral', ctx);
    let bounds: WindowBounds = WHOLE_PARTITION;
    for (const field of Object.keys(spec)) {
      if (field === 'window') bounds = parseWindowBounds(spec.window, ctx);
      else if (field !== '$integral') throw parseError(`$integral got unexpected argument: ${field}`);
    }
    const args = spec.$integral;
    if (!isDocument(args)) throw parseError(`$integral expects an object, but got a ${bsonTypeOf(args)}: ${formatElement('$integral', args)}`);
    let input: Evaluator | undefined;
    let unitMs: number | null = null;
    for (const [name, v] of Object.entries(args)) {
      if (name === 'input') input = ctx.expressions.parse(v);
      else if (name === 'unit') unitMs = parseOutputUnit(v);
      else throw parseError(`$integral got unexpected argument: ${name}`);
    }
    if (input === undefined) throw parseError("$integral requires an 'input' expression");
    const y = input;
    const x = ctx.expressions.parse(`$${sortBy.keys[0]!.path}`);
    const unit = unitMs;
    const ops = {
      add: arithmetic(ctx, '$add'),
      subtract: arithmetic(ctx, '$subtract'),
      multiply: arithmetic(ctx, '$multiply'),
      divide: arithmetic(ctx, '$divide'),
    };
    return overFrames(bounds, (frame) => [x(frame), y(frame)], () => new IntegralState(unit, ops));
  },
};
