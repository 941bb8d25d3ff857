/**
 * The expression form of an accumulator (ExpressionFromAccumulator): given one argument that
 * evaluates to an array it accumulates the array's elements, otherwise its arguments; a missing
 * result is null. The state is the accumulator's own (src/storage/accumulators).
 */
import type { AccumulatorDefinition, StateOptions } from '../../../accumulators/types.js';
import { CommandError } from '../../../../errors/command_error.js';
import { MISSING } from '../../../values/missing.js';
import type { ExpressionOperator } from '../../types.js';

const EXPRESSION: StateOptions = { expression: true };

/** The expression operator of accumulator `def`. */
export function accumulatorExpression(def: AccumulatorDefinition): ExpressionOperator {
  return {
    name: def.name,
    parse(arg, scope) {
      const args = scope.parseArguments(arg);
      return (frame) => {
        const acc = def.create(frame.runtime.collator, false, EXPRESSION);
        if (args.length === 1) {
          const v = args[0]!(frame);
          if (Array.isArray(v)) for (const el of v) acc.add(el);
          else acc.add(v);
        } else {
          for (const a of args) acc.add(a(frame));
        }
        const r = acc.result();
        return r === MISSING ? null : r;
      };
    },
  };
}

/**
 * The expression form of `$firstN`, `$lastN`, `$maxN`, `$minN` (ExpressionFromAccumulatorN):
 * `{<name>: {n, input}}`, the accumulator's arguments checked at parse time; `n` is evaluated
 * and checked, then `input` must be an array (5788200), whose elements feed the state.
 */
export function accumulatorNExpression(def: AccumulatorDefinition): ExpressionOperator {
  return {
    name: def.name,
    parse(arg, scope) {
      const parts = def.parseArguments!(arg, 'expression');
      const n = scope.parse(parts.n);
      const input = scope.parse(parts.input);
      return (frame) => {
        const acc = def.create(frame.runtime.collator, false, { n: n(frame) });
        const v = input(frame);
        if (!Array.isArray(v)) throw new CommandError(5788200, 'Input must be an array');
        for (const el of v) acc.add(el);
        return acc.result();
      };
    },
  };
}

/**
 * The expression form of `$median` and `$percentile` (ExpressionFromAccumulatorQuantile):
 * the accumulator's arguments checked at parse time; an array `input` feeds its elements, any
 * other value itself.
 */
export function quantileExpression(def: AccumulatorDefinition): ExpressionOperator {
  return {
    name: def.name,
    parse(arg, scope) {
      const parts = def.parseArguments!(arg, 'expression');
      const input = scope.parse(parts.input);
      const options = { settings: parts.settings };
      return (frame) => {
        const acc = def.create(frame.runtime.collator, false, options);
        const v = input(frame);
        if (Array.isArray(v)) for (const el of v) acc.add(el);
        else acc.add(v);
        return acc.result();
      };
    },
  };
}
