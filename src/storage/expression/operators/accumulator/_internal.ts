/**
 * The expression form of an accumulator (ExpressionFromAccumulator): given one argument that
 * evaluates to an array it accumulates the array's elements, otherwise its arguments; a missing
 * result is null. The state is the accumulator's own (src/storage/accumulators).
 */
import type { AccumulatorDefinition } from '../../../accumulators/types.js';
import { MISSING } from '../../../values/missing.js';
import type { ExpressionOperator } from '../../types.js';

/** The expression operator of accumulator `def`. */
export function accumulatorExpression(def: AccumulatorDefinition): ExpressionOperator {
  return {
    name: def.name,
    parse(arg, scope) {
      const args = scope.parseArguments(arg);
      return (frame) => {
        const acc = def.create(frame.runtime.collator);
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
