/** `$unset` (unset_node.cpp). */
import { REMOVE, type ModifierDefinition, type ModifierParser } from './types.js';

/** `$unset`: removes a field (an array element becomes null); a missing path is ignored. */
const parseUnset: ModifierParser = () => ({
  op: '$unset',
  allowCreation: false,
  allowNonViablePath: true,
  updateExisting: () => REMOVE,
  createValue: () => null,
});

/** `$unset`. */
export const unset: ModifierDefinition = { name: '$unset', kind: 'modifier', parse: parseUnset };
