// Reads that go over every stored document, through the driver against an in-process server:
// 100,000 documents of {k, name, n, tags}, each read 7 times, median times printed.
// Run after `npm run build`: node scripts/bench/aggregate_scan.mjs [dist]
import { MongoClient } from 'mongodb';
import { fileURLToPath } from 'node:url';

const dist = process.argv[2] ?? fileURLToPath(new URL('../../dist', import.meta.url));
const { MayflyServer } = await import(`${dist}/index.js`);
const server = await MayflyServer.create();
const client = new MongoClient(server.getUri());
await client.connect();
const coll = client.db('bench').collection('scan');
for (let b = 0; b < 100; b++) {
  await coll.insertMany(Array.from({ length: 1000 }, (_, i) => ({ k: b * 1000 + i, name: 'user' + (b * 1000 + i), n: i % 10, tags: ['a', 'b'] })));
}
async function time(label, read) {
  const times = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: ${times[3].toFixed(1)} ms`);
}
await time('countDocuments({n: 3})', () => coll.countDocuments({ n: 3 }));
await time('$match on two fields, then $group', () => coll.aggregate([{ $match: { n: 3, name: { $gt: 'user5' } } }, { $group: { _id: null, c: { $sum: 1 } } }]).toArray());
await time('$group over every document', () => coll.aggregate([{ $group: { _id: '$n', c: { $sum: 1 } } }]).toArray());
await time('find({n: 3}), 10,000 documents returned', () => coll.find({ n: 3 }).toArray());
await client.close();
await server.stop();
