/**
 * The expression language wherever mongod accepts expressions, through the official driver:
 * `$project`/`$addFields`/`$set`, `$match` with `$expr`, `$group` accumulators, `find`
 * projections with expressions, `find` with `$expr`, pipeline-style updates, `findAndModify`
 * with a pipeline, a view defined with expressions, and a command's `let`. The same operators
 * (one of each group) answer the same in every place, and a bad argument is mongod's error
 * wherever it is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal128, Double, Int32, Long, MongoServerError, type Document } from 'mongodb';
import { startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;

const AT = new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123));

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await db.collection('c').insertMany([
    { _id: 1, name: ' Ada ', price: 10.25, qty: 3, at: AT, tags: ['b', 'a', 'b'], d: Decimal128.fromString('2') },
    { _id: 2, name: 'Bob', price: 4, qty: 0, at: new Date(Date.UTC(2023, 11, 31, 23, 0, 0)), tags: [], d: Decimal128.fromString('9') },
  ]);
});
afterAll(async () => {
  await h.close();
});

/** One operator of each group, as a `$project`/`$set` specification. */
const EXPRESSIONS = {
  _id: 0,
  trimmed: { $trim: { input: '$name' } },
  total: { $round: [{ $multiply: ['$price', '$qty'] }, 1] },
  root: { $sqrt: '$d' },
  day: { $dateToString: { date: '$at', format: '%Y-%m-%d %H:%M', timezone: 'Asia/Tokyo' } },
  plusMonth: { $dateAdd: { startDate: '$at', unit: 'month', amount: 1 } },
  distinct: { $setUnion: ['$tags', []] },
  sorted: { $sortArray: { input: '$tags', sortBy: -1 } },
  asText: { $toString: '$qty' },
  kind: { $switch: { branches: [{ case: { $gt: ['$qty', 0] }, then: 'in stock' }], default: 'none' } },
  sine: { $sin: 0 },
};

/** What EXPRESSIONS gives for document 1, with mongod's types. */
const FIRST = {
  trimmed: 'Ada',
  total: new Double(30.8),
  root: Decimal128.fromString('1.414213562373095048801688724209698'),
  day: '2024-02-29 22:45',
  plusMonth: new Date(Date.UTC(2024, 2, 29, 13, 45, 30, 123)),
  distinct: ['a', 'b'],
  sorted: ['b', 'b', 'a'],
  asText: '3',
  kind: 'in stock',
  sine: new Double(0),
};

describe('the same expressions in every place mongod takes them', () => {
  it('$project, $addFields and $set', async () => {
    const c = db.collection('c');
    const projected = await c.aggregate([{ $match: { _id: 1 } }, { $project: EXPRESSIONS }], { promoteValues: false }).toArray();
    expect(projected).toEqual([FIRST]);
    const { _id: _ignored, ...fields } = EXPRESSIONS;
    const added = await c.aggregate([{ $match: { _id: 1 } }, { $addFields: fields }, { $project: { _id: 0, day: 1, asText: 1 } }]).toArray();
    expect(added).toEqual([{ day: '2024-02-29 22:45', asText: '3' }]);
    const set = await c.aggregate([{ $match: { _id: 2 } }, { $set: { kind: fields.kind, year: { $isoWeekYear: '$at' } } }, { $project: { _id: 0, kind: 1, year: 1 } }]).toArray();
    expect(set).toEqual([{ kind: 'none', year: 2023 }]);
  });

  it('$match with $expr and find with $expr', async () => {
    const c = db.collection('c');
    const filter = { $expr: { $eq: [{ $year: { date: '$at', timezone: '+02:00' } }, 2024] } };
    expect((await c.aggregate([{ $match: filter }]).toArray()).map((d) => d._id)).toEqual([1, 2]);
    expect((await c.find({ $expr: { $gt: [{ $strLenCP: '$name' }, 3] } }).toArray()).map((d) => d._id)).toEqual([1]);
  });

  it('$group accumulators', async () => {
    const groups = await db
      .collection('c')
      .aggregate([{ $group: { _id: null, sd: { $stdDevPop: '$qty' }, top: { $top: { sortBy: { price: -1 }, output: '$name' } }, all: { $setUnion: '$tags' } } }])
      .toArray();
    // $setUnion's order is unspecified (mongod's is a hash set's): compared sorted.
    expect(groups.map((g) => ({ ...g, all: [...(g.all as string[])].sort() }))).toEqual([{ _id: null, sd: 1.5, top: ' Ada ', all: ['a', 'b'] }]);
  });

  it('find projections with expressions', async () => {
    const docs = await db
      .collection('c')
      .find({}, { projection: { _id: 1, month: { $month: '$at' }, upper: { $toUpper: { $trim: { input: '$name' } } }, n: { $size: '$tags' } } })
      .sort({ _id: 1 })
      .toArray();
    expect(docs).toEqual([
      { _id: 1, month: 2, upper: 'ADA', n: 3 },
      { _id: 2, month: 12, upper: 'BOB', n: 0 },
    ]);
  });

  it('pipeline-style updates and findAndModify', async () => {
    const c = db.collection('u');
    await c.insertMany([{ _id: 1, price: 2.5, qty: 4 }, { _id: 2, price: 1, qty: 1 }]);
    await c.updateMany({}, [{ $set: { total: { $trunc: [{ $multiply: ['$price', '$qty'] }] }, label: { $concat: [{ $toString: '$qty' }, ' x'] } } }]);
    expect(await c.find({}, { promoteValues: false }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: new Int32(1), price: new Double(2.5), qty: new Int32(4), total: new Double(10), label: '4 x' },
      { _id: new Int32(2), price: new Int32(1), qty: new Int32(1), total: new Int32(1), label: '1 x' },
    ]);
    const after = await c.findOneAndUpdate({ _id: 1 }, [{ $set: { bits: { $bitOr: [{ $toInt: '$qty' }, 3] } } }], { returnDocument: 'after', projection: { _id: 0, bits: 1 } });
    expect(after).toEqual({ bits: 7 });
  });

  it('a view defined with expressions', async () => {
    await db.command({ create: 'names', viewOn: 'c', pipeline: [{ $project: { short: { $substrCP: [{ $trim: { input: '$name' } }, 0, 2] }, week: { $isoWeek: '$at' } } }] });
    expect(await db.collection('names').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, short: 'Ad', week: 9 },
      { _id: 2, short: 'Bo', week: 52 },
    ]);
  });

  it("a command's let, read with $$", async () => {
    const docs = await db
      .collection('c')
      .aggregate([{ $project: { _id: 1, off: { $dateDiff: { startDate: '$$since', endDate: '$at', unit: 'day' } } } }], { let: { since: new Date(Date.UTC(2024, 0, 1)) } })
      .toArray();
    expect(docs).toEqual([
      { _id: 1, off: 59 },
      { _id: 2, off: -1 },
    ]);
    expect(docs[0]!.off).toBeTypeOf('number');
    const raw = await db.command({ aggregate: 'c', pipeline: [{ $match: { _id: 1 } }, { $project: { _id: 0, off: { $dateDiff: { startDate: '$$since', endDate: '$at', unit: 'day' } } } }], let: { since: new Date(Date.UTC(2024, 0, 1)) }, cursor: {} }, { promoteLongs: false });
    expect((raw as Document).cursor.firstBatch).toEqual([{ off: Long.fromNumber(59) }]);
  });
});

describe('bad arguments get mongod errors wherever they are written', () => {
  const cases: Array<[string, () => Promise<unknown>, number, string]> = [
    [
      '$acos out of its domain in $project',
      () => db.collection('c').aggregate([{ $sort: { _id: 1 } }, { $project: { x: { $acos: '$qty' } } }]).toArray(),
      50989,
      'PlanExecutor error during aggregation :: caused by :: cannot apply $acos to 3, value must be in [-1,1]',
    ],
    [
      'an unknown time zone read from a field',
      () => db.collection('c').aggregate([{ $sort: { _id: 1 } }, { $project: { h: { $hour: { date: '$at', timezone: '$name' } } } }]).toArray(),
      40485,
      'PlanExecutor error during aggregation :: caused by :: unrecognized time zone identifier: " Ada "',
    ],
    ['an invalid regex in $expr', () => db.collection('c').find({ $expr: { $regexMatch: { input: '$name', regex: '(' } } }).toArray(), 51111, "Invalid Regex in $regexMatch: missing closing parenthesis"],
    ['$convert failing in an update pipeline', () => db.collection('c').updateOne({ _id: 1 }, [{ $set: { n: { $toInt: { $concat: ['12', '$name'] } } } }]), 241, "Plan executor error during update :: caused by :: Failed to parse number '12 Ada ' in $convert with no onError value: Did not consume whole string."],
  ];
  it.each(cases)('%s', async (_label, run, code, message) => {
    const err = (await run().then(
      () => null,
      (e: unknown) => e,
    )) as MongoServerError | null;
    expect(err).toBeInstanceOf(MongoServerError);
    expect([err!.code, err!.errmsg]).toEqual([code, message]);
    // Nothing was written by the failing update.
    expect(await db.collection('c').findOne({ _id: 1 }, { projection: { _id: 0, n: 1 } })).toEqual({});
  });
});
