import { MongoClient, MongoServerError } from 'mongodb';
import { afterAll, beforeAll, expect, test } from 'vitest';

let client;
let users;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI);
  users = client.db('users_test').collection('users');
  await users.createIndex({ email: 1 }, { unique: true });
});

afterAll(() => client.close());

test('a unique index refuses a second user with the same email', async () => {
  await users.insertOne({ _id: 1, email: 'ann@example.com' });
  const error = await users.insertOne({ _id: 2, email: 'ann@example.com' }).catch((e) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  expect(error.code).toBe(11000);
  expect(await users.countDocuments()).toBe(1);
});
