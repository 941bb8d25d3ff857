/** The arithmetic operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { abs } from './abs.js';
import { add } from './add.js';
import { divide } from './divide.js';
import { mod } from './mod.js';
import { multiply } from './multiply.js';
import { subtract } from './subtract.js';

/** Arithmetic expression operators. */
export const ARITHMETIC: readonly ExpressionOperator[] = [
  abs,
  add,
  divide,
  mod,
  multiply,
  subtract,
];
