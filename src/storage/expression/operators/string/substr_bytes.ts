/** `$substrBytes` (ExpressionSubstrBytes): a substring by UTF-8 byte offsets. */
import { substrOperator } from './_internal.js';

/** `{$substrBytes: [<string>, <start>, <length>]}`. */
export const substrBytes = substrOperator('$substrBytes');
