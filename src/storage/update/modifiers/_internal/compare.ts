/**
 * `$min` and `$max` (compare_node.cpp): set when the new value sorts lower / higher (BSON order,
 * strings under the update's collation).
 */
import { compareValues } from '../../../values/compare.js';
import { cloneValue } from '../../../values/clone.js';
import { NOOP, type ModifierParser } from '../types.js';

/** The parser of `op`. */
export function compareModifier(op: '$min' | '$max'): ModifierParser {
  return (_field, arg, collator) => ({
    op,
    allowCreation: true,
    updateExisting(current) {
      const c = compareValues(current, arg, collator);
      if (c === 0 || (op === '$max' ? c > 0 : c < 0)) return NOOP;
      return cloneValue(arg);
    },
    createValue: () => cloneValue(arg),
  });
}
