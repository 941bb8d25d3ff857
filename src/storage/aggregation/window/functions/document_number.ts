/**
 * `$documentNumber` (accumulator_rank.cpp, AccumulatorDocumentNumber): `{$documentNumber: {}}`,
 * the position of the document in its sorted partition, from 1 (ties get distinct numbers);
 * `sortBy` must have exactly one field.
 */
import { intOrLong } from '../../../values/numeric.js';
import { parseRankStyle } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$documentNumber`. */
export const documentNumber: WindowFunctionDefinition = {
  name: '$documentNumber',
  parse(spec, ctx) {
    parseRankStyle('$documentNumber', spec, ctx);
    return {
      compute(p, out) {
        for (let i = 0; i < p.docs.length; i++) out[i] = intOrLong(BigInt(i + 1));
      },
    };
  },
};
