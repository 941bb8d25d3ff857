/** `$rtrim` (ExpressionTrim): `{input, chars}`, code points removed from the end. */
import { trimOperator } from './_internal/trim.js';

/** `{$rtrim: {input: <string>, chars: <string>?}}`. */
export const rtrim = trimOperator('$rtrim', { left: false, right: true });
