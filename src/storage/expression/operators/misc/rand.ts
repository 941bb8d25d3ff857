/**
 * `$rand` (ExpressionRandom): a Double in [0, 1) per evaluation; its argument is `{}` (or `[]`):
 * anything but an object or array is BSONElement::Obj's 10065, a non-empty one 3040501.
 */
import { makeDouble } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isDocument } from '../../../values/paths.js';

/** `{$rand: {}}`. */
export const rand: ExpressionOperator = {
  name: '$rand',
  parse(arg) {
    if (!isDocument(arg) && !Array.isArray(arg)) throw new CommandError(10065, 'invalid parameter: expected an object ($rand)');
    if (Object.keys(arg).length > 0) throw new CommandError(3040501, '$rand does not currently accept arguments');
    return () => makeDouble(Math.random());
  },
};
