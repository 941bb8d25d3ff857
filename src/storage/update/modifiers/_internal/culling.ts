/** What `$pull` and `$pullAll` share (array_culling_node.cpp). */
import { CommandError } from '../../../../errors/command_error.js';
import { NOOP, type Modifier } from '../types.js';

/** The modifier removing the elements `matches` accepts (a no-op when none). */
export function cullingModifier(op: '$pull' | '$pullAll', matches: (el: unknown) => boolean): Modifier {
  return {
    op,
    allowCreation: false,
    updateExisting(current) {
      if (!Array.isArray(current)) throw new CommandError('BadValue', 'Cannot apply $pull to a non-array value');
      const kept = current.filter((el) => !matches(el));
      return kept.length === current.length ? NOOP : kept;
    },
    createValue: () => null,
  };
}

