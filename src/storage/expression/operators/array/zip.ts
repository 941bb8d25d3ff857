/**
 * `$zip` (ExpressionZip): the arrays of `inputs` transposed, as long as the shortest or, with
 * `useLongestLength`, the longest (shorter ones padded with `defaults`, else null). Null as soon
 * as an input is null or missing; 34468 for another non-array. The parse checks (34460-34467)
 * come before any document is read.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { MISSING } from '../../../values/missing.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$zip: {inputs: [<array>, ...], useLongestLength: <bool>?, defaults: [<expression>, ...]?}}`. */
export const zip: ExpressionOperator = {
  name: '$zip',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(34460, `$zip only supports an object as an argument, found ${typeName(arg)}`);
    let inputs: Evaluator[] = [];
    let defaults: Evaluator[] = [];
    let useLongestLength = false;
    for (const key of Object.keys(arg)) {
      const v = arg[key];
      if (key === 'inputs') {
        if (!Array.isArray(v)) throw new CommandError(34461, `inputs must be an array of expressions, found ${typeName(v)}`);
        inputs = v.map((x) => scope.parse(x));
      } else if (key === 'defaults') {
        if (!Array.isArray(v)) throw new CommandError(34462, `defaults must be an array of expressions, found ${typeName(v)}`);
        defaults = v.map((x) => scope.parse(x));
      } else if (key === 'useLongestLength') {
        if (typeof v !== 'boolean') throw new CommandError(34463, `useLongestLength must be a bool, found ${typeName(v)}`);
        useLongestLength = v;
      } else {
        throw new CommandError(34464, `$zip found an unknown argument: ${key}`);
      }
    }
    if (inputs.length === 0) throw new CommandError(34465, '$zip requires at least one input array');
    if (!useLongestLength && defaults.length > 0) {
      throw new CommandError(34466, 'cannot specify defaults unless useLongestLength is true');
    }
    if (defaults.length > 0 && defaults.length !== inputs.length) {
      throw new CommandError(34467, 'defaults and inputs must have the same length');
    }
    return (frame) => {
      const arrays: unknown[][] = [];
      let min = 0;
      let max = 0;
      for (let i = 0; i < inputs.length; i++) {
        const v = inputs[i]!(frame);
        if (isNullish(v)) return null;
        if (!Array.isArray(v)) throw new CommandError(34468, `$zip found a non-array expression in input: ${docValueToString(v)}`);
        arrays.push(v);
        if (i === 0) min = max = v.length;
        else {
          min = Math.min(min, v.length);
          max = Math.max(max, v.length);
        }
      }
      const pad: unknown[] = new Array<unknown>(inputs.length).fill(null);
      if (min !== max) for (let i = 0; i < defaults.length; i++) pad[i] = defaults[i]!(frame);
      const length = useLongestLength ? max : min;
      const out: unknown[][] = new Array<unknown[]>(length);
      for (let row = 0; row < length; row++) {
        const tuple: unknown[] = [];
        for (let col = 0; col < arrays.length; col++) {
          const a = arrays[col]!;
          const v = row < a.length ? a[row] : pad[col];
          // A missing default is no element (mongod leaves a missing Value out of an array).
          if (v !== MISSING) tuple.push(v);
        }
        out[row] = tuple;
      }
      return out;
    };
  },
};
