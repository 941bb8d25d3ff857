/**
 * `putRow`: writes a row of a versioned collection version by version (Tablestore's row write,
 * TTL.md "Versioned collections"):
 *
 *   { putRow: <coll>, row: { _id, <column>: <value>, … }, timestamps?: { <column>: <ms> } }
 *
 * Each column of `row` gets a new version at its timestamp in `timestamps` (ms: an integer or a
 * Date) or at the server's now; a version at a timestamp the column already holds replaces that
 * version's value. The row is created when absent. Every timestamp must lie in the write range
 * `[max(now − maxTimeDeviation, now − timeToLive), now + maxTimeDeviation)`, else the whole row
 * fails and nothing is written (2 BadValue, `Invalid timestamp. Cell:… Timestamp:… MinTimestamp:…
 * MaxTimestamp:….`). Replies `{ timestamps: { <column>: Int64 ms } }`: the version each column got.
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { checkDocumentSize, validateId } from '../../storage/collection.js';
import type { Cell } from '../../storage/versioned/store.js';
import { checkWriteRange } from '../../ttl/policies/versioned.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { timestampMs, versionedTarget } from './version_args.js';

/** The `putRow` command. */
export const putRow: CommandDefinition = {
  name: 'putRow',
  target: { type: 'string' },
  args: {
    row: { type: 'object', required: true },
    timestamps: { type: 'object' },
  },
  help: 'versioned collections: writes each column of { row } as a new version, at { timestamps: { <column>: <ms> } } or now',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'putRow', ctx.db);
    const row = cmd.row as Document;
    const timestamps = (cmd.timestamps ?? {}) as Document;
    if (!('_id' in row) || row._id === undefined) throw new CommandError('BadValue', 'putRow.row must contain _id (the primary key of the row)');
    validateId(row._id);
    checkDocumentSize(row);
    const nowMs = ctx.now();
    const cells: Cell[] = [];
    for (const [column, value] of Object.entries(row)) {
      if (column === '_id') continue;
      if (column.startsWith('$')) throw new CommandError('BadValue', `putRow.row column names may not start with '$': ${column}`);
      let ts = nowMs;
      if (column in timestamps) {
        const given = timestampMs(timestamps[column]);
        if (given === undefined) {
          throw new CommandError(
            'BadValue',
            `putRow.timestamps.${column} must be a version timestamp in ms (an integer or a Date), but received ${formatValue(timestamps[column])}`,
          );
        }
        ts = given;
      }
      cells.push({ column, value, ts });
    }
    for (const column of Object.keys(timestamps)) {
      if (column === '_id' || !(column in row)) {
        throw new CommandError('BadValue', `putRow.timestamps.${column} names no column of putRow.row`);
      }
    }
    const target = versionedTarget(ctx, name, 'putRow');
    if (!target) throw new CommandError('NamespaceNotFound', `putRow needs a versioned collection; ${ctx.db}.${name} does not exist`);
    checkWriteRange(cells, target.store.limits, nowMs);
    // One write unit: the row's creation or its new versions are one operation of the write path.
    ctx.server.catalog.writes.run(() => target.store.putRow(row._id, cells, nowMs));
    const written: Document = {};
    for (const cell of cells) written[cell.column] = Long.fromNumber(cell.ts);
    return { timestamps: written };
  },
};
