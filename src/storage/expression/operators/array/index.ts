/** The array operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { arrayElemAtOperator } from './array_elem_at.js';
import { arrayToObject } from './array_to_object.js';
import { concatArrays } from './concat_arrays.js';
import { filter } from './filter.js';
import { first } from './first.js';
import { in_ } from './in.js';
import { indexOfArray } from './index_of_array.js';
import { isArray } from './is_array.js';
import { last } from './last.js';
import { map } from './map.js';
import { objectToArray } from './object_to_array.js';
import { range } from './range.js';
import { reduce } from './reduce.js';
import { reverseArray } from './reverse_array.js';
import { size } from './size.js';
import { slice } from './slice.js';
import { sortArray } from './sort_array.js';
import { zip } from './zip.js';

/** Array expression operators. */
export const ARRAY: readonly ExpressionOperator[] = [
  arrayElemAtOperator,
  arrayToObject,
  concatArrays,
  filter,
  first,
  in_,
  indexOfArray,
  isArray,
  last,
  map,
  objectToArray,
  range,
  reduce,
  reverseArray,
  size,
  slice,
  sortArray,
  zip,
];
