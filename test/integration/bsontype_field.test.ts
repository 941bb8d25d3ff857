/**
 * A field named `_bsontype` is an ordinary field to mongod. js-bson (and so the Node driver) uses
 * that name to tag its own classes and refuses to send such a document, but pymongo and the other
 * drivers send it; here it is inserted over a raw socket and read back through the driver. Before,
 * every read of such a document failed with an InternalError, and a `Long`-like sub-document
 * broke a count.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BSON } from 'mongodb';
import { startHarness, type Harness } from './harness.js';
import { bson, el, kind0, opMsg } from '../unit/wire/fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const docs = [
    bson(el.int32('_id', 1), el.string('_bsontype', 'x'), el.int32('a', 1)),
    bson(el.int32('_id', 2), el.doc('sub', bson(el.string('_bsontype', 'ObjectId'), el.int32('i0', 1), el.int32('i1', 2), el.int32('i2', 3), el.int32('i3', 4)))),
    bson(el.int32('_id', 3), el.doc('sub', bson(el.string('_bsontype', 'Long'), el.int32('low', 5), el.int32('high', 0)))),
  ];
  const insert = bson(el.string('insert', 'tagged'), el.array('documents', docs), el.string('$db', h.db.databaseName));
  const reply = await send(opMsg(1, 0, [kind0(insert)]));
  expect(BSON.deserialize(reply.subarray(21))).toEqual({ n: 3, ok: 1 });
});
afterAll(async () => {
  await h.close();
});

/** Sends one message on a fresh socket and resolves with the whole reply. */
function send(message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(h.server.port, '127.0.0.1');
    let data = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('connect', () => socket.write(message));
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 4 && data.length >= data.readInt32LE(0)) {
        socket.destroy();
        resolve(data);
      }
    });
  });
}

const TAGGED = [
  { _id: 1, _bsontype: 'x', a: 1 },
  { _id: 2, sub: { _bsontype: 'ObjectId', i0: 1, i1: 2, i2: 3, i3: 4 } },
  { _id: 3, sub: { _bsontype: 'Long', low: 5, high: 0 } },
];

describe('documents with a field named _bsontype', () => {
  it('are returned as stored', async () => {
    expect(await h.db.collection('tagged').find().sort({ _id: 1 }).toArray()).toEqual(TAGGED);
  });

  it('match by their fields and by type as plain documents', async () => {
    const coll = h.db.collection('tagged');
    expect(await coll.find({ 'sub.low': 5 }).toArray()).toEqual([TAGGED[2]]);
    expect(await coll.find({ 'sub.i0': 1 }).toArray()).toEqual([TAGGED[1]]);
    expect(await coll.find({ sub: { $type: 'object' } }, { sort: { _id: 1 } }).toArray()).toEqual([TAGGED[1], TAGGED[2]]);
    expect(await coll.countDocuments({ sub: 5 })).toBe(0);
    expect(await coll.aggregate([{ $sort: { _id: 1 } }, { $project: { t: { $type: '$sub' } } }]).toArray()).toEqual([
      { _id: 1, t: 'missing' },
      { _id: 2, t: 'object' },
      { _id: 3, t: 'object' },
    ]);
  });

  it('sort and index as documents, field by field', async () => {
    const coll = h.db.collection('tagged');
    // 'Long' < 'ObjectId' in the first field; a missing field sorts first.
    expect((await coll.find({}, { sort: { sub: 1 }, projection: { _id: 1 } }).toArray()).map((d) => d._id)).toEqual([1, 3, 2]);
    await coll.createIndex({ sub: 1 });
    expect((await coll.find({ sub: { $gt: {} } }).hint('sub_1').toArray()).map((d) => d._id)).toEqual([3, 2]);
  });

  it('are updated like any other', async () => {
    const coll = h.db.collection('tagged');
    expect((await coll.updateOne({ _id: 2 }, { $set: { 'sub.i0': 9 } })).modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, sub: { _bsontype: 'ObjectId', i0: 9, i1: 2, i2: 3, i3: 4 } });
  });
});
