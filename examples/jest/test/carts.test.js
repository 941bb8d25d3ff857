const { MongoClient } = require('mongodb');

let client;
let carts;

beforeAll(async () => {
  client = await MongoClient.connect(process.env.MONGODB_URI);
  carts = client.db('carts_test').collection('carts'); // a database per test file: files run in parallel
});

afterAll(() => client.close());

test('a cart is saved and read back', async () => {
  await carts.insertOne({ _id: 'c1', items: ['apple'], total: 3 });
  expect(await carts.findOne({ _id: 'c1' })).toEqual({ _id: 'c1', items: ['apple'], total: 3 });
});

test('updates apply as in MongoDB', async () => {
  await carts.updateOne({ _id: 'c1' }, { $push: { items: 'pear' }, $inc: { total: 2 } });
  expect(await carts.findOne({ _id: 'c1' })).toEqual({ _id: 'c1', items: ['apple', 'pear'], total: 5 });
});
