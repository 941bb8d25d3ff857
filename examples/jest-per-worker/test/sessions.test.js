const { MongoClient } = require('mongodb');

let client;
let sessions;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI);
  sessions = client.db('sessions_test').collection('sessions');
});

afterAll(() => client.close());

test('the default compat mode answers a TTL index off _ts as Cosmos DB does', async () => {
  await expect(sessions.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 1800 })).rejects.toMatchObject({
    code: 2,
    codeName: 'BadValue',
    message: "The 'expireAfterSeconds' option is supported on '_ts' field only.",
  });
});
