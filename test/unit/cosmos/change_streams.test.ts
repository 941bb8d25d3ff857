/** The Cosmos DB change-stream rules as functions (src/cosmos/change_streams/): open checks, event hooks, the throttled page. */
import { describe, expect, test } from 'vitest';
import { Long, Timestamp, type Document } from '../../../src/bson/library.js';
import { cosmosCheckChangeStreamOpen, FULL_DOCUMENT_MESSAGE, PIPELINE_MESSAGE, SCOPE_MESSAGE } from '../../../src/cosmos/change_streams/open_rules.js';
import { cosmosChangeStreamHooks, namespaceNotFoundMessage } from '../../../src/cosmos/change_streams/events.js';
import { cosmosThrottledPage } from '../../../src/cosmos/change_streams/throttled_page.js';
import { resolveCosmosSettings, type CosmosOptions } from '../../../src/cosmos/settings.js';
import { parseChangeStreamSpec } from '../../../src/storage/aggregation/stages/change_stream.js';
import type { ChangeEntry } from '../../../src/storage/change_log.js';
import { CursorManager } from '../../../src/storage/cursors.js';
import { errorOf, thrownBy } from '../thrown.js';

const MATCH = { $match: { operationType: { $in: ['insert', 'update', 'replace'] } } };
const PROJECT = { $project: { _id: 1, fullDocument: 1, ns: 1, documentKey: 1 } };

/** Runs the open checks for a stream on `coll` with `spec` and the stages after `$changeStream`. */
function check(options: CosmosOptions, spec: Document, stages: Document[], coll: string | null = 'c', collectionExists = true): void {
  cosmosCheckChangeStreamOpen(resolveCosmosSettings(options), {
    pipeline: [{ $changeStream: spec }, ...stages],
    spec: parseChangeStreamSpec(spec),
    db: 'd',
    coll,
    collectionExists,
  });
}

describe('open checks', () => {
  const ok = { fullDocument: 'updateLookup' };
  test('the page shape opens', () => {
    expect(thrownBy(() => check({}, ok, [MATCH, PROJECT]))).toBeUndefined();
    expect(thrownBy(() => check({}, { ...ok, startAtOperationTime: new Timestamp({ t: 1, i: 0 }) }, [MATCH, PROJECT]))).toBeUndefined();
    expect(thrownBy(() => check({}, { ...ok, resumeAfter: { _data: '8200000001000000002B0229296E04' } }, [MATCH, PROJECT]))).toBeUndefined();
  });

  test.each([
    ['a database stream', {}, ok, [MATCH, PROJECT], null, [2, SCOPE_MESSAGE]],
    ['no stages', {}, ok, [], 'c', [2, PIPELINE_MESSAGE]],
    ['$project first', {}, ok, [PROJECT, MATCH], 'c', [2, PIPELINE_MESSAGE]],
    ['a third stage', {}, ok, [MATCH, PROJECT, { $set: { x: 1 } }], 'c', [2, PIPELINE_MESSAGE]],
    ['two-field stage', {}, ok, [{ $match: {}, $project: {} }, PROJECT], 'c', [2, PIPELINE_MESSAGE]],
    ['no fullDocument', {}, {}, [MATCH, PROJECT], 'c', [2, FULL_DOCUMENT_MESSAGE]],
    ['fullDocument required', {}, { fullDocument: 'required' }, [MATCH, PROJECT], 'c', [2, FULL_DOCUMENT_MESSAGE]],
    ['showExpandedEvents', {}, { ...ok, showExpandedEvents: true }, [MATCH, PROJECT], 'c', [115, "The $changeStream option 'showExpandedEvents' is not supported."]],
    ['fullDocumentBeforeChange', {}, { ...ok, fullDocumentBeforeChange: 'required' }, [MATCH, PROJECT], 'c', [115, "The $changeStream option 'fullDocumentBeforeChange' is not supported."]],
    [
      'startAtOperationTime, all versions',
      { capabilities: ['AllVersionsAndDeletesChangeFeed'] },
      { ...ok, startAtOperationTime: new Timestamp({ t: 1, i: 0 }) },
      [MATCH, PROJECT],
      'c',
      [115, "The $changeStream option 'startAtOperationTime' is not supported by the all versions and deletes change feed; start from now or from a resume token."],
    ],
  ] as [string, CosmosOptions, Document, Document[], string | null, [number, string]][])('%s', (_name, options, spec, stages, coll, expected) => {
    expect(errorOf(() => check(options, spec, stages, coll))).toEqual(expected);
  });

  test('a missing collection is 26; the first rule that is on answers', () => {
    expect(errorOf(() => check({}, ok, [MATCH, PROJECT], 'c', false))).toEqual([26, "Collection 'd.c' not found."]);
    expect(errorOf(() => check({}, {}, [], null))).toEqual([2, SCOPE_MESSAGE]);
    expect(errorOf(() => check({ rules: { changeStreamScope: false } }, {}, [], null))).toEqual([2, PIPELINE_MESSAGE]);
    expect(errorOf(() => check({ rules: { changeStreamPipeline: false } }, { showExpandedEvents: true }, [], 'c', false))).toEqual([115, "The $changeStream option 'showExpandedEvents' is not supported."]);
  });

  test('every rule switched off: anything opens', () => {
    const off: CosmosOptions = { rules: { changeStreamScope: false, changeStreamPipeline: false, changeStreamOptions: false, changeStreamNamespaceNotFound: false }, capabilities: ['AllVersionsAndDeletesChangeFeed'] };
    expect(thrownBy(() => check(off, { showExpandedEvents: true, fullDocumentBeforeChange: 'required', startAtOperationTime: new Timestamp({ t: 1, i: 0 }) }, [], null, false))).toBeUndefined();
  });
});

/** A change-log entry of `kind`. */
function entry(kind: ChangeEntry['kind'], fields: Partial<ChangeEntry> = {}): ChangeEntry {
  return { seq: 7, kind, clusterTime: new Timestamp({ t: 100, i: 3 }), txnOpIndex: 0, wallTimeMs: 100_999, db: 'd', coll: 'c', documentKey: { _id: 1 }, ...fields };
}

describe('event hooks', () => {
  /** The documents the lookup finds now: `_id` 1 only. */
  const now: Record<string, Document> = { 1: { _id: 1, a: 3 } };
  const lookup = (_db: string, _coll: string, key: Document): Document | null => now[String(key._id)] ?? null;
  const latest = cosmosChangeStreamHooks(resolveCosmosSettings({}), lookup);
  const all = cosmosChangeStreamHooks(resolveCosmosSettings({ capabilities: ['AllVersionsAndDeletesChangeFeed'] }), lookup);

  test('the latest version feed: inserts, updates and replacements of documents still there, as they are now', () => {
    const inserted = { _id: { _data: '82' }, operationType: 'insert', fullDocument: { _id: 1, a: 1 } };
    expect(latest.shape!(entry('insert'), inserted)).toEqual({ ...inserted, fullDocument: { _id: 1, a: 3 } });
    expect(latest.shape!(entry('replace'), { ...inserted, operationType: 'replace' })).toEqual({ ...inserted, operationType: 'replace', fullDocument: { _id: 1, a: 3 } });
    expect(latest.shape!(entry('insert', { documentKey: { _id: 2 } }), inserted)).toBeUndefined();
    // An update's fullDocument is the stream's own lookup (updateLookup), kept as it is.
    const updated = { _id: { _data: '82' }, operationType: 'update', fullDocument: { _id: 1, a: 2 } };
    expect(latest.shape!(entry('update'), updated)).toBe(updated);
    expect(latest.shape!(entry('update'), { ...updated, fullDocument: null })).toBeUndefined();
    expect(latest.shape!(entry('update'), { _id: { _data: '82' }, operationType: 'update' })).toEqual({ _id: { _data: '82' }, operationType: 'update', fullDocument: { _id: 1, a: 3 } });
    for (const kind of ['delete', 'drop', 'rename', 'create', 'createIndexes', 'dropIndexes', 'modify', 'dropDatabase'] as const) {
      expect(latest.shape!(entry(kind), inserted)).toBeUndefined();
    }
  });

  test('finish: no operationType or updateDescription in the latest version feed; no updateDescription in all versions', () => {
    const doc = { _id: { _data: '82' }, operationType: 'update', ns: { db: 'd', coll: 'c' }, updateDescription: { updatedFields: {} }, fullDocument: { _id: 1 } };
    expect(latest.finish!(doc)).toEqual({ _id: { _data: '82' }, ns: { db: 'd', coll: 'c' }, fullDocument: { _id: 1 } });
    expect(Object.keys(all.finish!(doc))).toEqual(['_id', 'operationType', 'ns', 'fullDocument']);
    const plain = { _id: { _data: '82' } };
    expect(latest.finish!(plain)).toBe(plain);
  });

  test("all versions: the update's own version, deletes with timeToLiveExpired, the feed's metadata", () => {
    const event = { _id: { _data: '82' }, operationType: 'update', fullDocument: { _id: 1, a: 9 } };
    const lsn = Long.fromBits(3, 100);
    expect(all.shape!(entry('update', { after: { _id: 1, a: 2 } }), event)).toEqual({ ...event, fullDocument: { _id: 1, a: 2 }, metadata: { operationType: 'replace', lsn, crts: 100 } });
    expect(all.shape!(entry('insert'), { _id: 1 })).toEqual({ _id: 1, metadata: { operationType: 'create', lsn, crts: 100 } });
    expect(all.shape!(entry('replace'), { _id: 1 })).toEqual({ _id: 1, metadata: { operationType: 'replace', lsn, crts: 100 } });
    expect(all.shape!(entry('delete'), { _id: 1 })).toEqual({ _id: 1, metadata: { operationType: 'delete', lsn, crts: 100, timeToLiveExpired: false } });
    expect(all.shape!(entry('delete', { cause: 'ttl' }), { _id: 1 })).toEqual({ _id: 1, metadata: { operationType: 'delete', lsn, crts: 100, timeToLiveExpired: true } });
    expect(all.shape!(entry('drop'), { _id: 1 })).toBeUndefined();
  });

  test('invalidated: 26 naming the collection', () => {
    const err = latest.invalidated!(entry('drop'));
    expect([(err as { code?: number }).code, err.message]).toEqual([26, namespaceNotFoundMessage('d.c')]);
  });

  test('a rule switched off has no hook', () => {
    const none = cosmosChangeStreamHooks(resolveCosmosSettings({ rules: { changeStreamEvents: false, changeStreamNamespaceNotFound: false } }), lookup);
    expect(none).toEqual({});
  });
});

describe('throttled page', () => {
  test('only a getMore of a change stream has one', () => {
    const cursors = new CursorManager();
    const plain = cursors.open('d.c', [{ _id: 1 }, { _id: 2 }][Symbol.iterator](), 0);
    expect(cosmosThrottledPage(cursors, 'getMore', 'd', { getMore: plain.id, collection: 'c' })).toBeUndefined();
    expect(cosmosThrottledPage(cursors, 'find', 'd', { find: 'c' })).toBeUndefined();
    expect(cosmosThrottledPage(cursors, 'getMore', 'd', { getMore: 5, collection: 'c' })).toBeUndefined();
    expect(cosmosThrottledPage(cursors, 'getMore', 'd', { getMore: Long.fromNumber(123456), collection: 'c' })).toBeUndefined();
  });
});
