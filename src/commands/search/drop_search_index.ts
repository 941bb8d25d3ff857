/** `dropSearchIndex`: Mayfly has no search node, so it answers as mongod without one does (31082). */
import { searchIndexesNotEnabled } from '../../errors/search_not_enabled.js';
import type { CommandDefinition } from '../types.js';

/** The `dropSearchIndex` command: 31082 SearchNotEnabled. */
export const dropSearchIndex: CommandDefinition = {
  name: 'dropSearchIndex',
  args: 'lenient',
  help: 'Atlas Search index management (needs a search node: answers SearchNotEnabled)',
  run: () => {
    throw searchIndexesNotEnabled();
  },
};
