/**
 * What mongod answers for search without a search node (mongot), as Mayfly always is: 31082
 * SearchNotEnabled, with mongod's two texts (mongot_cursor.cpp and search_index_commands.cpp):
 * one for the `$search`/`$searchMeta`/`$vectorSearch` stages, one for the search index commands
 * and `$listSearchIndexes`.
 */
import { CommandError } from './command_error.js';

const HOW_TO = 'https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs.';

/** 31082 for `$search`, `$searchMeta`, `$vectorSearch` (mongod's text, its missing space included). */
export function searchStagesNotEnabled(): CommandError {
  return new CommandError(
    'SearchNotEnabled',
    `Using $search and $vectorSearch aggregation stages requires additional configuration. Please connect to Atlas or an AtlasCLI local deployment to enable.For more information on how to connect, see ${HOW_TO}`,
  );
}

/** 31082 for the search index commands and `$listSearchIndexes`. */
export function searchIndexesNotEnabled(): CommandError {
  return new CommandError(
    'SearchNotEnabled',
    `Using Atlas Search Database Commands and the $listSearchIndexes aggregation stage requires additional configuration. Please connect to Atlas or an AtlasCLI local deployment to enable. For more information on how to connect, see ${HOW_TO}`,
  );
}
