/** `$pullAll` (pullall_node.cpp): removes the elements equal to any of a list, under the update's collation. */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { valuesEqual } from '../../values/compare.js';
import { cullingModifier } from './_internal/culling.js';
import type { ModifierDefinition, ModifierParser } from './types.js';

const parsePullAll: ModifierParser = (_field, arg, collator) => {
  if (!Array.isArray(arg)) {
    throw new CommandError('BadValue', `$pullAll requires an array argument but was given a ${bsonTypeOf(arg)}`);
  }
  return cullingModifier('$pullAll', (el) => arg.some((v) => valuesEqual(el, v, collator)));
};

/** `$pullAll`. */
export const pullAll: ModifierDefinition = { name: '$pullAll', kind: 'modifier', parse: parsePullAll };
