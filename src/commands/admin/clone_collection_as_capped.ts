/**
 * `cloneCollectionAsCapped`: copies a collection of this database into a new capped collection
 * (`toCollection`, `size` bytes, `temp` optional), its documents in natural order, its indexes
 * not (only `_id`). Checks in mongod 8.2's order (collection_to_capped.cpp, capped_utils.cpp):
 * both names strings (14), valid names (73), `size` above 0 (72), the source a collection (166
 * for a view, 26 when missing), the target free (48).
 */
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';
import { cappedCloneSize, checkCloneName, cloneAsCapped, cloneSource, trueValue } from './_internal/capped_clone.js';

/** The `cloneCollectionAsCapped` command. */
export const cloneCollectionAsCapped: CommandDefinition = {
  name: 'cloneCollectionAsCapped',
  args: 'lenient',
  concerns: { readConcern: 'localOnly', writeConcern: true },
  help: '{ cloneCollectionAsCapped:<fromName>, toCollection:<toName>, size:<sizeInBytes> }',
  run(ctx, cmd) {
    const from = cmd.cloneCollectionAsCapped;
    const to = cmd.toCollection;
    if (typeof from !== 'string') throw new CommandError('TypeMismatch', "'cloneCollectionAsCapped' must be of type String");
    if (typeof to !== 'string') throw new CommandError('TypeMismatch', "'toCollection' must be of type String");
    checkCloneName('source', from);
    checkCloneName('target', to);
    const size = cappedCloneSize(cmd.size);
    const source = cloneSource(ctx, 'cloneCollectionAsCapped', from);
    cloneAsCapped(ctx, source, to, size, trueValue(cmd.temp));
    return {};
  },
};
