/** `$replaceOne` (ExpressionReplaceOne): `{input, find, replacement}`, the first occurrence of find replaced. */
import { replaceOperator } from './_internal/replace.js';

/** `{$replaceOne: {input: <string>, find: <string>, replacement: <string>}}`. */
export const replaceOne = replaceOperator('$replaceOne', false);
