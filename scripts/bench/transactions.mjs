// node scripts/bench/transactions.mjs [--quick] [--json] (after npm run build): transactions and
// snapshot reads through the official driver against a one-node replica set in its own process.
// 1. A transaction of one insert and one update by _id, committed, against the same two writes
//    without a transaction (target: >= 0.5x the rate).
// 2. The same transactions while a snapshot session reads again and again at the time of its
//    first read (it pins that time's history for the whole run), against none (target: writers
//    slowed by <= 10 %); the server's RSS before, during and after (the pinned history freed).
import fs from 'node:fs';
import { MongoClient } from 'mongodb';
import { startMayfly, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');
const N = quick ? 1500 : 6000;

const server = await startMayfly(['--replSet', 'rs0', '--compat', 'mongodb']);
const uri = `${server.uri.replace(/\/?(\?.*)?$/, '')}/?directConnection=true`;
const client = new MongoClient(uri, { maxPoolSize: 4 });
const readerClient = new MongoClient(uri, { maxPoolSize: 2 });
await client.connect();
await readerClient.connect();
const db = client.db('bench_txn');
const rssMiB = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'));
  return m ? `${(Number(m[1]) / 1024).toFixed(0)} MiB` : '?';
};

let next = 0;
async function plainRate(coll) {
  const c = db.collection(coll);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const _id = ++next;
    await c.insertOne({ _id, n: 0 });
    await c.updateOne({ _id }, { $inc: { n: 1 } });
  }
  return N / ((performance.now() - t0) / 1000);
}
async function txnRate(coll) {
  const c = db.collection(coll);
  const session = client.startSession();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const _id = ++next;
    session.startTransaction();
    await c.insertOne({ _id, n: 0 }, { session });
    await c.updateOne({ _id }, { $inc: { n: 1 } }, { session });
    await session.commitTransaction();
  }
  const rate = N / ((performance.now() - t0) / 1000);
  await session.endSession();
  return rate;
}

await db.collection('t').insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: -1 - i, n: 0 })));
// Warm-up, then alternate the two so that neither gets the warmer half.
await plainRate('p');
await txnRate('t');
const plain = [];
const txn = [];
for (let k = 0; k < 3; k++) {
  plain.push(await plainRate('p'));
  txn.push(await txnRate('t'));
}
const best = (xs) => Math.max(...xs);

const rssBefore = rssMiB();
let reading = true;
let reads = 0;
let rssDuring = '?';
const reader = (async () => {
  const session = readerClient.startSession({ snapshot: true });
  const c = readerClient.db('bench_txn').collection('t');
  while (reading) {
    await c.find({ _id: { $lt: 0 } }, { session }).limit(10).toArray();
    reads++;
    await new Promise((r) => setImmediate(r));
  }
  await session.endSession();
})();
const pinned = [];
for (let k = 0; k < 3; k++) pinned.push(await txnRate('t'));
rssDuring = rssMiB();
reading = false;
await reader;
// The pinned history is freed as it leaves minSnapshotHistoryWindowInSeconds (300 s): shorten the window.
await client.db('admin').command({ setParameter: 1, minSnapshotHistoryWindowInSeconds: 0 });
await db.collection('t').insertOne({ _id: 'after' });
await client.db('admin').command({ setParameter: 1, minSnapshotHistoryWindowInSeconds: 300 });
await new Promise((r) => setTimeout(r, 200));
const rssAfter = rssMiB();

const figures = {
  'transactions: insert + update by _id, txns/s vs the same two writes without a transaction (target >= 0.5x)': `${best(txn).toFixed(0)} vs ${best(plain).toFixed(0)} (${(best(txn) / best(plain)).toFixed(2)}x)`,
  'transactions: txns/s with a snapshot session reading throughout vs none (target slowdown <= 10 %)': `${best(pinned).toFixed(0)} vs ${best(txn).toFixed(0)} (${((1 - best(pinned) / best(txn)) * 100).toFixed(1)} % slower, ${reads} snapshot reads)`,
  'transactions: server RSS before / during / after the snapshot reader': `${rssBefore} / ${rssDuring} / ${rssAfter}`,
};
await client.close();
await readerClient.close();
await stop(server);
if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(figures));
else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
