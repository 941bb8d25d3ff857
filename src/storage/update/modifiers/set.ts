/** `$set` (set_node.cpp): replaces or creates the element; a no-op when the value is identical. */
import { assignModifier } from './_internal/assign.js';
import type { ModifierDefinition } from './types.js';

/** `$set`. */
export const set: ModifierDefinition = { name: '$set', kind: 'modifier', parse: assignModifier('$set', false) };
