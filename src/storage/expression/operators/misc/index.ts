/** The miscellaneous operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { meta } from './meta.js';
import { rand } from './rand.js';

/** Miscellaneous expression operators. */
export const MISC: readonly ExpressionOperator[] = [
  meta,
  rand,
];
