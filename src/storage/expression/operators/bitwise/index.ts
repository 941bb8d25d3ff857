/** The bitwise operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { bitAnd } from './bit_and.js';
import { bitNot } from './bit_not.js';
import { bitOr } from './bit_or.js';
import { bitXor } from './bit_xor.js';

/** Bitwise expression operators. */
export const BITWISE: readonly ExpressionOperator[] = [
  bitAnd,
  bitNot,
  bitOr,
  bitXor,
];
