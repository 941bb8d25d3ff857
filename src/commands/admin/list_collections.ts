/**
 * `listCollections`: the collections of a database, then its views (`{name, type: 'view',
 * options: {viewOn, pipeline}, info: {readOnly: true}}`), as a cursor; `nameOnly`, `filter`.
 */
import type { Document } from '../../bson/library.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { collectionEntries } from '../../storage/timeseries/listing.js';
import { viewOptions } from '../../storage/views.js';
import { IdlRules, checkCursorOptions, typeMismatch } from '../args.js';
import { safeNumberLong } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import type { ArgRule } from '../types.js';
import { firstBatchReply } from '../cursor_reply.js';
import type { CommandDefinition } from '../types.js';

/** `cursor: { batchSize }`: a negative batchSize is 2 BadValue in mongod 8.2 (null reads as absent). */
const CURSOR_OPTIONS: ArgRule = {
  type: 'object',
  parse(value, field, idl) {
    if (value === null) return;
    if (!isDocument(value)) throw typeMismatch(`${idl}.${field}`, value, ['object']);
    checkCursorOptions(`${idl}.${field}`, value, { negative: 'BadValue' });
  },
};

/** The `listCollections` command (list_collections.idl). */
export const listCollections: CommandDefinition = {
  name: 'listCollections',
  args: {
    cursor: CURSOR_OPTIONS,
    filter: { type: 'object' },
    nameOnly: IdlRules.bool,
    authorizedCollections: IdlRules.bool,
    includePendingDrops: IdlRules.safeBool,
  },
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'list collections for this db',
  run(ctx, cmd) {
    const nameOnly = cmd.nameOnly === true;
    const filter = cmd.filter ? compileQuery(cmd.filter as Document, ctx.now()) : null;
    const entries: Document[] = [];
    for (const coll of ctx.server.catalog.collections(ctx.db)) {
      // A time-series collection is listed with its buckets collection (storage/timeseries/listing.ts).
      for (const entry of collectionEntries(coll, nameOnly)) {
        if (filter && !filter(entry)) continue;
        entries.push(entry);
      }
    }
    for (const view of ctx.server.catalog.views(ctx.db)) {
      const entry: Document = nameOnly
        ? { name: view.name, type: 'view' }
        : { name: view.name, type: 'view', options: viewOptions(view), info: { readOnly: true } };
      if (filter && !filter(entry)) continue;
      entries.push(entry);
    }
    const cursorOpts = (cmd.cursor ?? {}) as Document;
    // safeInt64: a Decimal128 rounds half to even, a double truncates.
    const batchSize = cursorOpts.batchSize === undefined || cursorOpts.batchSize === null ? undefined : Number(safeNumberLong(cursorOpts.batchSize));
    return firstBatchReply(ctx, `${ctx.db}.$cmd.listCollections`, entries[Symbol.iterator](), {
      batchSize: batchSize ?? Number.MAX_SAFE_INTEGER,
    });
  },
};
