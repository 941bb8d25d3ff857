/** The string operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { concat } from './concat.js';
import { substr } from './substr.js';
import { substrBytes } from './substr_bytes.js';
import { toLower } from './to_lower.js';
import { toUpper } from './to_upper.js';

/** String expression operators. */
export const STRING: readonly ExpressionOperator[] = [
  concat,
  substr,
  substrBytes,
  toLower,
  toUpper,
];
