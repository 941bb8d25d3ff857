/** The arithmetic operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { abs } from './abs.js';
import { add } from './add.js';
import { ceil } from './ceil.js';
import { divide } from './divide.js';
import { exp } from './exp.js';
import { floor } from './floor.js';
import { ln } from './ln.js';
import { log } from './log.js';
import { log10 } from './log10.js';
import { mod } from './mod.js';
import { multiply } from './multiply.js';
import { pow } from './pow.js';
import { round } from './round.js';
import { sigmoid } from './sigmoid.js';
import { sqrt } from './sqrt.js';
import { subtract } from './subtract.js';
import { trunc } from './trunc.js';

/** Arithmetic expression operators. */
export const ARITHMETIC: readonly ExpressionOperator[] = [
  abs,
  add,
  ceil,
  divide,
  exp,
  floor,
  ln,
  log,
  log10,
  mod,
  multiply,
  pow,
  round,
  sigmoid,
  sqrt,
  subtract,
  trunc,
];
