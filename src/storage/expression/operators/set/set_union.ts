/**
 * `$setUnion` (ExpressionSetUnion): the distinct values of all its arguments, as mongod's ordered
 * ValueSet gives them (sorted, collation-aware, the first of equal values kept); null as soon as
 * an argument is nullish; 17043 for a non-array; no argument: `[]`.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { orderedSetOf } from './_internal.js';

/** `{$setUnion: [<array>, ...]}`. */
export const setUnion: ExpressionOperator = {
  name: '$setUnion',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => {
      const all: unknown[] = [];
      for (const a of args) {
        const v = a(frame);
        if (isNullish(v)) return null;
        if (!Array.isArray(v)) {
          throw new CommandError(17043, `All operands of $setUnion must be arrays. One argument is of type: ${typeName(v)}`);
        }
        for (const x of v) all.push(x);
      }
      return orderedSetOf(all, frame.runtime.collator);
    };
  },
};
