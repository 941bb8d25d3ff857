/**
 * `$count` (document_source_count.cpp): `{$group: {_id: null, <f>: {$sum: 1}}}` followed by
 * `{$project: {_id: 0, <f>: 1}}`; no output for an empty input.
 */
import { CommandError } from '../../../errors/command_error.js';
import { BLOCKING, type StageDefinition } from '../stage.js';

/** `{$count: "<field>"}`. */
export const count: StageDefinition = {
  name: '$count',
  constraints: BLOCKING,
  parse(spec) {
    if (typeof spec !== 'string') throw new CommandError(40156, 'the count field must be a non-empty string');
    if (spec.length === 0) throw new CommandError(40157, 'the count field must be a non-empty string');
    if (spec.charCodeAt(0) === 36) throw new CommandError(40158, 'the count field cannot be a $-prefixed path');
    if (spec.includes('\0')) throw new CommandError(40159, 'the count field cannot contain a null byte');
    if (spec.includes('.')) throw new CommandError(40160, "the count field cannot contain '.'");
    const field = spec;
    return {
      *run(input) {
        let n = 0;
        for (const _ of input) n++;
        if (n > 0) yield { [field]: n };
      },
    };
  },
};
