/**
 * `$mergeObjects` as an expression (ExpressionMergeObjects): the fields of its arguments, in
 * order, a later value replacing an earlier one in place. An argument that evaluates to a
 * non-empty array contributes its elements in turn; null, undefined and missing are skipped;
 * anything else (an empty array included) is 40400. No argument: `{}`.
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { formatValue } from '../../../values/format.js';
import { isDocument } from '../../../values/paths.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** Sets the fields of `v` on `out` (nullish: nothing; a non-object: 40400). */
function mergeInto(out: Document, v: unknown): void {
  if (isNullish(v)) return;
  if (!isDocument(v)) {
    throw new CommandError(40400, `$mergeObjects requires object inputs, but input ${formatValue(v)} is of type ${typeName(v)}`);
  }
  for (const key of Object.keys(v)) {
    Object.defineProperty(out, key, { value: v[key], writable: true, enumerable: true, configurable: true });
  }
}

/** `{$mergeObjects: [<object>, ...]}` or `{$mergeObjects: <object>}`. */
export const mergeObjects: ExpressionOperator = {
  name: '$mergeObjects',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => {
      const out: Document = {};
      for (const a of args) {
        const v = a(frame);
        // A non-empty array contributes its elements; an empty one is refused like any non-object.
        if (Array.isArray(v) && v.length > 0) for (const el of v) mergeInto(out, el);
        else mergeInto(out, v);
      }
      return out;
    };
  },
};
