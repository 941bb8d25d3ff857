/**
 * `$skip` and `$limit` (mongo/src/mongo/db/pipeline/document_source_skip.cpp, _limit.cpp):
 * the argument is parsed as a 64-bit integer (5107200/5107201 with mongod's reasons), `$skip`
 * must be non-negative and `$limit` positive (15958).
 */
import { CommandError } from '../../../errors/command_error.js';
import { parseIntegerToNonNegativeLong } from '../../values/numeric.js';
import type { StageParser } from './types.js';

/** Parses `{$skip: n}`. */
export const parseSkip: StageParser = (spec) => {
  const r = parseIntegerToNonNegativeLong('$skip', spec);
  if (!r.ok) throw new CommandError(5107200, `invalid argument to $skip stage: ${r.reason}`);
  const n = r.value;
  return function* skip(input) {
    let skipped = 0n;
    for (const doc of input) {
      if (skipped < n) {
        skipped++;
        continue;
      }
      yield doc;
    }
  };
};

/** Parses `{$limit: n}`. */
export const parseLimit: StageParser = (spec) => {
  const r = parseIntegerToNonNegativeLong('$limit', spec);
  if (!r.ok) throw new CommandError(5107201, `invalid argument to $limit stage: ${r.reason}`);
  if (r.value === 0n) throw new CommandError(15958, 'the limit must be positive');
  const n = r.value;
  return function* limit(input) {
    let count = 0n;
    for (const doc of input) {
      yield doc;
      count++;
      if (count >= n) return;
    }
  };
};
