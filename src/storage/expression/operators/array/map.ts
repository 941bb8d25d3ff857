/**
 * `$map` (ExpressionMap): `in` evaluated for each element of `input`, seen as `$$<as>` (default
 * `$$this`); a missing result is null. Null for a null or missing input, 16883 for another
 * non-array. The parse checks (16878-16882) come before any document is read.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { MISSING } from '../../../values/missing.js';
import { isDocument } from '../../../values/paths.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { elementString, namedArguments } from './_internal.js';

const FIELDS = ['input', 'as', 'in'] as const;

/** `{$map: {input: <array>, as: <name>?, in: <expression>}}`. */
export const map: ExpressionOperator = {
  name: '$map',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(16878, '$map only supports an object as its argument');
    const args = namedArguments(arg, FIELDS, (f) => new CommandError(16879, `Unrecognized parameter to $map: ${f}`));
    if (!args.has('input')) throw new CommandError(16880, "Missing 'input' parameter to $map");
    if (!args.has('in')) throw new CommandError(16882, "Missing 'in' parameter to $map");
    const inner = scope.child();
    const slot = inner.define(args.has('as') ? elementString(args.get('as')) : 'this');
    const input = scope.parse(args.get('input'));
    const each = inner.parse(args.get('in'));
    return (frame) => {
      const array = input(frame);
      if (isNullish(array)) return null;
      if (!Array.isArray(array)) throw new CommandError(16883, `input to $map must be an array not ${typeName(array)}`);
      if (array.length === 0) return array;
      const out: unknown[] = new Array<unknown>(array.length);
      const vars = frame.vars;
      for (let i = 0; i < array.length; i++) {
        vars[slot] = array[i];
        const r = each(frame);
        out[i] = r === MISSING ? null : r;
      }
      return out;
    };
  },
};
