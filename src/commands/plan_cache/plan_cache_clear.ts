/**
 * `planCacheClear` (plan_cache_clear_command.cpp): drops one query shape's cached plans, or all
 * of the collection's. Mayfly plans every query afresh and caches none, so clearing only checks
 * the arguments as mongod does; a missing collection always succeeds.
 */
import type { CommandDefinition } from '../types.js';
import { checkNoShapeWithoutQuery, planCacheCollection, queryShapeArgs } from './_internal.js';

/** The `planCacheClear` command. */
export const planCacheClear: CommandDefinition = {
  name: 'planCacheClear',
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'Drops one or all plan cache entries in a collection.',
  run(ctx, cmd) {
    const coll = planCacheCollection(ctx, cmd, 'planCacheClear');
    if (!coll) return {};
    if (cmd.query !== undefined) queryShapeArgs(ctx, cmd);
    else checkNoShapeWithoutQuery(cmd);
    return {};
  },
};
