/** `$unsetField`: a copy of `input` without the field named `field` (taken literally). */
import { setFieldOperator } from './_internal.js';

/** `{$unsetField: {field, input}}`. */
export const unsetField = setFieldOperator('$unsetField', true);
