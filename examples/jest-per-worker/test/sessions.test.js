const { MongoClient } = require('mongodb');

let client;
let sessions;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI);
  sessions = client.db('sessions_test').collection('sessions');
});

afterAll(() => client.close());

test('the default compat mode (a faithful mongod) takes a TTL index on any date field', async () => {
  await expect(sessions.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 1800 })).resolves.toBe('lastSeen_1');
  const indexes = await sessions.listIndexes().toArray();
  expect(indexes.find((i) => i.name === 'lastSeen_1')).toMatchObject({ key: { lastSeen: 1 }, expireAfterSeconds: 1800 });
});
