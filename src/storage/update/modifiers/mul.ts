/** `$mul` (arithmetic_node.cpp; the arithmetic is shared with `$inc`, `_internal/arithmetic.ts`). */
import { arithmetic } from './_internal/arithmetic.js';
import type { ModifierDefinition } from './types.js';

/** `$mul`. */
export const mul: ModifierDefinition = { name: '$mul', kind: 'modifier', parse: arithmetic('$mul') };
