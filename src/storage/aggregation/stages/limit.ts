/**
 * `$limit` (document_source_limit.cpp): the argument is parsed as a 64-bit integer (5107201 with
 * mongod's reasons) and must be positive (15958); the stage stops reading its input once done.
 */
import { CommandError } from '../../../errors/command_error.js';
import { parseIntegerToNonNegativeLong } from '../../values/numeric.js';
import { TRANSFORM, type StageDefinition, type StageInstance } from '../stage.js';

/** A parsed `$limit`: how many documents, for the optimiser. */
export interface LimitInstance extends StageInstance {
  readonly limit: bigint;
}

/** `{$limit: <n>}`. */
export const limit: StageDefinition = {
  name: '$limit',
  constraints: TRANSFORM,
  parse(spec): LimitInstance {
    const r = parseIntegerToNonNegativeLong('$limit', spec);
    if (!r.ok) throw new CommandError(5107201, `invalid argument to $limit stage: ${r.reason}`);
    if (r.value === 0n) throw new CommandError(15958, 'the limit must be positive');
    const n = r.value;
    return {
      limit: n,
      *run(input) {
        let count = 0n;
        for (const doc of input) {
          yield doc;
          count++;
          if (count >= n) return;
        }
      },
    };
  },
};
