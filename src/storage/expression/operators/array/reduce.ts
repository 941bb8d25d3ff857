/**
 * `$reduce` (ExpressionReduce): `in` applied to each element of `input` in turn, with `$$this`
 * the element and `$$value` the result so far (first `initialValue`). Null for a null or missing
 * input, 40080 for another non-array. The parse checks (40075-40079) come before any document
 * is read; `input` and `initialValue` see only the outer variables.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { isDocument } from '../../../values/paths.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { namedArguments } from './_internal.js';

const FIELDS = ['input', 'initialValue', 'in'] as const;

/** `{$reduce: {input: <array>, initialValue: <expression>, in: <expression>}}`. */
export const reduce: ExpressionOperator = {
  name: '$reduce',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(40075, `$reduce requires an object as an argument, found: ${typeName(arg)}`);
    const args = namedArguments(arg, FIELDS, (f) => new CommandError(40076, `$reduce found an unknown argument: ${f}`));
    if (!args.has('input')) throw new CommandError(40077, "$reduce requires 'input' to be specified");
    if (!args.has('initialValue')) throw new CommandError(40078, "$reduce requires 'initialValue' to be specified");
    if (!args.has('in')) throw new CommandError(40079, "$reduce requires 'in' to be specified");
    const inner = scope.child();
    const thisSlot = inner.define('this');
    const valueSlot = inner.define('value');
    const input = scope.parse(args.get('input'));
    const initial = scope.parse(args.get('initialValue'));
    const body = inner.parse(args.get('in'));
    return (frame) => {
      const array = input(frame);
      if (isNullish(array)) return null;
      if (!Array.isArray(array)) {
        throw new CommandError(40080, `$reduce requires that 'input' be an array, found: ${docValueToString(array)}`);
      }
      let acc = initial(frame);
      const vars = frame.vars;
      for (const el of array) {
        vars[thisSlot] = el;
        vars[valueSlot] = acc;
        acc = body(frame);
      }
      return acc;
    };
  },
};
