/** What `$set` and `$setOnInsert` share (set_node.cpp). */
import { cloneValue } from '../../../values/clone.js';
import { identicalValues } from '../../identical.js';
import { NOOP, type ModifierParser } from '../types.js';

/**
 * Replaces or creates the element; a no-op when the value is identical (same type and bytes).
 * `insertOnly`: only when an upsert inserts (`$setOnInsert`).
 */
export function assignModifier(op: '$set' | '$setOnInsert', insertOnly: boolean): ModifierParser {
  return (_field, arg) => ({
    op,
    allowCreation: true,
    insertOnly,
    updateExisting: (current) => (identicalValues(current, arg) ? NOOP : cloneValue(arg)),
    createValue: () => cloneValue(arg),
  });
}
