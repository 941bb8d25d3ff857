/**
 * `$sortByCount` (document_source_sort_by_count.cpp): `{$group: {_id: <expr>, count: {$sum: 1}}}`
 * followed by `{$sort: {count: -1}}` (ties keep first-seen order).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition } from '../stage.js';
import { group } from './group.js';

const NOT_A_PATH = 'the sortByCount field must be defined as a $-prefixed path or an expression inside an object';

/** `{$sortByCount: "$path" | {<expression>}}`. */
export const sortByCount: StageDefinition = {
  name: '$sortByCount',
  constraints: BLOCKING,
  parse(spec, ctx) {
    if (isDocument(spec)) {
      const first = Object.keys(spec)[0];
      if (first === undefined || first.charCodeAt(0) !== 36) throw new CommandError(40147, NOT_A_PATH);
    } else if (typeof spec === 'string') {
      if (spec.charCodeAt(0) !== 36) throw new CommandError(40148, NOT_A_PATH);
    } else {
      throw new CommandError(40149, 'the sortByCount field must be specified as a string or as an object');
    }
    const grouped = group.parse({ _id: spec, count: { $sum: 1 } }, ctx);
    return {
      *run(input) {
        const groups: Document[] = Array.from(grouped.run(input));
        groups.sort((a, b) => (b.count as number) - (a.count as number));
        yield* groups;
      },
    };
  },
};
