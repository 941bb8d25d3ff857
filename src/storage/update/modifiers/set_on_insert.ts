/** `$setOnInsert` (set_node.cpp): `$set` applied only when an upsert inserts. */
import { assignModifier } from './_internal/assign.js';
import type { ModifierDefinition } from './types.js';

/** `$setOnInsert`. */
export const setOnInsert: ModifierDefinition = { name: '$setOnInsert', kind: 'modifier', parse: assignModifier('$setOnInsert', true) };
