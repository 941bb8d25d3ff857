/**
 * `getRow`: the versions of one row of a versioned collection (Tablestore's GetRow, TTL.md):
 *
 *   { getRow: <coll>, _id: <id>, maxVersions?: n, timeRange?: [start, end] }
 *   → { row: { _id, <column>: [ { value, timestamp: Int64 ms }, … newest first ] } }
 *
 * Only readable versions are returned (among the collection's newest `maxVersions` and within
 * its `timeToLive`), restricted to `timeRange` (ms, start included, end excluded) and then to the
 * newest `maxVersions` of the request (default: all readable). Columns with no such version are
 * left out; `row` is null when the row does not exist, is invisible, or has no version left.
 * A missing collection answers `row: null` (as find answers an empty result).
 */
import { keyString } from '../../storage/values/key_string.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { maxVersionsArg, timeRangeArg, versionedTarget } from './version_args.js';

/** The `getRow` command. */
export const getRow: CommandDefinition = {
  name: 'getRow',
  target: { type: 'string' },
  args: {
    _id: { type: 'any', required: true },
    maxVersions: { type: 'number' },
    timeRange: { type: 'array' },
  },
  help: 'versioned collections: { getRow: <coll>, _id, maxVersions?, timeRange?: [start, end] } returns each column\'s versions, newest first',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'getRow', ctx.db);
    const maxVersions = maxVersionsArg(cmd, 'getRow');
    const timeRange = timeRangeArg(cmd, 'getRow');
    const target = versionedTarget(ctx, name, 'getRow');
    if (!target) return { row: null };
    const nowMs = ctx.now();
    const rec = target.coll.getById(keyString(cmd._id), nowMs);
    if (!rec) return { row: null };
    return { row: target.store.versionsDocument(rec, nowMs, maxVersions, timeRange) };
  },
};
