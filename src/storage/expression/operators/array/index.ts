/** The array operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { arrayElemAtOperator } from './array_elem_at.js';
import { in_ } from './in.js';
import { size } from './size.js';

/** Array expression operators. */
export const ARRAY: readonly ExpressionOperator[] = [
  arrayElemAtOperator,
  in_,
  size,
];
