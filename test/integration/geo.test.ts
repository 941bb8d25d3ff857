/**
 * Geospatial queries through the official driver: $geoWithin (each shape), $geoIntersects,
 * $near/$nearSphere (ordered by distance, index required), $geoNear, 2d/2dsphere index creation
 * and the key errors of bad GeoJSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const point = (x: number, y: number) => ({ type: 'Point', coordinates: [x, y] });

async function places(name: string, index?: { [field: string]: '2d' | '2dsphere' }) {
  const coll = h.db.collection(name);
  await coll.drop().catch(() => undefined);
  if (index) await coll.createIndex(index);
  await coll.insertMany([
    { _id: 1, loc: point(0, 0) },
    { _id: 2, loc: point(1, 0) },
    { _id: 3, loc: point(5, 5) },
    { _id: 4, loc: point(-20, 10) },
    { _id: 5, name: 'no location' },
  ] as never[]);
  return coll;
}

const ids = (docs: Array<{ _id: unknown }>) => docs.map((d) => d._id);

describe('$geoWithin and $geoIntersects', () => {
  it('each shape selects the points inside it', async () => {
    const coll = await places('within');
    const square = { type: 'Polygon', coordinates: [[[-2, -2], [2, -2], [2, 2], [-2, 2], [-2, -2]]] };
    expect(ids(await coll.find({ loc: { $geoWithin: { $geometry: square } } }).toArray())).toEqual([1, 2]);
    expect(ids(await coll.find({ loc: { $geoWithin: { $box: [[0, 0], [5, 5]] } } }).toArray())).toEqual([1, 2, 3]);
    expect(ids(await coll.find({ loc: { $within: { $center: [[0, 0], 1] } } }).toArray())).toEqual([1, 2]);
    expect(ids(await coll.find({ loc: { $geoWithin: { $polygon: [[-30, 0], [0, 0], [-30, 20]] } } }).toArray())).toEqual([1, 4]);
    expect(ids(await coll.find({ loc: { $geoWithin: { $centerSphere: [[0, 0], 0.02] } } }).toArray())).toEqual([1, 2]);
    expect(ids(await coll.find({ loc: { $geoIntersects: { $geometry: square } } }).toArray())).toEqual([1, 2]);
  });

  it('bad shapes are 2 BadValue with mongod’s messages', async () => {
    const coll = h.db.collection('within');
    const err = await errorOf(() => coll.find({ loc: { $geoWithin: { $geometry: point(0, 0) } } }).toArray());
    expect([err.code, err.errmsg]).toEqual([2, '$within not supported with provided geometry: { $geoWithin: { $geometry: { type: "Point", coordinates: [ 0, 0 ] } } }']);
    const open = await errorOf(() => coll.find({ loc: { $geoIntersects: { $geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1]]] } } } }).toArray());
    expect([open.code, open.errmsg]).toEqual([2, 'Loop is not closed, first vertex does not equal last vertex: [ [ 0, 0 ], [ 1, 0 ], [ 1, 1 ] ]']);
  });
});

describe('$near and $nearSphere', () => {
  it('need a geospatial index (291)', async () => {
    const coll = await places('near_noindex');
    const err = await errorOf(() => coll.find({ loc: { $near: { $geometry: point(0, 0) } } }).toArray());
    expect([err.code, err.codeName]).toEqual([291, 'NoQueryExecutionPlans']);
  });

  it('return the matches nearest first, within $maxDistance metres', async () => {
    const coll = await places('near', { loc: '2dsphere' });
    expect(ids(await coll.find({ loc: { $near: { $geometry: point(4, 4) } } }).toArray())).toEqual([3, 2, 1, 4]);
    expect(ids(await coll.find({ loc: { $near: { $geometry: point(0, 0), $maxDistance: 200000 } } }).toArray())).toEqual([1, 2]);
    expect(ids(await coll.find({ loc: { $nearSphere: { $geometry: point(0, 0), $minDistance: 1 } } }).limit(2).toArray())).toEqual([2, 3]);
  });

  it('are refused outside the top level and in $match', async () => {
    const coll = h.db.collection('near');
    const nested = await errorOf(() => coll.find({ $or: [{ loc: { $near: [0, 0] } }, { a: 1 }] }).toArray());
    expect([nested.code, nested.errmsg]).toEqual([2, 'geoNear must be top-level expr']);
    const inMatch = await errorOf(() => coll.aggregate([{ $match: { loc: { $near: [0, 0] } } }]).toArray());
    expect(inMatch.code).toBe(5626500);
  });
});

describe('$geoNear', () => {
  it('adds the distance in metres and the location, nearest first', async () => {
    const coll = await places('geonear', { loc: '2dsphere' });
    const docs = await coll
      .aggregate([{ $geoNear: { near: point(0, 0), distanceField: 'd', includeLocs: 'at', maxDistance: 200000, query: { _id: { $gte: 2 } } } }])
      .toArray();
    expect(docs).toEqual([{ _id: 2, loc: point(1, 0), d: 111318.84502145034, at: point(1, 0) }]);
  });

  it('$meta reads the distance and the point in a later stage', async () => {
    const coll = h.db.collection('geonear');
    const docs = await coll
      .aggregate([{ $geoNear: { near: point(0, 0), distanceField: 'd', maxDistance: 200000 } }, { $project: { _id: 1, m: { $meta: 'geoNearDistance' }, p: { $meta: 'geoNearPoint' } } }])
      .toArray();
    expect(docs).toEqual([
      { _id: 1, m: 0, p: point(0, 0) },
      { _id: 2, m: 111318.84502145034, p: point(1, 0) },
    ]);
  });

  it('legacy pairs with a 2d index give flat distances, doubles times the multiplier', async () => {
    const coll = h.db.collection('geonear2d');
    await coll.drop().catch(() => undefined);
    await coll.createIndex({ p: '2d' });
    await coll.insertMany([{ _id: 1, p: [3, 4] }, { _id: 2, p: [1, 0] }]);
    const docs = await coll.aggregate([{ $geoNear: { near: [0, 0], distanceField: 'd', distanceMultiplier: 2 } }], { promoteValues: false }).toArray();
    expect(docs.map((d) => [d._id.valueOf(), d.d])).toEqual([
      [2, new Double(2)],
      [1, new Double(10)],
    ]);
  });

  it('mongod’s errors: first stage, index, options', async () => {
    const coll = await places('geonear_err');
    expect((await errorOf(() => coll.aggregate([{ $geoNear: { near: point(0, 0), distanceField: 'd' } }]).toArray())).code).toBe(27);
    expect((await errorOf(() => coll.aggregate([{ $match: {} }, { $geoNear: { near: point(0, 0) } }]).toArray())).code).toBe(40603);
    expect((await errorOf(() => coll.aggregate([{ $geoNear: { distanceField: 'd' } }]).toArray())).code).toBe(5860400);
    expect((await errorOf(() => coll.aggregate([{ $geoNear: { near: point(0, 0), distanceField: 5 } }]).toArray())).code).toBe(16606);
    expect((await errorOf(() => coll.aggregate([{ $geoNear: { near: point(0, 0), maxDistance: -1 } }]).toArray())).code).toBe(2);
  });
});

describe('2d and 2dsphere indexes', () => {
  it('refuse documents they cannot index, as mongod does', async () => {
    const coll = h.db.collection('keys');
    await coll.drop().catch(() => undefined);
    await coll.createIndex({ loc: '2dsphere' });
    const bad = await errorOf(() => coll.insertOne({ _id: 1, loc: point(200, 0) }));
    expect(bad.code).toBe(16755);
    expect(bad.errmsg).toBe("Can't extract geo keys: { _id: 1, loc: { type: \"Point\", coordinates: [ 200, 0 ] } }  longitude/latitude is out of bounds, lng: 200 lat: 0");
    await coll.insertOne({ _id: 2, other: 1 });
    expect(await coll.countDocuments()).toBe(1);
  });

  it('a hint to a geo index reads the documents it holds (those with a location)', async () => {
    const coll = await places('hinted', { loc: '2dsphere' });
    expect(ids(await coll.find({}).hint('loc_2dsphere').sort({ _id: 1 }).toArray())).toEqual([1, 2, 3, 4]);
    expect(await coll.countDocuments({}, { hint: 'loc_2dsphere' })).toBe(4);
  });

  it('writes with a near query need the index too, and take the nearest first', async () => {
    const bare = await places('near_writes');
    expect((await errorOf(() => bare.deleteMany({ loc: { $near: { $geometry: point(0, 0) } } }))).code).toBe(291);
    const coll = await places('near_writes_indexed', { loc: '2dsphere' });
    await coll.updateOne({ loc: { $near: { $geometry: point(4, 4) } } }, { $set: { nearest: true } });
    expect(ids(await coll.find({ nearest: true }).toArray())).toEqual([3]);
  });

  it('check the 2d range and options', async () => {
    const coll = h.db.collection('keys2d');
    await coll.drop().catch(() => undefined);
    await coll.createIndex({ p: '2d' }, { min: -10, max: 10 });
    expect((await errorOf(() => coll.insertOne({ p: [11, 0] }))).code).toBe(13027);
    expect((await errorOf(() => coll.createIndex({ q: '2d' }, { bits: 0 }))).code).toBe(72);
    expect((await errorOf(() => coll.createIndex({ q: '2dsphere' }, { '2dsphereIndexVersion': 4 }))).code).toBe(67);
  });
});
