/** `$min` (compare_node.cpp): sets the field when the value sorts lower (`_internal/compare.ts`). */
import { compareModifier } from './_internal/compare.js';
import type { ModifierDefinition } from './types.js';

/** `$min`. */
export const min: ModifierDefinition = { name: '$min', kind: 'modifier', parse: compareModifier('$min') };
