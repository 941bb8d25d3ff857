/**
 * `$sortByCount` (document_source_sort_by_count.cpp): `{$group: {_id: <expr>, count: {$sum: 1}}}`
 * followed by `{$sort: {count: -1}}` (ties keep first-seen order).
 */
import { CommandError } from '../../../errors/command_error.js';
import { isDocument } from '../../values/paths.js';
import { compileGroup } from './group.js';
import type { StageParser } from './types.js';

const NOT_A_PATH = 'the sortByCount field must be defined as a $-prefixed path or an expression inside an object';

/** Parses `{$sortByCount: "$path" | {<expression>}}`. */
export const parseSortByCount: StageParser = (spec, ctx) => {
  if (isDocument(spec)) {
    const first = Object.keys(spec)[0];
    if (first === undefined || first.charCodeAt(0) !== 36) throw new CommandError(40147, NOT_A_PATH);
  } else if (typeof spec === 'string') {
    if (spec.charCodeAt(0) !== 36) throw new CommandError(40148, NOT_A_PATH);
  } else {
    throw new CommandError(40149, 'the sortByCount field must be specified as a string or as an object');
  }
  const group = compileGroup({ _id: spec, count: { $sum: 1 } }, ctx);
  return function* sortByCount(input) {
    const groups = Array.from(group(input));
    groups.sort((a, b) => (b.count as number) - (a.count as number));
    yield* groups;
  };
};
