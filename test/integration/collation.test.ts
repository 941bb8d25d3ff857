/**
 * Collations end to end through the driver: a command's `collation` on reads and writes, the
 * collection default collation of `create`, collated (unique) indexes, and when explain shows a
 * collated index used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollationOptions, CollectionInfo, Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
const CI = { locale: 'en', strength: 2 } as const;

/** The spelled-out collation mongod lists for `{ locale, ...overrides }`. */
function spelled(locale: string, overrides: Document = {}): Document {
  return {
    locale,
    caseLevel: false,
    caseFirst: 'off',
    strength: 3,
    numericOrdering: false,
    alternate: 'non-ignorable',
    maxVariable: 'punct',
    normalization: false,
    backwards: false,
    version: '57.1',
    ...overrides,
  };
}

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await db.collection('names').insertMany([
    { _id: 1, name: 'apple' },
    { _id: 2, name: 'Apple' },
    { _id: 3, name: 'APPLE' },
    { _id: 4, name: 'banana' },
    { _id: 5, name: 'Äpple' },
    { _id: 6, name: 'cherry' },
    { _id: 7, n: 10 },
  ]);
});
afterAll(async () => {
  await h.close();
});

describe('command collation on reads', () => {
  it('find: strength 2 ignores case, strength 1 also accents, the simple collation neither', async () => {
    const names = db.collection('names');
    const ids = async (filter: Document, collation?: CollationOptions) => (await names.find(filter, { collation, sort: { _id: 1 } }).toArray()).map((d) => d._id);
    expect(await ids({ name: 'apple' })).toEqual([1]);
    expect(await ids({ name: 'apple' }, { locale: 'simple' })).toEqual([1]);
    expect(await ids({ name: 'apple' }, CI)).toEqual([1, 2, 3]);
    expect(await ids({ name: 'apple' }, { locale: 'en', strength: 1 })).toEqual([1, 2, 3, 5]);
    expect(await ids({ name: { $in: ['BANANA', 'CHERRY'] } }, CI)).toEqual([4, 6]);
    expect(await ids({ name: { $ne: 'APPLE' } }, CI)).toEqual([4, 5, 6, 7]);
    expect(await ids({ name: { $nin: ['APPLE', 'Banana'] } }, CI)).toEqual([5, 6, 7]);
    // 'Äpple' sorts after every 'apple' at strength 2 (the accent is a secondary difference).
    expect(await ids({ name: { $gt: 'APPLE', $lt: 'C' } }, CI)).toEqual([4, 5]);
    expect(await ids({ name: { $gt: 'APPLE', $lt: 'C' } }, { locale: 'en', strength: 1 })).toEqual([4]);
    // $regex is never collation-aware.
    expect(await ids({ name: /^apple$/ }, CI)).toEqual([1]);
  });

  it('sort orders strings by the collation (numericOrdering, caseFirst upper, accents)', async () => {
    const c = db.collection('sorting');
    await c.insertMany([
      { _id: 1, s: 'item10' },
      { _id: 2, s: 'item9' },
      { _id: 3, s: 'b' },
      { _id: 4, s: 'B' },
      { _id: 5, s: 'a' },
      { _id: 6, s: 'á' },
    ]);
    const order = async (collation?: CollationOptions) => (await c.find({}, { sort: { s: 1 }, collation }).toArray()).map((d) => d.s);
    expect(await order()).toEqual(['B', 'a', 'b', 'item10', 'item9', 'á']);
    expect(await order({ locale: 'en' })).toEqual(['a', 'á', 'b', 'B', 'item10', 'item9']);
    expect(await order({ locale: 'en', numericOrdering: true })).toEqual(['a', 'á', 'b', 'B', 'item9', 'item10']);
    expect(await order({ locale: 'en', caseFirst: 'upper' })).toEqual(['a', 'á', 'B', 'b', 'item10', 'item9']);
  });

  it('count, countDocuments and distinct (values equal under the collation are one value)', async () => {
    const names = db.collection('names');
    expect(await names.countDocuments({ name: 'APPLE' }, { collation: CI })).toBe(3);
    expect(await db.command({ count: 'names', query: { name: 'APPLE' }, collation: CI })).toEqual({ n: 3, ok: 1 });
    expect(await names.distinct('name', {}, { collation: CI })).toEqual(['apple', 'Äpple', 'banana', 'cherry']);
    expect(await names.distinct('name', {}, { collation: { locale: 'en', strength: 1 } })).toEqual(['apple', 'banana', 'cherry']);
    expect(await names.distinct('name')).toEqual(['APPLE', 'Apple', 'apple', 'banana', 'cherry', 'Äpple']);
  });

  it('nested strings compare by the collation (documents and arrays, $elemMatch, $all)', async () => {
    const c = db.collection('nested');
    await c.insertMany([
      { _id: 1, tags: ['Red', 'Green'], doc: { color: 'Red' } },
      { _id: 2, tags: ['blue'], doc: { color: 'blue' } },
    ]);
    const ids = async (filter: Document) => (await c.find(filter, { collation: CI }).toArray()).map((d) => d._id);
    expect(await ids({ tags: 'RED' })).toEqual([1]);
    expect(await ids({ doc: { color: 'red' } })).toEqual([1]);
    expect(await ids({ tags: ['red', 'GREEN'] })).toEqual([1]);
    expect(await ids({ tags: { $elemMatch: { $eq: 'BLUE' } } })).toEqual([2]);
    expect(await ids({ tags: { $all: ['green', 'red'] } })).toEqual([1]);
    expect(await ids({ doc: { $in: [{ color: 'BLUE' }] } })).toEqual([2]);
  });

  it('aggregate: $match, $sort, $group keys, comparison expressions and $addToSet', async () => {
    const names = db.collection('names');
    const out = await names
      .aggregate(
        [
          { $match: { name: { $exists: true } } },
          { $group: { _id: '$name', n: { $sum: 1 }, ids: { $addToSet: '$name' }, min: { $min: '$name' } } },
          { $sort: { _id: 1 } },
          { $project: { n: 1, ids: 1, min: 1, isApple: { $eq: ['$_id', 'APPLE'] } } },
        ],
        { collation: CI },
      )
      .toArray();
    expect(out).toEqual([
      { _id: 'apple', n: 3, ids: ['apple'], min: 'apple', isApple: true },
      { _id: 'Äpple', n: 1, ids: ['Äpple'], min: 'Äpple', isApple: false },
      { _id: 'banana', n: 1, ids: ['banana'], min: 'banana', isApple: false },
      { _id: 'cherry', n: 1, ids: ['cherry'], min: 'cherry', isApple: false },
    ]);
    const matched = await names.aggregate([{ $match: { name: 'APPLE' } }, { $sort: { _id: -1 } }, { $project: { _id: 1 } }], { collation: CI }).toArray();
    expect(matched).toEqual([{ _id: 3 }, { _id: 2 }, { _id: 1 }]);
    const expr = await names.find({ $expr: { $eq: ['$name', 'BANANA'] } }, { collation: CI }).toArray();
    expect(expr).toEqual([{ _id: 4, name: 'banana' }]);
  });
});

describe('command collation on writes', () => {
  it('updateMany, updateOne, deleteOne and deleteMany match under the collation', async () => {
    const c = db.collection('writes');
    await c.insertMany([
      { _id: 1, s: 'x' },
      { _id: 2, s: 'X' },
      { _id: 3, s: 'y' },
      { _id: 4, s: 'Y' },
    ]);
    expect((await c.updateMany({ s: 'X' }, { $set: { hit: true } }, { collation: CI })).modifiedCount).toBe(2);
    expect((await c.updateOne({ s: 'y' }, { $set: { one: true } }, { collation: CI })).modifiedCount).toBe(1);
    expect((await c.updateMany({ s: 'X' }, { $set: { simple: true } })).modifiedCount).toBe(1);
    expect((await c.deleteOne({ s: 'Y' }, { collation: CI })).deletedCount).toBe(1);
    expect(await c.find().toArray()).toEqual([
      { _id: 1, s: 'x', hit: true },
      { _id: 2, s: 'X', hit: true, simple: true },
      { _id: 4, s: 'Y' },
    ]);
    expect((await c.deleteMany({ s: { $in: ['X', 'y'] } }, { collation: CI })).deletedCount).toBe(3);
    expect(await c.countDocuments()).toBe(0);
  });

  it('findOneAndUpdate sorts and matches under the collation; findOneAndDelete too', async () => {
    const c = db.collection('fam');
    await c.insertMany([
      { _id: 1, s: 'b' },
      { _id: 2, s: 'A' },
      { _id: 3, s: 'a' },
    ]);
    const before = await c.findOneAndUpdate({ s: { $gte: 'A' } }, { $set: { first: true } }, { collation: CI, sort: { s: 1, _id: -1 } });
    expect(before).toEqual({ _id: 3, s: 'a' });
    const removed = await c.findOneAndDelete({ s: 'B' }, { collation: CI });
    expect(removed).toEqual({ _id: 1, s: 'b' });
    expect(await c.find().toArray()).toEqual([
      { _id: 2, s: 'A' },
      { _id: 3, s: 'a', first: true },
    ]);
  });

  it("the bulkWrite command takes each operation's collation", async () => {
    await db.collection('bw').insertMany([
      { _id: 1, s: 'q' },
      { _id: 2, s: 'Q' },
      { _id: 3, s: 'r' },
    ]);
    const reply = await h.client.db('admin').command({
      bulkWrite: 1,
      ops: [
        { update: 0, filter: { s: 'Q' }, updateMods: { $set: { u: 1 } }, multi: true, collation: CI },
        { delete: 0, filter: { s: 'R' }, collation: CI },
        { delete: 0, filter: { s: 'R' } },
      ],
      nsInfo: [{ ns: `${db.databaseName}.bw` }],
    });
    expect(reply.cursor.firstBatch).toEqual([
      { ok: 1, idx: 0, n: 2, nModified: 2 },
      { ok: 1, idx: 1, n: 1 },
      { ok: 1, idx: 2, n: 0 },
    ]);
  });
});

describe('collection default collation', () => {
  it('create stores it spelled out; listCollections and listIndexes show it', async () => {
    await db.createCollection('people', { collation: CI });
    const [info] = await db.listCollections<CollectionInfo>({ name: 'people' }).toArray();
    expect(info!.options).toEqual({ collation: spelled('en', { strength: 2 }) });
    expect(info!.idIndex).toEqual({ v: 2, key: { _id: 1 }, name: '_id_', collation: spelled('en', { strength: 2 }) });
    await db.createCollection('plain', { collation: { locale: 'simple' } });
    const [plain] = await db.listCollections<CollectionInfo>({ name: 'plain' }).toArray();
    expect(plain!.options).toEqual({});
  });

  it('reads and writes use it unless the command gives another; { locale: "simple" } is binary', async () => {
    const people = db.collection('people');
    await people.insertMany([
      { _id: 1, name: 'ann' },
      { _id: 2, name: 'Ann' },
      { _id: 3, name: 'bob' },
    ]);
    expect((await people.find({ name: 'ANN' }).toArray()).map((d) => d._id)).toEqual([1, 2]);
    expect(await people.find({ name: 'ANN' }, { collation: { locale: 'simple' } }).toArray()).toEqual([]);
    expect(await people.countDocuments({ name: 'ann' })).toBe(2);
    expect(await people.distinct('name')).toEqual(['ann', 'bob']);
    expect((await people.updateMany({ name: 'ANN' }, { $set: { seen: true } })).modifiedCount).toBe(2);
    const grouped = await people.aggregate([{ $group: { _id: '$name', n: { $sum: 1 } } }]).toArray();
    expect(grouped).toEqual([
      { _id: 'ann', n: 2 },
      { _id: 'bob', n: 1 },
    ]);
  });

  it('_id is unique under it, and an index without a collation inherits it', async () => {
    const people = db.collection('people');
    await people.insertOne({ _id: 'key', name: 'k' });
    const err = await errorOf(() => people.insertOne({ _id: 'KEY', name: 'k2' }));
    expect([err.code, err.errmsg]).toEqual([11000, `E11000 duplicate key error collection: ${db.databaseName}.people index: _id_ dup key: { _id: "KEY" }`]);
    expect((await people.find({ _id: 'Key' }).toArray()).map((d) => d._id)).toEqual(['key']);
    await people.createIndex({ name: 1 });
    await people.createIndex({ nick: 1 }, { collation: { locale: 'simple' } });
    await people.createIndex({ fr: 1 }, { collation: { locale: 'fr' } });
    expect(await people.indexes()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_', collation: spelled('en', { strength: 2 }) },
      { v: 2, key: { name: 1 }, name: 'name_1', collation: spelled('en', { strength: 2 }) },
      { v: 2, key: { nick: 1 }, name: 'nick_1' },
      { v: 2, key: { fr: 1 }, name: 'fr_1', collation: spelled('fr') },
    ]);
  });
});

describe('collated indexes', () => {
  it('a unique case-insensitive index refuses a key equal under its collation (11000)', async () => {
    const users = db.collection('users');
    await users.createIndex({ email: 1 }, { unique: true, collation: CI });
    await users.insertOne({ _id: 1, email: 'Ann@Example.com' });
    const err = await errorOf(() => users.insertOne({ _id: 2, email: 'ann@example.COM' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([
      11000,
      undefined,
      `E11000 duplicate key error collection: ${db.databaseName}.users index: email_1 dup key: { email: "ann@example.COM" }`,
    ]);
    await users.insertOne({ _id: 3, email: 'bob@example.com' });
    const upd = await errorOf(() => users.updateOne({ _id: 3 }, { $set: { email: 'ANN@example.com' } }));
    expect(upd.code).toBe(11000);
    // An index build over existing duplicates fails as well.
    const other = db.collection('users2');
    await other.insertMany([{ e: 'x' }, { e: 'X' }]);
    const build = await errorOf(() => other.createIndex({ e: 1 }, { unique: true, collation: CI }));
    expect(build.code).toBe(11000);
  });

  it('explain uses a collated index for strings only under its collation', async () => {
    const c = db.collection('ixcoll');
    await c.createIndex({ s: 1 }, { collation: CI });
    await c.insertMany([
      { _id: 1, s: 'a' },
      { _id: 2, s: 'A' },
      { _id: 3, s: 'b' },
      { _id: 4, s: 5 },
    ]);
    const plan = async (filter: Document, collation?: Document, hint?: string) => {
      const explained = await db.command({ explain: { find: 'ixcoll', filter, ...(collation === undefined ? {} : { collation }), ...(hint === undefined ? {} : { hint }) }, verbosity: 'executionStats' });
      const winning = explained.queryPlanner.winningPlan;
      const scan = winning.inputStage;
      return {
        stage: winning.stage,
        input: scan?.stage,
        collation: scan?.collation,
        bounds: scan?.indexBounds,
        filter: winning.filter ?? null,
        n: explained.executionStats.nReturned,
      };
    };
    expect(await plan({ s: 'A' }, CI)).toEqual({ stage: 'FETCH', input: 'IXSCAN', collation: spelled('en', { strength: 2 }), bounds: { s: ['["A", "A"]'] }, filter: null, n: 2 });
    expect(await plan({ s: 'A' })).toEqual({ stage: 'COLLSCAN', input: undefined, collation: undefined, bounds: undefined, filter: { s: { $eq: 'A' } }, n: 1 });
    expect(await plan({ s: 'A' }, { locale: 'fr' })).toMatchObject({ stage: 'COLLSCAN', n: 1 });
    // A non-string predicate uses the collated index under any collation.
    expect(await plan({ s: 5 })).toMatchObject({ stage: 'FETCH', input: 'IXSCAN', bounds: { s: ['[5, 5]'] }, n: 1 });
    // A hint scans the collated index without bounds when the collations differ.
    expect(await plan({ s: 'A' }, undefined, 's_1')).toEqual({
      stage: 'FETCH',
      input: 'IXSCAN',
      collation: spelled('en', { strength: 2 }),
      bounds: { s: ['[MinKey, MaxKey]'] },
      filter: { s: { $eq: 'A' } },
      n: 1,
    });
    // The index provides a collated sort only under its collation.
    const sorted = await db.command({ explain: { find: 'ixcoll', filter: { s: { $gte: 'a' } }, sort: { s: 1 }, collation: CI } });
    expect(sorted.queryPlanner.winningPlan.stage).toBe('FETCH');
    expect((await c.find({ s: { $gte: 'a' } }, { sort: { s: -1, _id: 1 }, collation: CI }).toArray()).map((d) => d._id)).toEqual([3, 1, 2]);
  });
});

describe('collation errors', () => {
  it('mongod codes and messages for bad specs', async () => {
    const cases: Array<[Document, number, string]> = [
      [{ locale: 'xx' }, 2, 'Field \'locale\' is invalid in: { locale: "xx" }'],
      [{ locale: 'EN' }, 2, 'Field \'locale\' is invalid in: { locale: "EN" }. Did you mean \'en\'?'],
      [{ locale: '' }, 2, 'Field \'locale\' cannot be the empty string in: { locale: "" }'],
      [{ strength: 2 }, 40414, "BSON field 'collation.locale' is missing but a required field"],
      [{ locale: 'en', foo: 1 }, 40415, "BSON field 'collation.foo' is an unknown field."],
      [{ locale: 'en', strength: 6 }, 2, "BSON field 'strength' value must be <= 5, actual value '6'"],
      [{ locale: 'en', caseFirst: 'upper', strength: 1 }, 2, '\'caseFirst\' is invalid unless \'caseLevel\' is on or \'strength\' is greater than 2 in: { locale: "en", caseFirst: "upper", strength: 1 }'],
      [{ locale: 'en', backwards: true, strength: 1 }, 2, '\'backwards\' is invalid with \'strength\' of 1 in: { locale: "en", backwards: true, strength: 1 }'],
      [{ locale: 'en', version: '1.0' }, 161, 'Requested collation version 1.0 but the only available collator version was 57.1. Requested collation spec: { locale: "en", version: "1.0" }'],
    ];
    for (const [collation, code, errmsg] of cases) {
      // Bad specs on purpose, some no CollationOptions (no locale; a field it lacks: foo, version).
      const err = await errorOf(() => db.collection('names').find({}, { collation: collation as CollationOptions }).toArray());
      expect([collation, err.code, err.errmsg]).toEqual([collation, code, errmsg]);
    }
    const create = await errorOf(() => db.createCollection('badcoll', { collation: { locale: 'xx' } }));
    expect([create.code, create.errmsg]).toEqual([2, 'Field \'locale\' is invalid in: { locale: "xx" }']);
  });
});
