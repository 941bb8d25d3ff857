/**
 * Arguments shared by the version-level commands (`putRow`, `getRow`, `getRange`): the versioned
 * collection they target, timestamps in ms, `maxVersions` and `timeRange` (TTL.md "Versioned
 * collections"; Tablestore's GetRow/GetRange `max_versions` and half-open `time_range`).
 */
import { Double, Int32, Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import type { Collection } from '../../storage/collection.js';
import type { VersionedStore } from '../../storage/versioned/store.js';
import { INT32_MAX, exactInt32 } from '../../storage/values/numeric.js';
import type { CommandContext } from '../types.js';

/** A versioned collection and its row model. */
export interface VersionedTarget {
  readonly coll: Collection;
  readonly store: VersionedStore;
}

/**
 * The versioned collection `name` of the command's database: null when it does not exist,
 * 20 IllegalOperation when it is not versioned.
 */
export function versionedTarget(ctx: CommandContext, name: string, command: string): VersionedTarget | null {
  const coll = ctx.server.catalog.get(ctx.db, name);
  if (!coll) return null;
  const store = ctx.server.ttl.versionedStore(coll);
  if (!store) {
    throw new CommandError(
      'IllegalOperation',
      `${command} needs a versioned collection; ${coll.ns} is not one (create it with db.createCollection(name, { versioned: {} }))`,
    );
  }
  return { coll, store };
}

/**
 * A timestamp in ms since the epoch: an integral Int32, Int64 or Double (a safe integer), or a
 * Date; undefined for anything else.
 */
export function timestampMs(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (value instanceof Double || value instanceof Int32) n = value.value;
  else if (value instanceof Long) n = value.toNumber();
  else if (value instanceof Date) n = value.getTime();
  else return undefined;
  return Number.isSafeInteger(n) ? n + 0 : undefined;
}

/** `maxVersions` of a version read: an integer ≥ 1, or every readable version when absent. */
export function maxVersionsArg(cmd: Document, command: string): number {
  const value = cmd.maxVersions;
  if (value === undefined || value === null) return Infinity;
  const n = exactInt32(value);
  if (n === undefined || n < 1) {
    throw new CommandError('BadValue', `${command}.maxVersions must be an integer from 1 to ${INT32_MAX}, but received ${formatValue(value)}`);
  }
  return n;
}

/** `timeRange: [start, end]` of a version read (ms, start inclusive, end exclusive), or null. */
export function timeRangeArg(cmd: Document, command: string): readonly [number, number] | null {
  const value = cmd.timeRange;
  if (value === undefined || value === null) return null;
  const bad = (): CommandError =>
    new CommandError(
      'BadValue',
      `${command}.timeRange must be [start, end]: two timestamps in ms (integers or Dates) with 0 <= start < end, versions from start included to end excluded, but received ${formatValue(value)}`,
    );
  if (!Array.isArray(value) || value.length !== 2) throw bad();
  const start = timestampMs(value[0]);
  const end = timestampMs(value[1]);
  if (start === undefined || end === undefined || start < 0 || start >= end) throw bad();
  return [start, end];
}
