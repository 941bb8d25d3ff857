/**
 * `$setIntersection` (ExpressionSetIntersection): the values present in every argument, as
 * mongod's ordered ValueSet gives them (sorted, collation-aware, from the smaller of the sets
 * compared at each step); null as soon as an argument is nullish; 17047 for a non-array;
 * no argument: `[]`.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { collationKeyString } from '../../../values/key_string.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { orderedSetOf } from './_internal.js';

/** `{$setIntersection: [<array>, ...]}`. */
export const setIntersection: ExpressionOperator = {
  name: '$setIntersection',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => {
      const collator = frame.runtime.collator;
      let current: unknown[] = [];
      for (let i = 0; i < args.length; i++) {
        const v = args[i]!(frame);
        if (isNullish(v)) return null;
        if (!Array.isArray(v)) {
          throw new CommandError(17047, `All operands of $setIntersection must be arrays. One argument is of type: ${typeName(v)}`);
        }
        if (i === 0) {
          current = orderedSetOf(v, collator);
        } else if (current.length > 0) {
          let next = orderedSetOf(v, collator);
          if (current.length > next.length) [current, next] = [next, current];
          const keys = new Set(next.map((x) => collationKeyString(x, collator)));
          current = current.filter((x) => keys.has(collationKeyString(x, collator)));
        }
      }
      return current;
    };
  },
};
