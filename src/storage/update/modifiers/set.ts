/** `$set`, `$setOnInsert` and `$unset` (set_node.cpp, unset_node.cpp). */
import { cloneValue } from '../../values/clone.js';
import { identicalValues } from '../identical.js';
import { NOOP, REMOVE, type ModifierParser } from './types.js';

/** `$set`: replaces or creates; a no-op when the value is identical (same type and bytes). */
export const parseSet: ModifierParser = (_field, arg) => ({
  op: '$set',
  allowCreation: true,
  updateExisting: (current) => (identicalValues(current, arg) ? NOOP : cloneValue(arg)),
  createValue: () => cloneValue(arg),
});

/** `$setOnInsert`: `$set` applied only when an upsert inserts. */
export const parseSetOnInsert: ModifierParser = (field, arg, collator) => ({
  ...parseSet(field, arg, collator),
  op: '$setOnInsert',
  insertOnly: true,
});

/** `$unset`: removes a field (an array element becomes null); a missing path is ignored. */
export const parseUnset: ModifierParser = () => ({
  op: '$unset',
  allowCreation: false,
  allowNonViablePath: true,
  updateExisting: () => REMOVE,
  createValue: () => null,
});
