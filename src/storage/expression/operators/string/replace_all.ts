/** `$replaceAll` (ExpressionReplaceAll): `{input, find, replacement}`, every occurrence of find replaced. */
import { replaceOperator } from './_internal/replace.js';

/** `{$replaceAll: {input: <string>, find: <string>, replacement: <string>}}`. */
export const replaceAll = replaceOperator('$replaceAll', true);
