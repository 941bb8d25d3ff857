/**
 * `$changeStreamSplitLargeEvent` (document_source_change_stream_split_large_event.cpp): the last
 * stage of a change stream, splitting an event larger than 16 MiB into fragments, each with
 * `splitEvent: {fragment, of}` and its own resume token. The splitting is the stream's
 * (src/storage/change_stream.ts); the stage is parsed here.
 */
import { CommandError } from '../../../errors/command_error.js';
import { formatValue } from '../../values/format.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$changeStreamSplitLargeEvent: {}}`. */
export const changeStreamSplitLargeEvent: StageDefinition = {
  name: '$changeStreamSplitLargeEvent',
  constraints: Object.freeze({
    stream: 'streaming',
    position: 'last',
    input: 'documents',
    target: 'either',
    allowedIn: Object.freeze({}),
  }),
  parse(spec) {
    if (!isDocument(spec) || Array.isArray(spec) || Object.keys(spec).length > 0) {
      throw new CommandError(7182800, `$changeStreamSplitLargeEvent must take an empty object but found: ${formatValue({ $changeStreamSplitLargeEvent: spec })}`);
    }
    return {
      *run(input) {
        yield* input;
      },
    };
  },
};
