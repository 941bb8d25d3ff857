/** `$substrBytes` (ExpressionSubstrBytes): a substring by UTF-8 byte offsets. */
import { substrOperator } from './_internal/substr.js';

/** `{$substrBytes: [<string>, <start>, <length>]}`. */
export const substrBytes = substrOperator('$substrBytes');
