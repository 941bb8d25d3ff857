/** `$inc` (arithmetic_node.cpp; the arithmetic is shared with `$mul`, `_internal/arithmetic.ts`). */
import { arithmetic } from './_internal/arithmetic.js';
import type { ModifierDefinition } from './types.js';

/** `$inc`. */
export const inc: ModifierDefinition = { name: '$inc', kind: 'modifier', parse: arithmetic('$inc') };
