import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';

describe('carts', function () {
  let client;
  let carts;

  before(async function () {
    client = await MongoClient.connect(process.env.MONGODB_URI); // set by mayfly/mocha
    carts = client.db('carts_test').collection('carts');
  });

  after(() => client.close());

  it('saves a cart and reads it back', async function () {
    await carts.insertOne({ _id: 'c1', items: ['apple'], total: 3 });
    assert.deepEqual(await carts.findOne({ _id: 'c1' }), { _id: 'c1', items: ['apple'], total: 3 });
  });

  it('applies updates as MongoDB does', async function () {
    await carts.updateOne({ _id: 'c1' }, { $push: { items: 'pear' }, $inc: { total: 2 } });
    assert.deepEqual(await carts.findOne({ _id: 'c1' }), { _id: 'c1', items: ['apple', 'pear'], total: 5 });
  });
});
