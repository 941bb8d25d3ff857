/**
 * `$setEquals` (ExpressionSetEquals): true when every argument holds the same distinct values
 * (collation-aware); at least two arguments (17045). A constant argument that is not an array is
 * refused when parsed (5887502); at run time any non-array, null included, is 17044. The first
 * difference answers false without evaluating the arguments after it.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { constantOperand, isConstant } from '../../../values/constant_operand.js';
import { keySetOf, type ValueKeySet } from './_internal.js';

function nonArray(code: number, index: number, v: unknown): CommandError {
  return new CommandError(code, `All operands of $setEquals must be arrays. ${index + 1}-th argument is of type: ${typeName(v)}`);
}

/** `{$setEquals: [<array>, <array>, ...]}`. */
export const setEquals: ExpressionOperator = {
  name: '$setEquals',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    if (args.length < 2) throw new CommandError(17045, `$setEquals needs at least two arguments had: ${args.length}`);
    // The first constant argument is the left-hand set (mongod caches it when optimizing).
    let lhsIndex = 0;
    let cached: readonly unknown[] | null = null;
    if (Array.isArray(arg)) {
      for (let i = 0; i < arg.length; i++) {
        const c = constantOperand(arg[i]);
        if (!isConstant(c)) continue;
        if (!Array.isArray(c)) throw nonArray(5887502, i, c);
        if (cached === null) {
          cached = c;
          lhsIndex = i;
        }
      }
    }
    const cachedValues = cached;
    const n = args.length;
    return (frame) => {
      const collator = frame.runtime.collator;
      const setOf = (i: number): ValueKeySet => {
        const v = args[i]!(frame);
        if (!Array.isArray(v)) throw nonArray(17044, i, v);
        return keySetOf(v, collator);
      };
      const lhs = cachedValues !== null ? keySetOf(cachedValues, collator) : setOf(0);
      for (let i = 0; i < n; i++) {
        if (i === lhsIndex) continue;
        if (!lhs.equals(setOf(i))) return false;
      }
      return true;
    };
  },
};
