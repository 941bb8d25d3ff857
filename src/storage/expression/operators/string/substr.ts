/** `$substr`: the older name of `$substrBytes` (UTF-8 bytes). */
import { substrOperator } from './_internal/substr.js';

/** `{$substr: [<string>, <start>, <length>]}`. */
export const substr = substrOperator('$substr');
