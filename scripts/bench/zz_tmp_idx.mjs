// npm run bench [-- --quick]: the workloads of PERFORMANCE.md, driven by the official driver
// against Mayfly and against the null server (same machine, same run, alternating), printing
// each workload's median rate for both and the ratio; then Mayfly-only figures (index scaling,
// scan speed, TTL reaper, start-up, memory). Each server runs in its own process.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const SCALE = quick ? 0.3 : 1;
const n = (x) => Math.max(1, Math.round(x * SCALE));

function startProcess(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const rl = readline.createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      const m = /mongodb:\/\/[^"\s]+/.exec(line);
      if (m) resolve({ child, uri: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}
const startNull = () => startProcess(['scripts/bench/null_server.mjs']);
const startMayfly = (extra = []) => startProcess(['--max-old-space-size=8192', 'bin/mayfly.js', '--port', '0', '--quiet', ...extra]);
function stop(server) {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.on('exit', resolve);
    server.child.kill('SIGTERM');
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function timed(ops, concurrency, fn) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < ops) await fn(next++);
  }));
  return ops / ((performance.now() - t0) / 1000);
}

const smallDoc = (i) => ({ k: i, name: 'user' + i, n: 1 });

async function mayflyOnly() {
  const out = {};
  // Index scaling: point queries on 1,000 vs 1,000,000 documents.
  const big = quick ? 200_000 : 1_000_000;
  const server = await startMayfly();
  const client = new MongoClient(server.uri, { maxPoolSize: 16 });
  await client.connect();
  const db = client.db('bench');
  for (const [name, size] of [['small', 1000], ['large', big]]) {
    const coll = db.collection(name);
    await coll.createIndex({ k: 1 });
    for (let b = 0; b < size / 1000; b++) await coll.insertMany(Array.from({ length: 1000 }, (_, i) => smallDoc(b * 1000 + i)));
  }
  const rate = async (name, size) => timed(n(4000), 1, (i) => db.collection(name).findOne({ k: (i * 7919) % size }));
  await rate('small', 1000);
  const small = median([await rate('small', 1000), await rate('small', 1000), await rate('small', 1000)]);
  const large = median([await rate('large', big), await rate('large', big), await rate('large', big)]);
  out[`point query, ${big.toLocaleString('en')} docs vs 1,000`] = `${Math.round(large)}/s vs ${Math.round(small)}/s = ${(large / small).toFixed(2)}`;
  // Range query served by the index: 100 consecutive keys out of the large collection.
  const RANGE = 100;
  const rangeRate = async (name, size) =>
    timed(n(1500), 1, async (i) => {
      const from = (i * 7919) % (size - RANGE);
      const docs = await db.collection(name).find({ k: { $gte: from, $lt: from + RANGE } }).toArray();
      if (docs.length !== RANGE) throw new Error(`range query returned ${docs.length} documents`);
    });
  await rangeRate('small', 1000);
  const rangeSmall = median([await rangeRate('small', 1000), await rangeRate('small', 1000), await rangeRate('small', 1000)]);
  const rangeLarge = median([await rangeRate('large', big), await rangeRate('large', big), await rangeRate('large', big)]);
  const plan = await db.collection('large').find({ k: { $gte: 500, $lt: 500 + RANGE } }).explain('executionStats');
  const ixscan = plan.executionStats.executionStages.inputStage;
  out[`range query (${RANGE} docs by index), ${big.toLocaleString('en')} docs vs 1,000`] =
    `${Math.round(rangeLarge)}/s vs ${Math.round(rangeSmall)}/s = ${(rangeLarge / rangeSmall).toFixed(2)} (${Math.round(rangeLarge * RANGE).toLocaleString('en')} docs/s; plan ${plan.queryPlanner.winningPlan.stage} <- ${ixscan.stage} ${ixscan.indexName}, ${plan.executionStats.totalKeysExamined} keys, ${plan.executionStats.totalDocsExamined} docs examined)`;
  await client.close();
  await stop(server);
  return out;
}
for (let r = 0; r < 3; r++) console.log(JSON.stringify(await mayflyOnly()));
