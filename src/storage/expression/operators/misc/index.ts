/** The miscellaneous operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { binarySize } from './binary_size.js';
import { bsonSize } from './bson_size.js';
import { functionOperator } from './function.js';
import { meta } from './meta.js';
import { rand } from './rand.js';
import { toHashedIndexKey } from './to_hashed_index_key.js';

/** Miscellaneous expression operators. */
export const MISC: readonly ExpressionOperator[] = [
  binarySize,
  bsonSize,
  functionOperator,
  meta,
  rand,
  toHashedIndexKey,
];
