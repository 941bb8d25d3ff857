/** `$max` (compare_node.cpp): sets the field when the value sorts higher (`_internal/compare.ts`). */
import { compareModifier } from './_internal/compare.js';
import type { ModifierDefinition } from './types.js';

/** `$max`. */
export const max: ModifierDefinition = { name: '$max', kind: 'modifier', parse: compareModifier('$max') };
