/**
 * `$shift` (window_function_shift.cpp): `{$shift: {output, by, default?}}`, the value of `output`
 * for the document `by` positions away in the sorted partition (negative: before), `default`
 * (a constant, null when absent) when there is none; no `window`; a `sortBy` is required.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator } from '../../../expression/types.js';
import { CONSTANT_FRAME } from '../../../expression/value.js';
import { isFoldableOperand } from '../../../values/constant_operand.js';
import { formatElement } from '../../../values/format.js';
import { integerOf, isNumber } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import type { WindowFunctionDefinition } from '../types.js';

const parseError = (message: string): CommandError => new CommandError('FailedToParse', message);

/** `$shift`. */
export const shift: WindowFunctionDefinition = {
  name: '$shift',
  parse(spec, ctx) {
    let seen = false;
    for (const field of Object.keys(spec)) {
      if (field === 'window') throw parseError("$shift does not accept a 'window' field");
      if (ctx.isFunction(field)) {
        if (seen) throw parseError('Cannot specify multiple functions in window function spec');
        seen = true;
      } else throw parseError(`Window function found an unknown argument: ${field}`);
    }
    const args = spec.$shift;
    if (!isDocument(args)) throw parseError('Argument to $shift must be an object');
    let output: Evaluator | undefined;
    let fallback: unknown = null;
    let by: number | undefined;
    for (const [name, v] of Object.entries(args)) {
      if (name === 'output') output = ctx.expressions.parse(v);
      else if (name === 'default') {
        const ev = ctx.expressions.parse(v);
        if (!isFoldableOperand(v)) throw parseError("'$shift:default' expression must yield a constant value.");
        fallback = ev(CONSTANT_FRAME);
      } else if (name === 'by') {
        const n = isNumber(v) ? integerOf(v, 'exact') : undefined;
        if (n === undefined || n === null || n < -(2n ** 31n) || n >= 2n ** 31n) {
          throw parseError(`'$shift:by' field must be an integer, but found  ${formatElement('by', v)}`);
        }
        by = Number(n);
      } else throw parseError('Unknown argument in $shift');
    }
    if (output === undefined) throw parseError("$shift requires an 'output' expression.");
    if (by === undefined) throw parseError("$shift requires 'by' as an integer value.");
    if (ctx.sortBy === null) throw parseError("'$shift' requires a sortBy");
    const out$ = output;
    const offset = by;
    return {
      compute(p, out) {
        const n = p.docs.length;
        for (let i = 0; i < n; i++) {
          const j = i + offset;
          out[i] = j < 0 || j >= n ? fallback : out$(p.frame(j));
        }
      },
    };
  },
};
