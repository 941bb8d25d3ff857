// Memory held by Mayfly for N small documents (heap + external + array buffers, after GC),
// against their total BSON size; also MayflyServer.create() time in-process.
// Run with --expose-gc: node --expose-gc scripts/bench/memory.mjs 1000000
import { calculateObjectSize, ObjectId } from 'bson';
import { MongoClient } from 'mongodb';
import { MayflyServer } from '../../dist/index.js';

const docs = Number(process.argv[2] ?? 1_000_000);
/**
 * Live bytes: collected until the figure stops falling. One full collection sometimes left
 * 14 MB more than the next (1 run in 3 read 154 MB instead of 140 MB for 1,000,000 documents):
 * memory that only a later collection frees.
 */
const used = () => {
  let last = Infinity;
  for (let i = 0; i < 5; i++) {
    global.gc();
    const m = process.memoryUsage();
    const now = m.heapUsed + m.external;
    if (now >= last) return last;
    last = now;
  }
  return last;
};
const createTimes = [];
for (let i = 0; i < 11; i++) {
  const t0 = performance.now();
  const s = await MayflyServer.create();
  createTimes.push(performance.now() - t0);
  await s.stop();
}
const server = await MayflyServer.create();
const client = new MongoClient(server.getUri());
await client.connect();
const coll = client.db('mem').collection('docs');
await coll.insertOne({ warm: 1 });
await coll.deleteMany({});
const before = used();
let bsonBytes = 0;
for (let b = 0; b < docs / 1000; b++) {
  const batch = Array.from({ length: 1000 }, (_, i) => ({ _id: new ObjectId(), k: b * 1000 + i, name: 'user' + (b * 1000 + i), n: 1 }));
  for (const d of batch) bsonBytes += calculateObjectSize(d);
  await coll.insertMany(batch);
}
const after = used();
createTimes.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ docs, bytes: after - before, bsonBytes, createMs: createTimes[5] }));
await client.close();
await server.stop();
