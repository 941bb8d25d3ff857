/**
 * `planCacheSetFilter` (index_filter_commands.cpp): for one query shape, the indexes (key
 * patterns or names) the planner may use; replaces that shape's filter. The collection must
 * exist (2 "no such collection").
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { setIndexFilter } from '../../storage/planner/index_filters.js';
import { isDocument } from '../../storage/values/paths.js';
import { keyPatternsEqual } from '../../storage/indexes/key_pattern.js';
import type { CommandDefinition } from '../types.js';
import { planCacheCollection, queryShapeArgs } from './_internal.js';

/** The `indexes` argument: key patterns and names, each kept once. */
function allowedIndexes(value: unknown): { keyPatterns: Document[]; names: string[] } {
  if (value === undefined) throw new CommandError('BadValue', 'required field indexes missing');
  if (!Array.isArray(value)) throw new CommandError('BadValue', 'required field indexes must be an array');
  if (value.length === 0) throw new CommandError('BadValue', 'required field indexes must contain at least one index');
  const keyPatterns: Document[] = [];
  const names: string[] = [];
  for (const item of value as unknown[]) {
    if (isDocument(item)) {
      if (Object.keys(item).length === 0) throw new CommandError('BadValue', 'index specification cannot be empty');
      if (!keyPatterns.some((k) => keyPatternsEqual(k, item))) keyPatterns.push(item);
    } else if (typeof item === 'string') {
      if (!names.includes(item)) names.push(item);
    } else {
      throw new CommandError('BadValue', 'each item in indexes must be an object or string');
    }
  }
  return { keyPatterns, names };
}

/** The `planCacheSetFilter` command. */
export const planCacheSetFilter: CommandDefinition = {
  name: 'planCacheSetFilter',
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'Sets index filter for a query shape. Overrides existing filter.',
  run(ctx, cmd) {
    const coll = planCacheCollection(ctx, cmd, 'planCacheSetFilter');
    if (!coll) throw new CommandError('BadValue', 'no such collection');
    const indexes = allowedIndexes(cmd.indexes);
    const shape = queryShapeArgs(ctx, cmd);
    setIndexFilter(coll, shape.parts, { query: shape.query, sort: shape.sort, projection: shape.projection, collation: shape.collation, ...indexes });
    return {};
  },
};
