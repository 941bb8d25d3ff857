/**
 * The express paths of `find` and `update` (src/commands/crud/express.ts) against the general
 * path: twin servers on one manual clock get the same random findOne and updateOne commands,
 * the second with a `comment` (which the express paths leave to the general one). Replies,
 * stored bytes and index entries must be the same after every command, and the express paths
 * must have answered a good share of them. Then the shapes they must leave alone, one by one.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { decodeStored, StoredBson } from '../../../src/storage/record_format.js';
import { Double, Long, UUID, type Document } from '../../../src/bson/library.js';
import { find } from '../../../src/commands/crud/find.js';
import { update } from '../../../src/commands/crud/update.js';
import { dispatch } from '../../../src/commands/dispatch.js';
import type { ConnectionState } from '../../../src/server/services.js';
import { Server } from '../../../src/server/server.js';
import { treeEntries } from '../indexes/tree_entries.js';

const DB = 'd';
const conn = { id: 1, remoteAddress: 'test', localAddress: 'test', clientMetadata: null, compressors: [], auth: { manager: { enabled: false } } } as unknown as ConnectionState;
const lsid = { id: new UUID().toBinary() };

/** Runs `body` on `server` (synchronously, as every command here completes). */
function run(server: Server, body: Document): Document {
  const reply = dispatch(server, conn, { ...body, $db: DB });
  if (reply instanceof Promise || typeof reply !== 'object') throw new Error('expected a synchronous reply');
  return reply;
}

/** The `cursor` document of a find reply. */
function cursorOf(reply: Document): Document {
  return reply.cursor as Document;
}

/** The documents of `name` as find returns them (stored bytes decoded). */
function documents(server: Server, name: string): Document[] {
  const batch = cursorOf(run(server, { find: name, filter: {} })).firstBatch as unknown[];
  return batch.map((d) => (d instanceof StoredBson ? decodeStored(d.bson) : (d as Document)));
}

/** Two servers whose manual clocks read the same. */
function twins(): [Server, Server] {
  const a = new Server({ logLevel: 'silent', clock: 'manual' });
  const b = new Server({ logLevel: 'silent', clock: 'manual' });
  const diff = a.clock.now() - b.clock.now();
  if (diff > 0) b.clock.advance(diff);
  else a.clock.advance(-diff);
  return [a, b];
}

/** What a collection holds: each record's stored form (time included), each index's entries. */
function state(server: Server, name: string): unknown {
  const coll = server.catalog.get(DB, name);
  if (!coll) return null;
  return {
    records: [...coll.allRecords()].map((r) => r.bson ?? r.doc),
    indexes: coll.indexes.map((i) => [i.name, i.entryless ? null : treeEntries(i.tree).map(([k, rec]) => [k, rec.id])]),
  };
}

/** A seeded generator (a linear congruential one, read from its high bits). */
function generator(seed: number) {
  let x = seed;
  const int = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * n);
  };
  return { int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}

const K_VALUES: readonly unknown[] = [1, 2, 3, 1.5, 'a', 'b', 'é', [1, 2], [3], new Long(2), null, undefined];
const Q_VALUES: readonly unknown[] = [1, 2, 3, 4, 1.5, 'a', 'b', 'z', 'é', new Long(2), null, Number.NaN, new Double(2)];
const UPDATES: readonly unknown[] = [
  { $inc: { n: 1 } },
  { $inc: { n: 2147483647 } },
  { $inc: { n: 0.5 } },
  { $inc: { n: 0 } },
  { $inc: { s: 1 } },
  { $set: { s: 'x' } },
  { $set: { s: 'x', n: 7 } },
  { $set: { k: 2 } },
  { $set: { k: 'b' } },
  { $set: { 'a.b': 1 } },
  { $set: { _id: 99 } },
  { $unset: { s: '' } },
  { $mul: { n: 2 } },
  { $max: { n: 5 } },
  { $push: { arr: 1 } },
  { $rename: { s: 't' } },
  { $currentDate: { d: true } },
  { $inc: { n: 1 }, $set: { s: 'y' } },
  { $bogus: { n: 1 } },
  {},
  { n: 1 },
  [{ $set: { n: 1 } }],
];
const FIELDS = ['_id', 'k', 'k', 'k', 's'];

/** Collections the commands run on: their options and indexes. */
const SETUPS: ReadonlyArray<{ name: string; options?: Document; indexes: Document[] }> = [
  { name: 'plain', indexes: [{ key: { k: 1 }, name: 'k_1' }] },
  { name: 'unique', indexes: [{ key: { k: 1 }, name: 'k_1', unique: true }] },
  { name: 'sparse_desc', indexes: [{ key: { k: -1 }, name: 'k_-1', sparse: true }] },
  { name: 'compound', indexes: [{ key: { k: 1, s: 1 }, name: 'k_1_s_1' }, { key: { s: 1 }, name: 's_1' }] },
  { name: 'unindexed', indexes: [] },
  { name: 'collated', options: { collation: { locale: 'en', strength: 2 } }, indexes: [{ key: { k: 1 }, name: 'k_1' }] },
  { name: 'cosmos', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 }, { key: { k: 1 }, name: 'k_1' }] },
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the express path of update', () => {
  test('answers as the general path does: replies, stored bytes, index entries', () => {
    const express = vi.spyOn(update, 'express');
    const expressFind = vi.spyOn(find, 'express');
    let answered = 0;
    let offered = 0;
    let found = 0;
    for (const [s, setup] of SETUPS.entries()) {
      const [a, b] = twins();
      const gen = generator(1000 + s);
      for (const server of [a, b]) {
        if (setup.options) run(server, { create: setup.name, ...setup.options });
        if (setup.indexes.length > 0) run(server, { createIndexes: setup.name, indexes: setup.indexes });
      }
      // Unique keys for the unique index; Cosmos documents with their own ttl sometimes.
      const docs = Array.from({ length: 40 }, (_, i) => {
        const doc: Document = { _id: gen.int(3) === 0 ? `id${i}` : i };
        const k = setup.name === 'unique' ? i : gen.pick(K_VALUES);
        if (k !== undefined) doc.k = k;
        if (gen.int(2) === 0) doc.n = gen.pick([1, 2.5, 'str', new Long(5), 2147483647]);
        if (gen.int(2) === 0) doc.s = gen.pick(['a', 'b', 'x']);
        if (setup.name === 'cosmos' && gen.int(3) === 0) doc.ttl = gen.pick([10, 120, -1]);
        return doc;
      });
      for (const server of [a, b]) expect(run(server, { insert: setup.name, documents: docs }).n).toBe(40);
      for (let step = 0; step < 150; step++) {
        const field = gen.pick(FIELDS);
        const value = field === '_id' ? gen.pick([0, 1, 5, 39, 40, 'id3', 'id7', 'ID7', 1.5]) : gen.pick(Q_VALUES);
        const statement: Document = { q: { [field]: value }, u: gen.pick(UPDATES) };
        const extra = gen.int(8);
        if (extra === 0) statement.upsert = false;
        if (extra === 1) statement.multi = false;
        if (extra === 2 && field === '_id') statement.upsert = true; // the query gives the new _id
        if (extra === 3) statement.hint = { $natural: 1 };
        const body: Document = { update: setup.name, updates: [statement], ordered: true, lsid };
        express.mockClear();
        const got = run(a, body);
        const result = express.mock.results.at(-1);
        if (result?.type === 'return') {
          offered++;
          if (result.value !== undefined) answered++;
        }
        expect(got).toEqual(run(b, { ...body, comment: 'the general path' }));
        expect(state(a, setup.name)).toEqual(state(b, setup.name));
        // The drivers' findOne, on the same field: the same first batch either way.
        const findOne: Document = { find: setup.name, filter: { [field]: gen.pick([value, ...Q_VALUES]) }, limit: 1, singleBatch: true, batchSize: 1, lsid };
        expressFind.mockClear();
        const read = run(a, findOne);
        if (expressFind.mock.results.at(-1)?.value !== undefined) found++;
        expect(read).toEqual(run(b, { ...findOne, comment: 'the general path' }));
        // The Cosmos documents with a ttl of 10 s expire here, on both servers alike.
        if (step === 75) for (const server of [a, b]) server.clock.advance(30_000);
      }
      expect(a.counters.opcounters).toEqual(b.counters.opcounters);
    }
    // Every command was offered to the express path; it answered a good share of them.
    expect(offered).toBe(SETUPS.length * 150);
    expect(answered).toBeGreaterThan(200);
    expect(found).toBeGreaterThan(300);
  });

  test("answers the drivers' updateOne: { update, updates: [{ q, u }], ordered, lsid, $db }", () => {
    const express = vi.spyOn(update, 'express');
    const [server] = twins();
    run(server, { createIndexes: 'c', indexes: [{ key: { k: 1 }, name: 'k_1' }] });
    run(server, { insert: 'c', documents: [{ _id: 1, k: 5, n: 1 }] });
    const reply = run(server, { update: 'c', updates: [{ q: { k: 5 }, u: { $inc: { n: 1 } } }], ordered: true, lsid });
    expect(reply).toEqual({ n: 1, nModified: 1, ok: new Double(1) });
    expect(express.mock.results[0]).toEqual({ type: 'return', value: { n: 1, nModified: 1, ok: new Double(1) } });
    expect(documents(server, 'c')).toEqual([{ _id: 1, k: 5, n: 2 }]);
    expect(server.counters.opcounters.update).toBe(1);
    // By _id, and one that matches nothing.
    expect(run(server, { update: 'c', updates: [{ q: { _id: 1 }, u: { $set: { s: 'x' } } }], lsid })).toEqual({ n: 1, nModified: 1, ok: new Double(1) });
    expect(run(server, { update: 'c', updates: [{ q: { k: 6 }, u: { $set: { s: 'x' } } }], lsid })).toEqual({ n: 0, nModified: 0, ok: new Double(1) });
    expect(express.mock.results.map((r) => r.value !== undefined)).toEqual([true, true, true]);
    expect(server.counters.opcounters.update).toBe(3);
  });

  test("answers the drivers' findOne: { find, filter, limit: 1, singleBatch: true, batchSize: 1, lsid, $db }", () => {
    const express = vi.spyOn(find, 'express');
    const [server] = twins();
    run(server, { createIndexes: 'c', indexes: [{ key: { k: 1 }, name: 'k_1' }] });
    run(server, { insert: 'c', documents: [{ _id: 1, k: 5, s: 'x' }, { _id: 2, k: 6 }] });
    const findOne = (filter: Document) => run(server, { find: 'c', filter, limit: 1, singleBatch: true, batchSize: 1, lsid });
    const batch = (reply: Document) => (cursorOf(reply).firstBatch as StoredBson[]).map((d) => decodeStored(d.bson));
    const byK = findOne({ k: 5 });
    expect([batch(byK), cursorOf(byK).id, cursorOf(byK).ns, byK.ok]).toEqual([[{ _id: 1, k: 5, s: 'x' }], Long.ZERO, 'd.c', new Double(1)]);
    expect(batch(findOne({ _id: 2 }))).toEqual([{ _id: 2, k: 6 }]);
    expect(batch(findOne({ s: 'x' }))).toEqual([{ _id: 1, k: 5, s: 'x' }]); // no index on s: the general path
    expect(batch(findOne({ k: 7 }))).toEqual([]);
    expect(express.mock.results.map((r) => r.value !== undefined)).toEqual([true, true, false, true]);
    expect(server.counters.opcounters.query).toBe(4);
  });

  test('find: leaves every other shape to the general path', () => {
    const express = vi.spyOn(find, 'express');
    const [a, b] = twins();
    for (const server of [a, b]) {
      run(server, { createIndexes: 'c', indexes: [{ key: { k: 1 }, name: 'k_1' }] });
      run(server, { insert: 'c', documents: [{ _id: 1, k: 5, s: 'x' }, { _id: 2, k: 5, s: 'y' }, { _id: 3, k: [5, 6] }] });
      run(server, { create: 'v', viewOn: 'c', pipeline: [] });
      run(server, { create: 'ci', collation: { locale: 'en', strength: 2 } });
      run(server, { insert: 'ci', documents: [{ _id: 'abc', k: 'x' }] });
    }
    const shape = { find: 'c', filter: { k: 5 }, limit: 1, singleBatch: true, batchSize: 1 };
    const bodies: Document[] = [
      { ...shape, limit: 2 },
      { ...shape, singleBatch: false },
      { ...shape, batchSize: 0 },
      { ...shape, projection: { s: 1 } },
      { ...shape, sort: { s: -1 } },
      { ...shape, skip: 1 },
      { ...shape, hint: { k: 1 } },
      { ...shape, collation: { locale: 'en' } },
      { ...shape, filter: { k: 5, s: 'y' } },
      { ...shape, filter: { k: { $gt: 5 } } },
      { ...shape, filter: { k: 6 } }, // the entry of an array: the bytes cannot tell
      { ...shape, filter: { k: new Long(5) } },
      { ...shape, filter: { k: null } },
      { ...shape, find: 'ci', filter: { _id: 'ABC' } },
      { ...shape, find: 'ci', filter: { k: 'X' } },
      { ...shape, find: 'v' },
      { ...shape, find: 'missing' },
      { find: 'c', filter: { k: 5 } },
    ];
    for (const body of bodies) {
      express.mockClear();
      const got = run(a, { ...body, lsid });
      expect([body, express.mock.results[0]]).toEqual([body, { type: 'return', value: undefined }]);
      expect(got).toEqual(run(b, { ...body, lsid, comment: 'the general path' }));
    }
  });

  test('update: leaves every other shape to the general path, having written nothing', () => {
    const express = vi.spyOn(update, 'express');
    const [a, b] = twins();
    for (const server of [a, b]) {
      run(server, { createIndexes: 'c', indexes: [{ key: { k: 1 }, name: 'k_1' }] });
      run(server, { insert: 'c', documents: [{ _id: 1, k: 5, n: 1 }] });
      run(server, { create: 'validated', validator: { n: { $type: 'number' } } });
      run(server, { insert: 'validated', documents: [{ _id: 1, k: 5, n: 1 }] });
      run(server, { create: 'capped', capped: true, size: 4096 });
      run(server, { insert: 'capped', documents: [{ _id: 1, k: 5, n: 1 }] });
      run(server, { create: 'ci', collation: { locale: 'en', strength: 2 } });
      run(server, { insert: 'ci', documents: [{ _id: 'abc', k: 'x', n: 1 }] });
    }
    const statement = { q: { _id: 1 }, u: { $inc: { n: 1 } } };
    const bodies: Document[] = [
      { update: 'c', updates: [statement, statement] },
      { update: 'c', updates: [statement], ordered: 1 },
      { update: 'c', updates: [statement], let: { x: 1 } },
      { update: 'c', updates: [statement], bypassDocumentValidation: true },
      { update: 'c', updates: [statement], writeConcern: { w: 1 } },
      { update: 'c', updates: [{ ...statement, upsert: true }] },
      { update: 'c', updates: [{ ...statement, multi: true }] },
      { update: 'c', updates: [{ ...statement, collation: { locale: 'en' } }] },
      { update: 'c', updates: [{ q: { _id: 1, k: 5 }, u: { $inc: { n: 1 } } }] },
      { update: 'c', updates: [{ q: { _id: { $eq: 1 } }, u: { $inc: { n: 1 } } }] },
      { update: 'c', updates: [{ q: { 'k.x': 1 }, u: { $inc: { n: 1 } } }] },
      { update: 'c', updates: [{ q: { $expr: true }, u: { $inc: { n: 1 } } }] },
      { update: 'c', updates: [{ q: { k: 5 }, u: { $inc: { 'arr.$': 1 } } }] },
      { update: 'c', updates: [{ q: { k: 5 }, u: { $inc: { s: 1 } }, arrayFilters: [] }] },
      { update: 'validated', updates: [statement] },
      { update: 'validated', updates: [{ q: { _id: 1 }, u: { $set: { n: 'not a number' } } }] },
      { update: 'capped', updates: [statement] },
      { update: 'missing', updates: [statement] },
      { update: 'ci', updates: [{ q: { _id: 'ABC' }, u: { $inc: { n: 1 } } }] },
      { update: 'ci', updates: [{ q: { k: 'X' }, u: { $inc: { n: 1 } } }] },
    ];
    for (const body of bodies) {
      express.mockClear();
      const got = run(a, { ...body, lsid });
      expect([body, express.mock.results[0]]).toEqual([body, { type: 'return', value: undefined }]);
      expect(got).toEqual(run(b, { ...body, lsid, comment: 'the general path' }));
      for (const name of ['c', 'validated', 'capped', 'ci']) expect(state(a, name)).toEqual(state(b, name));
    }
    // The general path ran them: the two-statement command alone added 2 to n.
    expect(documents(a, 'c')[0]!.n).toBeGreaterThan(10);
    expect(documents(a, 'ci')).toEqual([{ _id: 'abc', k: 'x', n: 3 }]);
  });
});
