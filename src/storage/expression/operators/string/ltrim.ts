/** `$ltrim` (ExpressionTrim): `{input, chars}`, code points removed from the start. */
import { trimOperator } from './_internal/trim.js';

/** `{$ltrim: {input: <string>, chars: <string>?}}`. */
export const ltrim = trimOperator('$ltrim', { left: true, right: false });
