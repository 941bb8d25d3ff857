/** `$pop` (pop_node.cpp): removes the first (-1) or last (1) element of an array. */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { parseIntegerToLong } from '../../values/numeric.js';
import { NOOP, type ModifierDefinition, type ModifierParser } from './types.js';

const parsePop: ModifierParser = (field, arg) => {
  const r = parseIntegerToLong(field, arg);
  if (!r.ok) throw new CommandError('FailedToParse', r.reason);
  if (r.value !== 1n && r.value !== -1n) {
    throw new CommandError('FailedToParse', `$pop expects 1 or -1, found: ${r.value}`);
  }
  const fromFront = r.value === -1n;
  return {
    op: '$pop',
    allowCreation: false,
    updateExisting(current, mc) {
      if (!Array.isArray(current)) {
        throw new CommandError(
          'TypeMismatch',
          `Path '${mc.pathTaken.join('.')}' contains an element of non-array type '${bsonTypeOf(current)}'`,
        );
      }
      if (current.length === 0) return NOOP;
      return fromFront ? current.slice(1) : current.slice(0, -1);
    },
    createValue: () => null,
  };
};

/** `$pop`. */
export const pop: ModifierDefinition = { name: '$pop', kind: 'modifier', parse: parsePop };
