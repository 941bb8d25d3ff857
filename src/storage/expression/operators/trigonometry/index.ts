/** The trigonometric operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { acos } from './acos.js';
import { acosh } from './acosh.js';
import { asin } from './asin.js';
import { asinh } from './asinh.js';
import { atan } from './atan.js';
import { atan2 } from './atan2.js';
import { atanh } from './atanh.js';
import { cos } from './cos.js';
import { cosh } from './cosh.js';
import { degreesToRadians } from './degrees_to_radians.js';
import { radiansToDegrees } from './radians_to_degrees.js';
import { sin } from './sin.js';
import { sinh } from './sinh.js';
import { tan } from './tan.js';
import { tanh } from './tanh.js';

/** Trigonometric expression operators. */
export const TRIGONOMETRY: readonly ExpressionOperator[] = [
  acos,
  acosh,
  asin,
  asinh,
  atan,
  atan2,
  atanh,
  cos,
  cosh,
  degreesToRadians,
  radiansToDegrees,
  sin,
  sinh,
  tan,
  tanh,
];
