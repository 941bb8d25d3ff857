/** The set operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { allElementsTrue } from './all_elements_true.js';
import { anyElementTrue } from './any_element_true.js';
import { setDifference } from './set_difference.js';
import { setEquals } from './set_equals.js';
import { setIntersection } from './set_intersection.js';
import { setIsSubset } from './set_is_subset.js';
import { setUnion } from './set_union.js';

/** Set expression operators. */
export const SET: readonly ExpressionOperator[] = [
  allElementsTrue,
  anyElementTrue,
  setDifference,
  setEquals,
  setIntersection,
  setIsSubset,
  setUnion,
];
