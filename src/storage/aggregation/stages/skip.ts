/**
 * `$skip` (document_source_skip.cpp): the argument is parsed as a 64-bit integer (5107200 with
 * mongod's reasons) and must be non-negative.
 */
import { CommandError } from '../../../errors/command_error.js';
import { parseIntegerToNonNegativeLong } from '../../values/numeric.js';
import { TRANSFORM, type StageDefinition, type StageInstance } from '../stage.js';

/** A parsed `$skip`: how many documents, for the optimiser. */
export interface SkipInstance extends StageInstance {
  readonly skip: bigint;
}

/** `{$skip: <n>}`. */
export const skip: StageDefinition = {
  name: '$skip',
  constraints: TRANSFORM,
  parse(spec): SkipInstance {
    const r = parseIntegerToNonNegativeLong('$skip', spec);
    if (!r.ok) throw new CommandError(5107200, `invalid argument to $skip stage: ${r.reason}`);
    const n = r.value;
    return {
      skip: n,
      *run(input) {
        let skipped = 0n;
        for (const doc of input) {
          if (skipped < n) {
            skipped++;
            continue;
          }
          yield doc;
        }
      },
    };
  },
};
