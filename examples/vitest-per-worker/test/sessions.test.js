import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, test } from 'vitest';

let client;
let admin;
let sessions;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI);
  admin = client.db('admin');
  sessions = client.db('sessions_test').collection('sessions');
  await sessions.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 1800 }); // MongoDB TTL: compat 'mongodb'
});

afterAll(() => client.close());

test('a session is deleted 30 minutes after it was last seen', async () => {
  const { now } = await admin.command({ mayflyClock: 1 }); // the server's (manual) now
  await sessions.insertMany([
    { _id: 'old', lastSeen: now },
    { _id: 'new', lastSeen: new Date(now.getTime() + 60_000) },
  ]);
  await admin.command({ mayflyAdvanceClock: 1800 }); // seconds; no sleeping
  expect(await admin.command({ mayflyRunTtlPass: 1 })).toEqual({ deleted: 1, subPasses: 1, ok: 1 });
  expect(await sessions.find().toArray()).toEqual([{ _id: 'new', lastSeen: new Date(now.getTime() + 60_000) }]);
});
