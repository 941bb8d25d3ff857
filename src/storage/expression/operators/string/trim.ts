/** `$trim` (ExpressionTrim): `{input, chars}`, code points removed from both ends. */
import { trimOperator } from './_internal/trim.js';

/** `{$trim: {input: <string>, chars: <string>?}}`. */
export const trim = trimOperator('$trim', { left: true, right: true });
