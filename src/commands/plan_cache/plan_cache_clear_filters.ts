/**
 * `planCacheClearFilters` (index_filter_commands.cpp): removes one query shape's index filter, or
 * every filter of the collection; a missing collection does nothing.
 */
import { clearIndexFilters, removeIndexFilter } from '../../storage/planner/index_filters.js';
import type { CommandDefinition } from '../types.js';
import { checkNoShapeWithoutQuery, planCacheCollection, queryShapeArgs } from './_internal.js';

/** The `planCacheClearFilters` command. */
export const planCacheClearFilters: CommandDefinition = {
  name: 'planCacheClearFilters',
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'Clears index filter for a single query shape or, if the query shape is omitted, all filters for the collection.',
  run(ctx, cmd) {
    const coll = planCacheCollection(ctx, cmd, 'planCacheClearFilters');
    if (!coll) return {};
    if (cmd.query !== undefined) {
      removeIndexFilter(coll, queryShapeArgs(ctx, cmd).parts);
      return {};
    }
    checkNoShapeWithoutQuery(cmd);
    clearIndexFilters(coll);
    return {};
  },
};
