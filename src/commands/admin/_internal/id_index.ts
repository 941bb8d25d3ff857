/**
 * `create`'s `idIndex` option, checked as mongod 8.2 checks it (catalog/create_collection.cpp,
 * index_key_validate.cpp's `validateIdIndexSpec`): not with `viewOn`, `timeseries` or
 * `clusteredIndex` (72); a valid index specification (the errors of createIndexes: 9 for a
 * missing `key` or `name`, 14 for a wrong type, 67 for an empty name or a `v` other than 1 or
 * 2, 197 for an option an `_id` index cannot have); the key exactly `{ _id: 1 }` (2); the
 * collation the collection's (2).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { normaliseCollation } from '../../../storage/indexes/collation.js';
import { normaliseIndexSpec } from '../../../storage/indexes/index_spec.js';
import { valuesEqual } from '../../../storage/values/compare.js';
import { formatValue } from '../../../storage/values/format.js';

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Throws mongod's error for a `create` whose `idIndex` is not allowed or not valid. */
export function checkIdIndexOption(cmd: Document): void {
  const idIndex = cmd.idIndex;
  if (!present(idIndex)) return;
  for (const option of ['viewOn', 'timeseries', 'clusteredIndex']) {
    if (present(cmd[option]) && cmd[option] !== false) throw new CommandError('InvalidOptions', `'idIndex' is not allowed with '${option}'`);
  }
  const collation = present(cmd.collation) ? normaliseCollation(cmd.collation as Document) : null;
  const spec = normaliseIndexSpec(idIndex, collation);
  if (!valuesEqual(spec.key, { _id: 1 })) {
    throw new CommandError('BadValue', `The field 'key' for an _id index must be {_id: 1}, but got ${formatValue(spec.key)}`);
  }
  const specCollation = (spec.collation as Document | undefined) ?? null;
  if (!valuesEqual(specCollation, collation)) throw new CommandError('BadValue', "'idIndex' must have the same collation as the collection.");
}
