/**
 * A command's `let`, through the official driver, command by command: one evaluator
 * (src/storage/expression/let.ts) answers every command exactly as mongod 8.2 does. A name a user
 * may not write is 9 FailedToParse with the "Invalid 'let' parameter" context; a system constant
 * is 4738901; a field read is 4890500; `count` and `distinct` have no `let` in mongod 8.2 (40415,
 * their strict IDL). A valid variable is read by each command's `$expr`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const BAD_NAME = { code: 9, codeName: 'FailedToParse', errmsg: "Invalid 'let' parameter :: caused by :: 'A' starts with an invalid character for a user variable name" };

/** The commands that have `let`: name, and the command on collection `coll` with `let: letDoc`. */
const COMMANDS: Array<[string, (coll: string, letDoc: Document) => Document]> = [
  ['find', (coll, letDoc) => ({ find: coll, filter: {}, let: letDoc })],
  ['aggregate', (coll, letDoc) => ({ aggregate: coll, pipeline: [], cursor: {}, let: letDoc })],
  ['update', (coll, letDoc) => ({ update: coll, updates: [{ q: { _id: 1 }, u: { $set: { y: 1 } } }], let: letDoc })],
  ['delete', (coll, letDoc) => ({ delete: coll, deletes: [{ q: { _id: 99 }, limit: 1 }], let: letDoc })],
  ['findAndModify', (coll, letDoc) => ({ findAndModify: coll, query: { _id: 1 }, update: { $set: { y: 1 } }, let: letDoc })],
  ['bulkWrite', (coll, letDoc) => ({ bulkWrite: 1, ops: [{ update: 0, filter: { _id: 1 }, updateMods: { $set: { y: 1 } } }], nsInfo: [{ ns: `${h.db.databaseName}.${coll}` }], let: letDoc })],
  ['explain', (coll, letDoc) => ({ explain: { find: coll, filter: {}, let: letDoc } })],
];

/** Runs `cmd` where it runs: bulkWrite on admin, the others on the test database. */
async function run(cmd: Document): Promise<Document> {
  return (cmd.bulkWrite === undefined ? h.db : h.client.db('admin')).command(cmd);
}

describe('let: {A: 1}', () => {
  beforeAll(async () => {
    await h.db.collection('let_bad').insertOne({ _id: 1, x: 1 });
  });
  for (const [name, command] of COMMANDS) {
    it(`${name}: 9 with mongod's let context`, async () => {
      const err = await errorOf(() => run(command('let_bad', { A: 1 })));
      expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual(BAD_NAME);
    });
  }
  for (const name of ['count', 'distinct']) {
    it(`${name}: has no let (40415, as mongod's strict IDL)`, async () => {
      const cmd = name === 'count' ? { count: 'let_bad', let: { A: 1 } } : { distinct: 'let_bad', key: 'x', let: { A: 1 } };
      const err = await errorOf(() => run(cmd));
      expect({ code: err.code, errmsg: err.errmsg }).toEqual({ code: 40415, errmsg: `BSON field '${name}.let' is an unknown field.` });
    });
  }
});

describe('the other refusals', () => {
  it('a system constant only internal clients set is 4738901', async () => {
    const err = await errorOf(() => h.db.command({ find: 'let_bad', let: { NOW: new Date(0) } }));
    expect({ code: err.code, errmsg: err.errmsg }).toEqual({ code: 4738901, errmsg: 'Attempt to set internal constant: NOW' });
  });
  it('a value reading a field is 4890500, in every command that has let', async () => {
    const codes: Document = {};
    for (const [name, command] of COMMANDS) codes[name] = (await errorOf(() => run(command('let_bad', { x: '$x' })))).code;
    expect(codes).toEqual(Object.fromEntries(COMMANDS.map(([name]) => [name, 4890500])));
  });
});

describe('a variable each command reads', () => {
  beforeAll(async () => {
    await h.db.collection('let_ok').insertMany([
      { _id: 1, x: 10 },
      { _id: 2, x: 20 },
      { _id: 3, x: 30 },
    ]);
  });
  const match = { $expr: { $eq: ['$x', '$$target'] } };
  it('find', async () => {
    const reply = await h.db.command({ find: 'let_ok', filter: match, let: { target: 20 } });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 2, x: 20 }]);
  });
  it('aggregate', async () => {
    const docs = await h.db.collection('let_ok').aggregate([{ $match: match }, { $project: { _id: 1, t: '$$target' } }], { let: { target: 30 } }).toArray();
    expect(docs).toEqual([{ _id: 3, t: 30 }]);
  });
  it('update, in its filter and its pipeline', async () => {
    const reply = await h.db.command({ update: 'let_ok', updates: [{ q: match, u: [{ $set: { seen: '$$target' } }] }], let: { target: 10 } });
    expect([reply.n, reply.nModified]).toEqual([1, 1]);
    expect(await h.db.collection('let_ok').findOne({ _id: 1 })).toEqual({ _id: 1, x: 10, seen: 10 });
  });
  it('findAndModify', async () => {
    const reply = await h.db.command({ findAndModify: 'let_ok', query: match, update: { $set: { fam: true } }, new: true, let: { target: 30 } });
    expect(reply.value).toEqual({ _id: 3, x: 30, fam: true });
  });
  it('bulkWrite', async () => {
    const ns = `${h.db.databaseName}.let_ok`;
    const reply = await h.client.db('admin').command({ bulkWrite: 1, ops: [{ update: 0, filter: match, updateMods: { $set: { bw: 1 } } }], nsInfo: [{ ns }], let: { target: 20 } });
    expect([reply.nMatched, reply.nModified]).toEqual([1, 1]);
  });
  it('explain', async () => {
    const reply = await h.db.command({ explain: { find: 'let_ok', filter: match, let: { target: 20 } }, verbosity: 'executionStats' });
    expect(reply.executionStats.nReturned).toBe(1);
  });
  it('delete', async () => {
    const reply = await h.db.command({ delete: 'let_ok', deletes: [{ q: match, limit: 0 }], let: { target: 20 } });
    expect(reply.n).toBe(1);
    expect(await h.db.collection('let_ok').countDocuments()).toBe(2);
  });
});
