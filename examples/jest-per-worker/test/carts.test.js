const { MongoClient } = require('mongodb');

let client;
let admin;
let carts;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI);
  admin = client.db('admin');
  carts = client.db('carts_test').collection('carts');
  await carts.createIndex({ _ts: 1 }, { expireAfterSeconds: 3600 }); // Cosmos DB TTL: one hour
});

afterAll(() => client.close());

test('a cart expires an hour after its last change, and its own ttl wins', async () => {
  await carts.insertMany([{ _id: 'hour' }, { _id: 'minute', ttl: 60 }, { _id: 'forever', ttl: -1 }]);
  await admin.command({ mayflyAdvanceClock: 60 }); // seconds; no sleeping
  expect(await carts.distinct('_id')).toEqual(['forever', 'hour']); // gone at once, before any reaper pass
  await admin.command({ mayflyAdvanceClock: 3540 });
  expect(await carts.distinct('_id')).toEqual(['forever']);
  expect(await admin.command({ mayflyRunTtlPass: 1 })).toEqual({ deleted: 2, subPasses: 1, ok: 1 });
});
