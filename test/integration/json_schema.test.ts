/**
 * `$jsonSchema` filters through the official driver: find, count, update, delete and
 * aggregate $match, combined with other predicates, and parse errors as command errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Long } from 'mongodb';
import { startHarness, errorOf, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const people = [
  { _id: 1, name: 'Ann', age: 34, tags: ['a', 'b'] },
  { _id: 2, name: 'Bob', age: new Double(17), tags: ['a', 'a'] },
  { _id: 3, name: 'Cy', age: 'unknown' },
  { _id: 4, name: '', age: Long.fromNumber(70) },
  { _id: 5, age: 40 },
];

const adultSchema = {
  required: ['name', 'age'],
  properties: {
    name: { bsonType: 'string', minLength: 1 },
    age: { bsonType: 'number', minimum: 18 },
    tags: { bsonType: 'array', uniqueItems: true },
  },
};

async function seed(name: string) {
  const coll = h.db.collection(name);
  await coll.insertMany(people.map((p) => ({ ...p })));
  return coll;
}

describe('$jsonSchema through the driver', () => {
  it('find returns the documents that satisfy the schema, with types kept', async () => {
    const coll = await seed('js_find');
    const docs = await coll.find({ $jsonSchema: adultSchema }).sort({ _id: 1 }).toArray();
    expect(docs).toEqual([{ _id: 1, name: 'Ann', age: 34, tags: ['a', 'b'] }]);
    const typed = await coll
      .find({ $jsonSchema: { properties: { age: { bsonType: 'long' } }, required: ['age'] } }, { promoteLongs: false })
      .toArray();
    expect(typed).toEqual([{ _id: 4, name: '', age: Long.fromNumber(70) }]);
  });

  it('find combines $jsonSchema with other predicates and logical operators', async () => {
    const coll = await seed('js_combined');
    const ids = async (filter: object) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id as number);
    expect(await ids({ $jsonSchema: { required: ['name'] }, _id: { $gte: 2 } })).toEqual([2, 3, 4]);
    expect(await ids({ $or: [{ $jsonSchema: { not: { required: ['name'] } } }, { name: 'Cy' }] })).toEqual([3, 5]);
    expect(await ids({ $nor: [{ $jsonSchema: { properties: { age: { bsonType: 'number' } } } }] })).toEqual([3]);
  });

  it('count and countDocuments apply the schema', async () => {
    const coll = await seed('js_count');
    expect(await coll.countDocuments({ $jsonSchema: { properties: { age: { maximum: 35 } } } })).toBe(3);
    const reply = await h.db.command({ count: 'js_count', query: { $jsonSchema: { required: ['tags'] } } });
    expect(reply).toEqual({ n: 2, ok: 1 });
  });

  it('aggregate $match accepts $jsonSchema', async () => {
    const coll = await seed('js_match');
    const docs = await coll.aggregate([{ $match: { $jsonSchema: { properties: { age: { bsonType: 'string' } }, required: ['age'] } } }]).toArray();
    expect(docs).toEqual([{ _id: 3, name: 'Cy', age: 'unknown' }]);
  });

  it('updateMany and deleteMany select by schema', async () => {
    const coll = await seed('js_write');
    const upd = await coll.updateMany(
      { $jsonSchema: { properties: { tags: { uniqueItems: false, minItems: 1 } }, required: ['tags'] } },
      { $set: { tagged: true } },
    );
    expect(upd.matchedCount).toBe(2);
    expect(upd.modifiedCount).toBe(2);
    const del = await coll.deleteMany({ $jsonSchema: { not: { required: ['name'] } } });
    expect(del.deletedCount).toBe(1);
    const rest = await coll.find({}, { projection: { _id: 1, tagged: 1 } }).sort({ _id: 1 }).toArray();
    expect(rest).toEqual([{ _id: 1, tagged: true }, { _id: 2, tagged: true }, { _id: 3 }, { _id: 4 }]);
  });

  it('a malformed schema is a command error with mongod code and message', async () => {
    const coll = await seed('js_err');
    const err = await errorOf(() => coll.find({ $jsonSchema: { bsonType: 'object', type: 'object' } }).toArray());
    expect(err.code).toBe(9);
    expect(err.codeName).toBe('FailedToParse');
    expect(err.errmsg).toBe("Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
    const err2 = await errorOf(() => coll.countDocuments({ $jsonSchema: { properties: { a: { type: 'integer' } } } }));
    expect(err2.code).toBe(9);
    expect(err2.errmsg).toBe("$jsonSchema type 'integer' is not currently supported.");
    const err3 = await errorOf(() => coll.deleteMany({ $jsonSchema: 'x' }));
    expect(err3.code).toBe(14);
    expect(err3.errmsg).toBe('$jsonSchema must be an object');
    const err4 = await errorOf(() => coll.find({ a: { $jsonSchema: {} } }).toArray());
    expect(err4.code).toBe(2);
    expect(err4.errmsg).toBe('unknown operator: $jsonSchema');
  });
});
