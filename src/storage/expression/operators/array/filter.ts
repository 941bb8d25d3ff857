/**
 * `$filter` (ExpressionFilter): the elements of `input` for which `cond` is truthy, `cond`
 * seeing each as `$$<as>` (default `$$this`); at most `limit` of them (an integral Int32 > 0,
 * 327391/327392; null means no limit). Null for a null or missing input, 28651 for another
 * non-array. The parse checks (28646-28650) come before any document is read.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { isDocument } from '../../../values/paths.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, toBool, typeName } from '../../value.js';
import { elementString, integral, namedArguments } from './_internal.js';

const FIELDS = ['input', 'as', 'cond', 'limit'] as const;

/** `{$filter: {input: <array>, as: <name>?, cond: <expression>, limit: <n>?}}`. */
export const filter: ExpressionOperator = {
  name: '$filter',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(28646, '$filter only supports an object as its argument');
    const args = namedArguments(arg, FIELDS, (f) => new CommandError(28647, `Unrecognized parameter to $filter: ${f}`));
    if (!args.has('input')) throw new CommandError(28648, "Missing 'input' parameter to $filter");
    if (!args.has('cond')) throw new CommandError(28650, "Missing 'cond' parameter to $filter");
    const inner = scope.child();
    const slot = inner.define(args.has('as') ? elementString(args.get('as')) : 'this');
    const limit = args.has('limit') ? scope.parse(args.get('limit')) : undefined;
    const input = scope.parse(args.get('input'));
    const cond = inner.parse(args.get('cond'));
    return (frame) => {
      const array = input(frame);
      if (isNullish(array)) return null;
      if (!Array.isArray(array)) throw new CommandError(28651, `input to $filter must be an array not ${typeName(array)}`);
      if (array.length === 0) return array;
      let remaining = Infinity;
      if (limit !== undefined) {
        const l = limit(frame);
        if (!isNullish(l)) {
          const n = integral(l);
          if (n === undefined) {
            throw new CommandError(327391, `$filter: limit must be represented as a 32-bit integral value: ${docValueToString(l)}`);
          }
          if (n <= 0) throw new CommandError(327392, `$filter: limit must be greater than 0: ${docValueToString(l)}`);
          remaining = n;
        }
      }
      const out: unknown[] = [];
      const vars = frame.vars;
      for (const el of array) {
        vars[slot] = el;
        if (toBool(cond(frame))) {
          out.push(el);
          if (--remaining === 0) break;
        }
      }
      return out;
    };
  },
};
