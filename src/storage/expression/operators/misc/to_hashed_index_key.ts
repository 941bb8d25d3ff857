/**
 * `$toHashedIndexKey` (ExpressionToHashedIndexKey): the Int64 a hashed index stores for the
 * value (`BSONElementHasher::hash64`, seed 0); a missing value hashes as null. Its argument is
 * one operand: `[x]` is an array literal, hashed as an array.
 */
import { hashedIndexKey } from '../../../values/hashed_key.js';
import { MISSING } from '../../../values/missing.js';
import type { ExpressionOperator } from '../../types.js';

/** `{$toHashedIndexKey: <expression>}`. */
export const toHashedIndexKey: ExpressionOperator = {
  name: '$toHashedIndexKey',
  parse(arg, scope) {
    const input = scope.parse(arg);
    return (frame) => {
      const v = input(frame);
      return hashedIndexKey(v === MISSING ? null : v);
    };
  },
};
