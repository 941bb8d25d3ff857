/** The object operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { getField } from './get_field.js';
import { mergeObjects } from './merge_objects.js';
import { setField } from './set_field.js';
import { unsetField } from './unset_field.js';

/** Object expression operators. */
export const OBJECT: readonly ExpressionOperator[] = [
  getField,
  mergeObjects,
  setField,
  unsetField,
];
