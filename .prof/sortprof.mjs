import { MongoClient } from 'mongodb';
const { MayflyServer } = await import('/work/wt/buckets/dist/index.js');
const server = await MayflyServer.create();
const client = new MongoClient(server.getUri());
await client.connect();
const coll = client.db('b').collection('s');
const N = Number(process.argv[3] ?? 300000), B = 10000;
for (let b = 0; b < N / B; b++) await coll.insertMany(Array.from({ length: B }, (_, i) => { const k = b * B + i; return { _id: k, key: k % 100, v: (k * 7919) % 1000003, name: 'user' + k }; }));
const which = process.argv[2];
for (let r = 0; r < 2; r++) {
  const t0 = performance.now();
  if (which === 'sort') await coll.aggregate([{ $sort: { v: 1 } }, { $limit: 10 }]).toArray();
  else if (which === 'full') await coll.aggregate([{ $sort: { v: 1 } }, { $skip: N - 1 }]).toArray();
  else if (which === 'group') await coll.aggregate([{ $group: { _id: '$key', total: { $sum: '$v' }, mean: { $avg: '$v' } } }]).toArray();
  else await coll.countDocuments({ name: 'x' });
  console.log(which, (performance.now() - t0).toFixed(0), 'ms', process.cpuUsage());
}
await client.close(); await server.stop();
