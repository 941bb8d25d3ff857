/**
 * `$locf` (accumulator_locf.cpp, last observation carried forward): `{$locf: <expression>}`,
 * no `window`; a document's value when it is neither null nor missing, else the last such
 * value before it in the partition, else null.
 */
import { isNullish } from '../../../values/missing.js';
import { parseFramelessExpression } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$locf`. */
export const locf: WindowFunctionDefinition = {
  name: '$locf',
  parse(spec, ctx) {
    const input = parseFramelessExpression('$locf', spec, ctx);
    return {
      compute(p, out) {
        let last: unknown = null;
        for (let i = 0; i < p.docs.length; i++) {
          const v = input(p.frame(i));
          if (!isNullish(v)) last = v;
          out[i] = last;
        }
      },
    };
  },
};
