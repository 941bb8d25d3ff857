import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { MayflyServer } from 'mayfly';

// node --test runs each test file in a process of its own: this file's server is its own.
const server = await MayflyServer.create({ clock: 'manual' });
const client = await MongoClient.connect(server.getUri());
const carts = client.db('shop').collection('carts');
await carts.createIndex({ _ts: 1 }, { expireAfterSeconds: 3600 }); // Cosmos DB TTL: one hour

after(async () => {
  await client.close();
  await server.stop();
});

test('a cart is saved and read back', async () => {
  await carts.insertOne({ _id: 'c1', items: ['apple'] });
  assert.deepEqual(await carts.findOne({ _id: 'c1' }), { _id: 'c1', items: ['apple'] });
});

test('a cart expires an hour after its last change', async () => {
  server.clock.advance(3600 * 1000); // the test clock (ms), moved from the test itself
  assert.equal(await carts.findOne({ _id: 'c1' }), null);
  const { deleted } = await server.runTtlPass(); // one reaper pass now; counts are Int64 (bson Long)
  assert.equal(Number(deleted), 1);
});
