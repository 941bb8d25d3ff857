/** `$setField`: a copy of `input` with the field named `field` (taken literally) set to `value`. */
import { setFieldOperator } from './_internal.js';

/** `{$setField: {field, input, value}}`. */
export const setField = setFieldOperator('$setField', false);
