import { MongoClient } from 'mongodb';
const { MayflyServer } = await import('/work/wt/buckets/dist/index.js');
const server = await MayflyServer.create();
const client = new MongoClient(server.getUri());
await client.connect();
const db = client.db('b');
const inner = db.collection('inner'), outer = db.collection('outer');
for (let b = 0; b < 10; b++) await inner.insertMany(Array.from({ length: 10000 }, (_, i) => ({ _id: b * 10000 + i, ref: b * 10000 + i, payload: 'p' + i })));
await inner.createIndex({ ref: 1 });
await outer.insertMany(Array.from({ length: 10000 }, (_, i) => ({ _id: i, ref: (i * 7) % 100000 })));
for (let r = 0; r < 4; r++) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  await outer.aggregate([{ $lookup: { from: 'inner', localField: 'ref', foreignField: 'ref', as: 'joined' } }, { $skip: 9999 }]).toArray();
  console.log('lookup', (performance.now() - t0).toFixed(0), 'ms cpu', (process.cpuUsage(c0).user / 1000).toFixed(0));
}
await client.close(); await server.stop();
