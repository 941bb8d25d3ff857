/**
 * `getRange`: the versions of many rows of a versioned collection, as a cursor (Tablestore's
 * GetRange, TTL.md):
 *
 *   { getRange: <coll>, filter?, maxVersions?, timeRange?: [start, end], batchSize? }
 *   → { cursor: { firstBatch: [ { _id, <column>: [ { value, timestamp }, … ] }, … ], id, ns } }
 *
 * `filter` is a query on the rows as find sees them (each column's newest readable version).
 * Rows come in `_id` order (Tablestore reads a range in primary-key order), each as `getRow`
 * returns it; rows with no version left after `timeRange`/`maxVersions` are skipped. `getMore`
 * on `<coll>` continues the cursor; each row is read when its batch is built.
 */
import type { StoredDocument } from '../../storage/record.js';
import { DEFAULT_FIRST_BATCH_DOCS, revalidatingSource } from '../../storage/cursors.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compareValues } from '../../storage/values/compare.js';
import { collectionArg, docArg, intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import { checkNonNegative } from '../crud/query_exec.js';
import type { CommandDefinition } from '../types.js';
import { maxVersionsArg, timeRangeArg, versionedTarget } from './version_args.js';

/** The `getRange` command. */
export const getRange: CommandDefinition = {
  name: 'getRange',
  target: { type: 'string' },
  args: {
    filter: { type: 'object' },
    maxVersions: { type: 'number' },
    timeRange: { type: 'array' },
    batchSize: { type: 'number' },
  },
  help: 'versioned collections: { getRange: <coll>, filter?, maxVersions?, timeRange?, batchSize? } returns the versions of many rows as a cursor',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'getRange', ctx.db);
    const maxVersions = maxVersionsArg(cmd, 'getRange');
    const timeRange = timeRangeArg(cmd, 'getRange');
    const batchSize = intArg(cmd, 'batchSize');
    checkNonNegative('batchSize', batchSize);
    const filter = docArg(cmd, 'filter') ?? {};
    const predicate = compileQuery(filter, ctx.now());
    const ns = `${ctx.db}.${name}`;
    const target = versionedTarget(ctx, name, 'getRange');
    if (!target) return firstBatchReply(ctx, ns, [][Symbol.iterator](), { batchSize: batchSize ?? DEFAULT_FIRST_BATCH_DOCS });
    const { coll, store } = target;
    const records: StoredDocument[] = [];
    // A versioned collection has no secondary index: every visible row is a candidate.
    for (const rec of coll.scan(ctx.now)) if (predicate(rec.doc)) records.push(rec);
    records.sort((a, b) => compareValues(a.doc._id, b.doc._id));
    // A row is read when the cursor hands it out; one read ahead is re-checked before it is sent.
    const live = (rec: StoredDocument): boolean => coll.isLive(rec, ctx.now());
    const rows = (function* () {
      for (const rec of records) {
        if (!live(rec)) continue;
        const row = store.versionsDocument(rec, ctx.now(), maxVersions, timeRange);
        if (row) yield { doc: row, rec };
      }
    })();
    const source = revalidatingSource(rows, live);
    return firstBatchReply(ctx, ns, source, { batchSize: batchSize ?? DEFAULT_FIRST_BATCH_DOCS });
  },
};
