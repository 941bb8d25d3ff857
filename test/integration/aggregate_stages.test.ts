/**
 * The stages the aggregate command runs itself: `$out`, `$merge`, and the sources of a
 * collectionless `{aggregate: 1}` (`$documents`, `$listLocalSessions`), with mongod's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary } from 'mongodb';
import { createHash } from 'node:crypto';
import { startHarness, errorOf, seed, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

describe('$out', () => {
  it('replaces the target with the output and returns an exhausted empty cursor', async () => {
    await seed(db, 'out_src', [{ _id: 1, x: 11 }, { _id: 2, x: 22 }, { _id: 3, x: 33 }]);
    await seed(db, 'out_dst', [{ _id: 9, old: true }]);
    await db.collection('out_dst').createIndex({ x: 1 }, { unique: true });
    const reply = await db.command({ aggregate: 'out_src', pipeline: [{ $match: { _id: { $gt: 1 } } }, { $out: 'out_dst' }], cursor: {} });
    expect(reply).toEqual({ cursor: { firstBatch: [], id: 0, ns: `${db.databaseName}.out_src` }, ok: 1 });
    expect(await db.collection('out_dst').find().toArray()).toEqual([{ _id: 2, x: 22 }, { _id: 3, x: 33 }]);
    expect((await db.collection('out_dst').indexes()).map((i) => i.name)).toEqual(['_id_', 'x_1']);
  });

  it('leaves the target untouched when the output breaks a unique index', async () => {
    await seed(db, 'out_dup_src', [{ _id: 1, x: 5 }, { _id: 2, x: 5 }]);
    await seed(db, 'out_dup_dst', [{ _id: 7, x: 1 }]);
    await db.collection('out_dup_dst').createIndex({ x: 1 }, { unique: true });
    const err = await errorOf(() => db.collection('out_dup_src').aggregate([{ $out: 'out_dup_dst' }]).toArray());
    expect(err.code).toBe(11000);
    expect(err.errmsg).toMatch(/^PlanExecutor error during aggregation :: caused by :: E11000 duplicate key error collection: .*\.tmp\.agg_out\..* index: x_1 dup key: \{ x: 5 \}$/);
    expect(await db.collection('out_dup_dst').find().toArray()).toEqual([{ _id: 7, x: 1 }]);
  });

  it('accepts {db, coll} and creates the target even from no output', async () => {
    await seed(db, 'out_none', [{ _id: 1 }]);
    const other = h.client.db(`${db.databaseName}_other`);
    await db.collection('out_none').aggregate([{ $match: { _id: 2 } }, { $out: { db: other.databaseName, coll: 'target' } }]).toArray();
    expect((await other.listCollections().toArray()).map((c) => c.name)).toEqual(['target']);
    expect(await other.collection('target').countDocuments()).toBe(0);
    await other.dropDatabase();
  });

  it('must be the last stage, with a string or object argument', async () => {
    let err = await errorOf(() => db.command({ aggregate: 'out_src', pipeline: [{ $out: 'x' }, { $match: {} }], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([40601, '$out can only be the final stage in the pipeline']);
    err = await errorOf(() => db.command({ aggregate: 'out_src', pipeline: [{ $out: 1 }], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([16990, '$out only supports a string or object argument, but found int']);
    err = await errorOf(() => db.command({ aggregate: 'out_src', pipeline: [{ $out: 'system.x' }], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([17385, "Can't $out to special collection: system.x"]);
  });
});

describe('$merge', () => {
  it('merges matched documents and inserts the others by default', async () => {
    await seed(db, 'm_src', [{ _id: 1, a: 'new' }, { _id: 2, a: 'two' }]);
    await seed(db, 'm_dst', [{ _id: 1, a: 'old', b: 'kept' }]);
    await db.collection('m_src').aggregate([{ $merge: { into: 'm_dst' } }]).toArray();
    expect(await db.collection('m_dst').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 'new', b: 'kept' },
      { _id: 2, a: 'two' },
    ]);
  });

  it('replace, keepExisting and discard', async () => {
    await seed(db, 'm_src2', [{ _id: 1, a: 'new' }, { _id: 2, a: 'two' }]);
    await seed(db, 'm_dst2', [{ _id: 1, a: 'old', b: 'gone' }]);
    await db.collection('m_src2').aggregate([{ $merge: { into: 'm_dst2', whenMatched: 'replace', whenNotMatched: 'discard' } }]).toArray();
    expect(await db.collection('m_dst2').find().toArray()).toEqual([{ _id: 1, a: 'new' }]);
    await db.collection('m_src2').aggregate([{ $merge: { into: 'm_dst2', whenMatched: 'keepExisting', whenNotMatched: 'insert' } }]).toArray();
    expect(await db.collection('m_dst2').find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, a: 'new' }, { _id: 2, a: 'two' }]);
  });

  it('whenMatched fail reports the duplicate key with its pattern and value', async () => {
    const err = await errorOf(() => db.aggregate([{ $documents: [{ _id: 2, x: 1 }] }, { $merge: { into: 'm_dst2', whenMatched: 'fail' } }]).toArray());
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ _id: 1 });
    expect(err.keyValue).toEqual({ _id: 2 });
    expect(err.errmsg).toBe(
      `PlanExecutor error during aggregation :: caused by :: E11000 duplicate key error collection: ${db.databaseName}.m_dst2 index: _id_ dup key: { _id: 2 }`,
    );
  });

  it('whenNotMatched fail, unsupported mode pairs and non-unique on fields are refused', async () => {
    let err = await errorOf(() => db.aggregate([{ $documents: [{ _id: 99 }] }, { $merge: { into: 'm_dst2', whenNotMatched: 'fail' } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([
      13113,
      'PlanExecutor error during aggregation :: caused by :: $merge could not find a matching document in the target collection for at least one document in the source collection',
    ]);
    err = await errorOf(() => db.aggregate([{ $documents: [{ _id: 99 }] }, { $merge: { into: 'm_dst2', whenMatched: 'fail', whenNotMatched: 'fail' } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([51181, "Combination of $merge modes 'whenMatched: fail' and 'whenNotMatched: fail' is not supported"]);
    err = await errorOf(() => db.aggregate([{ $documents: [{ a: 1 }] }, { $merge: { into: 'm_dst2', on: 'a' } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([51183, 'Cannot find index to verify that $merge fields will be unique']);
  });

  it('merges on a unique index other than _id', async () => {
    await seed(db, 'm_on', [{ _id: 1, k: 'a', v: 1 }]);
    await db.collection('m_on').createIndex({ k: 1 }, { unique: true });
    await db.aggregate([{ $documents: [{ k: 'a', v: 2 }, { k: 'b', v: 3 }] }, { $merge: { into: 'm_on', on: 'k' } }]).toArray();
    const docs = await db.collection('m_on').find({}, { projection: { _id: 0 } }).sort({ k: 1 }).toArray();
    expect(docs).toEqual([{ k: 'a', v: 2 }, { k: 'b', v: 3 }]);
  });
});

describe('collectionless aggregate', () => {
  it('$documents produces its documents for the following stages', async () => {
    const docs = await db.aggregate([{ $documents: [{ x: 1 }, { x: 2 }, { x: 3 }] }, { $match: { x: { $gte: 2 } } }]).toArray();
    expect(docs).toEqual([{ x: 2 }, { x: 3 }]);
    const reply = await db.command({ aggregate: 1, pipeline: [{ $documents: [{ x: 1 }] }], cursor: {} });
    expect(reply.cursor).toEqual({ firstBatch: [{ x: 1 }], id: 0, ns: `${db.databaseName}.$cmd.aggregate` });
  });

  it('$listLocalSessions lists the sessions commands used, for the no-auth user', async () => {
    const session = h.client.startSession();
    await db.collection('sess').insertOne({ a: 1 }, { session });
    const id = session.id!.id as Binary;
    const rows = await h.client.db('admin').aggregate([{ $listLocalSessions: {} }]).toArray();
    const mine = rows.filter((r) => (r._id.id as Binary).toString('hex') === id.toString('hex'));
    expect(mine).toHaveLength(1);
    expect(mine[0]!._id.uid).toEqual(new Binary(createHash('sha256').update('').digest(), 0));
    expect(mine[0]!.lastUse).toBeInstanceOf(Date);
    await session.endSession();
  });

  it('needs a source stage first, and source stages need {aggregate: 1}', async () => {
    let err = await errorOf(() => db.command({ aggregate: 1, pipeline: [{ $match: {} }], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([73, "{aggregate: 1} is not valid for '$match'; a collection is required."]);
    err = await errorOf(() => db.command({ aggregate: 'c', pipeline: [{ $listLocalSessions: {} }], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([73, '$listLocalSessions must be run against the database with {aggregate: 1}, not a collection']);
    err = await errorOf(() => db.command({ aggregate: 1, pipeline: [{ $documents: [] }, { $documents: [] }], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([40602, '$documents is only valid as the first stage in a pipeline']);
    err = await errorOf(() => db.command({ aggregate: 2, pipeline: [], cursor: {} }));
    expect([err.code, err.errmsg]).toEqual([2, "Invalid command format: the 'aggregate' field must specify a collection name or 1"]);
  });
});
