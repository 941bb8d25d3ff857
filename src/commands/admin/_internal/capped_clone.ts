/**
 * What `cloneCollectionAsCapped` and `convertToCapped` share, as mongod 8.2 does it
 * (mongo/src/mongo/db/commands/collection_to_capped.cpp, db/catalog/capped_utils.cpp):
 *   - the `size` argument, read with `safeNumberLong` (a non-number reads 0): 72 InvalidOptions
 *     "invalid command spec" unless it is above 0, then create's bounds (2 BadValue above 1 PB);
 *   - the clone: a new capped collection with the source's options (its indexes are not copied,
 *     only `_id`), then the source's documents in natural order, skipping at first those that
 *     could not fit anyway (mongod's `excessSize` guess), the capped bounds evicting the rest.
 */
import type { Document, Long } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Collection } from '../../../storage/collection.js';
import { recordSize } from '../../../storage/record.js';
import { isNumber, safeNumberLong, toDouble } from '../../../storage/values/numeric.js';
import { validateCollectionName } from '../../../storage/values/namespace.js';
import { orderCollectionOptions, parseCappedSize } from '../create.js';
import type { CommandContext } from '../../types.js';

/** `BSONElement::trueValue` (`temp`): false for absent, null, false and zero numbers. */
export function trueValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (isNumber(value)) return toDouble(value) !== 0;
  return true;
}

/** The `size` of a capped conversion: 72 unless above 0, then create's upper bound (2). */
export function cappedCloneSize(value: unknown): number | Long {
  const size = safeNumberLong(value) ?? 0n;
  if (size <= 0n) throw new CommandError('InvalidOptions', 'invalid command spec');
  return parseCappedSize('size', value);
}

/**
 * The 73 of a collection name that `NamespaceString::validCollectionName` refuses (empty, a NUL,
 * a leading '.', a '$'), `role` naming it in the message (`source`, `target`).
 */
export function checkCloneName(role: string, name: string): void {
  if (name.length === 0 || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
    throw new CommandError('InvalidNamespace', `Invalid ${role} collection name: ${name}`);
  }
}

/**
 * The source collection of a clone: 166 for a view, 26 when it does not exist (the messages of
 * capped_utils.cpp), 20 for a time-series bucket collection.
 */
export function cloneSource(ctx: CommandContext, command: string, name: string): Collection {
  const catalog = ctx.server.catalog;
  const source = catalog.get(ctx.db, name);
  if (!source) {
    if (catalog.view(ctx.db, name)) {
      throw new CommandError('CommandNotSupportedOnView', `${command} not supported for views: ${ctx.db}.${name}`);
    }
    throw new CommandError('NamespaceNotFound', `source collection ${ctx.db}.${name} does not exist`);
  }
  if (name.startsWith('system.buckets.')) {
    throw new CommandError('IllegalOperation', `Cannot run ${command} on a time-series bucket collection: ${ctx.db}.${name}`);
  }
  return source;
}

/**
 * Creates `ctx.db.toName` as a capped copy of `source` of `size` bytes (`temp` marks it
 * temporary) and returns it: 48 when the target exists, 166 when it is a view.
 */
export function cloneAsCapped(ctx: CommandContext, source: Collection, toName: string, size: number | Long, temp: boolean): Collection {
  const catalog = ctx.server.catalog;
  const db = ctx.db;
  if (catalog.get(db, toName)) {
    throw new CommandError(
      'NamespaceExists',
      `cloneCollectionAsCapped failed - destination collection ${db}.${toName} already exists. source collection: ${source.ns}`,
    );
  }
  if (catalog.view(db, toName)) throw new CommandError('CommandNotSupportedOnView', `Namespace ${db}.${toName} is a view, not a collection`);
  validateCollectionName(db, toName);
  if (toName.startsWith('system.buckets.')) {
    throw new CommandError('IllegalOperation', `Cannot create a time-series bucket collection without time-series options: ${db}.${toName}`);
  }
  const options: Document = { ...source.options, capped: true, size };
  if (temp) options.temp = true;
  const target = catalog.create(db, toName, orderCollectionOptions(options));
  // mongod's guess of the data that would be evicted anyway: skipped before inserting.
  const sizeBytes = typeof size === 'number' ? size : size.toNumber();
  let excessBytes = source.dataSize() - sizeBytes * 2;
  const now = ctx.now();
  catalog.writes.run(() => {
    for (const rec of [...source.allRecords()]) {
      if (!source.isVisible(rec, now)) continue;
      if (excessBytes > 0) {
        excessBytes -= 4 * recordSize(rec);
        continue;
      }
      target.insert(rec.doc, now);
    }
  });
  return target;
}
