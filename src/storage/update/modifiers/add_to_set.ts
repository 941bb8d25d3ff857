/**
 * `$addToSet` (addtoset_node.cpp): appends the values (or `$each` values) not already equal to an
 * element. Every comparison, the dedupe of its own values too (the first of equal ones kept), is
 * under the update's collation.
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { cloneValue } from '../../values/clone.js';
import { valuesEqual } from '../../values/compare.js';
import { collationKeyString } from '../../values/key_string.js';
import { isDocument } from '../../values/paths.js';
import { formatValue } from '../../values/format.js';
import { fieldName } from './_internal/id_text.js';
import { NOOP, type ModifierDefinition, type ModifierParser } from './types.js';

const parseAddToSet: ModifierParser = (_field, arg, collator) => {
  let values: unknown[] = [arg];
  if (isDocument(arg)) {
    const keys = Object.keys(arg);
    if (keys[0] === '$each') {
      const each = arg.$each;
      if (!Array.isArray(each)) {
        throw new CommandError(
          'TypeMismatch',
          `The argument to $each in $addToSet must be an array but it was of type ${bsonTypeOf(each)}`,
        );
      }
      if (keys.length > 1) {
        throw new CommandError('BadValue', `Found unexpected fields after $each in $addToSet: ${formatValue(arg)}`);
      }
      values = each;
    }
  }
  const seen = new Set<string>();
  const unique = values.filter((v) => {
    const k = collationKeyString(v, collator);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return {
    op: '$addToSet',
    allowCreation: true,
    updateExisting(current, mc) {
      if (!Array.isArray(current)) {
        throw new CommandError(
          'BadValue',
          `Cannot apply $addToSet to non-array field. Field named '${fieldName(mc.pathTaken)}' has non-array type ${bsonTypeOf(current)}`,
        );
      }
      const toAdd = unique.filter((v) => !current.some((el) => valuesEqual(el, v, collator)));
      if (toAdd.length === 0) return NOOP;
      return [...current, ...toAdd.map(cloneValue)];
    },
    createValue: () => unique.map(cloneValue),
  };
};

/** `$addToSet`. */
export const addToSet: ModifierDefinition = { name: '$addToSet', kind: 'modifier', parse: parseAddToSet };
