import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { MayflyServer } from 'mayfly';

const server = await MayflyServer.create({ compat: 'mongodb' }); // MongoDB's own TTL indexes
const client = await MongoClient.connect(server.getUri());
const users = client.db('app').collection('users');

after(async () => {
  await client.close();
  await server.stop();
});

test('a unique index refuses a second user with the same email', async () => {
  await users.createIndex({ email: 1 }, { unique: true });
  await users.insertOne({ _id: 1, email: 'ann@example.com' });
  await assert.rejects(users.insertOne({ _id: 2, email: 'ann@example.com' }), { code: 11000 });
  assert.equal(await users.countDocuments(), 1);
});

test('a TTL index on a Date field is accepted in compat mongodb', async () => {
  assert.equal(await users.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 1800 }), 'lastSeen_1');
});
