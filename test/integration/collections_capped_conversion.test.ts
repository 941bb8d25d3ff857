/**
 * convertToCapped and cloneCollectionAsCapped through the official driver: the size rules, the
 * namespaces they refuse, what the capped copy keeps (options and documents, not indexes) and
 * the eviction of the oldest documents when they do not fit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal128, Int32, Long, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

async function entry(name: string): Promise<Document | undefined> {
  const reply = await db.command({ listCollections: 1, filter: { name } }, { promoteValues: false });
  return reply.cursor.firstBatch[0] as Document | undefined;
}

async function indexNames(name: string): Promise<string[]> {
  return (await db.collection(name).listIndexes().toArray()).map((i) => i.name as string);
}

describe('convertToCapped', () => {
  it('makes the collection capped, keeping its documents and options, dropping its secondary indexes', async () => {
    await db.createCollection('conv', { validator: { a: { $exists: true } } });
    await db.collection('conv').insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    await db.collection('conv').createIndex({ a: 1 });
    expect(await db.command({ convertToCapped: 'conv', size: 4096 })).toEqual({ ok: 1 });
    expect((await entry('conv'))!.options).toEqual({ capped: true, size: new Int32(4096), validator: { a: { $exists: true } } });
    expect(await db.collection('conv').find().toArray()).toEqual([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    expect(await indexNames('conv')).toEqual(['_id_']);
    // The temporary collection it went through is gone.
    expect((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.includes('convertToCapped'))).toEqual([]);
  });

  it('keeps the newest documents that fit in a smaller size', async () => {
    await db.collection('small').insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, x: 'a'.repeat(100) })));
    expect(await db.command({ convertToCapped: 'small', size: 256 })).toEqual({ ok: 1 });
    expect((await db.collection('small').find().toArray()).map((d) => d._id)).toEqual([8, 9]);
  });

  it('size: a number above 0 (72), at most 1 PB (2); a Decimal128 rounds half to even', async () => {
    await db.collection('sz').insertOne({ _id: 1 });
    const cases: Array<[unknown, number, string]> = [
      [undefined, 72, 'invalid command spec'],
      ['4096', 72, 'invalid command spec'],
      [0, 72, 'invalid command spec'],
      [-1, 72, 'invalid command spec'],
      [0.5, 72, 'invalid command spec'],
      [Long.fromString('1125899906842625'), 2, "BSON field 'size' value must be <= 1125899906842624, actual value '1125899906842625'"],
    ];
    for (const [size, code, errmsg] of cases) {
      const err = await errorOf(() => db.command({ convertToCapped: 'sz', ...(size === undefined ? {} : { size }) }));
      expect({ code: err.code, errmsg: err.errmsg }).toEqual({ code, errmsg });
    }
    expect(await db.command({ convertToCapped: 'sz', size: Decimal128.fromString('0.51') })).toEqual({ ok: 1 });
    expect((await entry('sz'))!.options).toEqual({ capped: true, size: new Int32(1) });
  });

  it('a missing collection is 26, a view 166, a name without room for the temporary prefix 73', async () => {
    const missing = await errorOf(() => db.command({ convertToCapped: 'nope', size: 4096 }));
    expect([missing.code, missing.errmsg]).toEqual([26, `source collection ${db.databaseName}.nope does not exist`]);
    await db.createCollection('vsrc');
    await db.command({ create: 'v', viewOn: 'vsrc', pipeline: [] });
    const view = await errorOf(() => db.command({ convertToCapped: 'v', size: 4096 }));
    expect([view.code, view.errmsg]).toEqual([166, `cloneCollectionAsCapped not supported for views: ${db.databaseName}.v`]);
    const long = 'x'.repeat(255 - db.databaseName.length - 26 + 1);
    await db.collection(long).insertOne({ _id: 1 });
    expect((await errorOf(() => db.command({ convertToCapped: long, size: 4096 }))).code).toBe(73);
    const bad = await errorOf(() => db.command({ convertToCapped: 12, size: 4096 }));
    expect([bad.code, bad.errmsg]).toEqual([73, 'collection name has invalid type int']);
  });

  it('in a database that does not exist: 26', async () => {
    const err = await errorOf(() => h.client.db('no_such_db_conv').command({ convertToCapped: 'c', size: 4096 }));
    expect([err.code, err.errmsg]).toEqual([26, 'database no_such_db_conv not found']);
  });
});

describe('cloneCollectionAsCapped', () => {
  it('copies into a new capped collection and leaves the source as it was', async () => {
    await db.collection('src').insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    expect(await db.command({ cloneCollectionAsCapped: 'src', toCollection: 'dst', size: 100000 })).toEqual({ ok: 1 });
    expect((await entry('dst'))!.options).toEqual({ capped: true, size: new Int32(100000) });
    expect(await db.collection('dst').find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    expect((await entry('src'))!.options).toEqual({});
    expect(await db.collection('src').countDocuments()).toBe(3);
    expect(await db.command({ cloneCollectionAsCapped: 'src', toCollection: 'tmpdst', size: 100000, temp: true })).toEqual({ ok: 1 });
    expect((await entry('tmpdst'))!.options).toEqual({ capped: true, size: new Int32(100000), temp: true });
  });

  it('checks names, size and the target as mongod does', async () => {
    await db.collection('csrc').insertOne({ _id: 1 });
    const cases: Array<[Document, number, string]> = [
      [{ cloneCollectionAsCapped: 1, toCollection: 'x', size: 10 }, 14, "'cloneCollectionAsCapped' must be of type String"],
      [{ cloneCollectionAsCapped: 'csrc', size: 10 }, 14, "'toCollection' must be of type String"],
      [{ cloneCollectionAsCapped: 'c$rc', toCollection: 'x', size: 10 }, 73, 'Invalid source collection name: c$rc'],
      [{ cloneCollectionAsCapped: 'csrc', toCollection: '.x', size: 10 }, 73, 'Invalid target collection name: .x'],
      [{ cloneCollectionAsCapped: 'csrc', toCollection: 'x', size: true }, 72, 'invalid command spec'],
      [{ cloneCollectionAsCapped: 'nosrc', toCollection: 'x', size: 10 }, 26, `source collection ${db.databaseName}.nosrc does not exist`],
      [
        { cloneCollectionAsCapped: 'csrc', toCollection: 'csrc', size: 10 },
        48,
        `cloneCollectionAsCapped failed - destination collection ${db.databaseName}.csrc already exists. source collection: ${db.databaseName}.csrc`,
      ],
      [{ cloneCollectionAsCapped: 'csrc', toCollection: 'system.other', size: 10 }, 73, `Invalid system namespace: ${db.databaseName}.system.other`],
    ];
    for (const [command, code, errmsg] of cases) {
      const err = await errorOf(() => db.command(command));
      expect({ code: err.code, errmsg: err.errmsg }).toEqual({ code, errmsg });
    }
  });
});
