/** `$sort`: a blocking stage ordering by a sort specification (`compileSort`), stably. */
import { CommandError } from '../../../errors/command_error.js';
import { compileSort } from '../../sort.js';
import { isDocument } from '../../values/paths.js';
import type { StageParser } from './types.js';

/** Parses `{$sort: {field: 1|-1, ...}}`. */
export const parseSort: StageParser = (spec, ctx) => {
  if (!isDocument(spec)) throw new CommandError(15973, 'the $sort key specification must be an object');
  if (Object.keys(spec).length === 0) throw new CommandError(15976, '$sort stage must have at least one sort key');
  const cmp = compileSort(spec, ctx.expressions.runtime.collator);
  return function* sort(input) {
    const all = Array.from(input);
    all.sort(cmp);
    yield* all;
  };
};
