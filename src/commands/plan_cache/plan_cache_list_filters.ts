/**
 * `planCacheListFilters` (index_filter_commands.cpp): the collection's index filters, each as
 * `{query, sort, projection, collation?, indexes}` (key patterns, then names); none for a missing
 * collection.
 */
import type { Document } from '../../bson/library.js';
import { listIndexFilters } from '../../storage/planner/index_filters.js';
import type { CommandDefinition } from '../types.js';
import { planCacheCollection } from './_internal.js';

/** The `planCacheListFilters` command. */
export const planCacheListFilters: CommandDefinition = {
  name: 'planCacheListFilters',
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'Displays index filters for all query shapes in a collection.',
  run(ctx, cmd) {
    const coll = planCacheCollection(ctx, cmd, 'planCacheListFilters');
    if (!coll) return { filters: [] };
    const filters = listIndexFilters(coll).map((entry) => {
      const out: Document = { query: entry.query, sort: entry.sort, projection: entry.projection };
      if (entry.collation !== null) out.collation = entry.collation;
      out.indexes = [...entry.keyPatterns, ...entry.names];
      return out;
    });
    return { filters };
  },
};
