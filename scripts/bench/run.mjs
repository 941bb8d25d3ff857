// npm run bench [-- --quick]: the workloads of PERFORMANCE.md, driven by the official driver
// against Mayfly and against the null server (same machine, same run, alternating), printing
// each workload's median rate for both and the ratio; then Mayfly-only figures (index scaling,
// scan speed, TTL reaper, start-up, memory). Each server runs in its own process.
import net from 'node:net';
import { MongoClient } from 'mongodb';
import { expressionFigures } from './expressions.mjs';
import { childFigures, median, startMayfly, startNull, startProcess, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');
const CHUNKS = quick ? 3 : 9;
const SCALE = quick ? 0.3 : 1;
const n = (x) => Math.max(1, Math.round(x * SCALE));

async function timed(ops, concurrency, fn) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < ops) await fn(next++);
  }));
  return ops / ((performance.now() - t0) / 1000);
}

const smallDoc = (i) => ({ k: i, name: 'user' + i, n: 1 });

/**
 * Workloads measured on both servers: per chunk, `ops` calls of `op` with `concurrency` in
 * flight (each call counts `perOp` units: documents for the batch workloads), after `setup`.
 */
const WORKLOADS = {
  'insertOne sequential': { ops: 1000, concurrency: 1, op: (db, i) => db.collection('ins1').insertOne(smallDoc(i)) },
  'insertOne 16 in flight': { ops: 3000, concurrency: 16, op: (db, i) => db.collection('ins16').insertOne(smallDoc(i)) },
  'findOne indexed sequential': {
    ops: 1000,
    concurrency: 1,
    setup: (db) => prepareIndexed(db, 'fo'),
    op: (db, i) => db.collection('fo').findOne({ k: (i * 7919) % 1000 }),
  },
  'findOne indexed 16 in flight': {
    ops: 3000,
    concurrency: 16,
    setup: (db) => prepareIndexed(db, 'fo16'),
    op: (db, i) => db.collection('fo16').findOne({ k: (i * 7919) % 1000 }),
  },
  'updateOne $inc indexed sequential': {
    ops: 1000,
    concurrency: 1,
    setup: (db) => prepareIndexed(db, 'up'),
    op: (db, i) => db.collection('up').updateOne({ k: (i * 7919) % 1000 }, { $inc: { n: 1 } }),
  },
  'updateOne $inc indexed 16 in flight': {
    ops: 3000,
    concurrency: 16,
    setup: (db) => prepareIndexed(db, 'up16'),
    op: (db, i) => db.collection('up16').updateOne({ k: (i * 7919) % 1000 }, { $inc: { n: 1 } }),
  },
  'insertMany 1000 docs (docs/s)': {
    ops: 30,
    concurrency: 1,
    perOp: 1000,
    op: (db, b) => db.collection('many').insertMany(Array.from({ length: 1000 }, (_, i) => smallDoc(b * 1000 + i))),
  },
  'cursor read 100,000 docs (docs/s)': {
    ops: 1,
    concurrency: 1,
    perOp: 100_000,
    setup: async (db) => {
      const coll = db.collection('read');
      for (let b = 0; b < 100; b++) await coll.insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: b * 1000 + i, k: b * 1000 + i, name: 'user', n: 1 })));
    },
    op: async (db) => {
      let count = 0;
      for await (const _ of db.collection('read').find({})) count++;
      if (count !== 100_000) throw new Error(`cursor read ${count} documents`);
    },
  },
};

async function prepareIndexed(db, name) {
  const coll = db.collection(name);
  await coll.createIndex({ k: 1 });
  await coll.insertMany(Array.from({ length: 1000 }, (_, i) => smallDoc(i)));
}

/**
 * Both servers run side by side; chunks of each workload alternate between them (which goes
 * first alternates too), and the ratio is the median of the chunks' Mayfly/null ratios: noise
 * on a shared machine moves both members of a pair alike, where separate runs seconds apart
 * differed by more than the servers did.
 */
async function compareWorkloads() {
  const rows = [];
  for (const [name, w] of Object.entries(WORKLOADS)) {
    const sides = {};
    for (const target of ['null', 'mayfly']) {
      const server = target === 'null' ? await startNull() : await startMayfly();
      const client = new MongoClient(server.uri, { maxPoolSize: 16 });
      await client.connect();
      const db = client.db('bench');
      await w.setup?.(db);
      sides[target] = { server, client, db, next: 0, rates: [] };
    }
    const chunk = async (side) => {
      const ops = n(w.ops);
      const start = side.next;
      side.next += ops;
      const rate = await timed(ops, w.concurrency, (i) => w.op(side.db, start + i));
      return rate * (w.perOp ?? 1);
    };
    // Warm-up (JIT, connection pool): three chunks each, not counted.
    for (let c = 0; c < 3; c++) {
      await chunk(sides.null);
      await chunk(sides.mayfly);
    }
    const ratios = [];
    for (let c = 0; c < CHUNKS; c++) {
      const order = c % 2 === 0 ? ['null', 'mayfly'] : ['mayfly', 'null'];
      const got = {};
      for (const target of order) got[target] = await chunk(sides[target]);
      sides.null.rates.push(got.null);
      sides.mayfly.rates.push(got.mayfly);
      ratios.push(got.mayfly / got.null);
    }
    for (const side of Object.values(sides)) {
      await side.client.close();
      await stop(side.server);
    }
    rows.push({ workload: name, 'null server /s': Math.round(median(sides.null.rates)), 'mayfly /s': Math.round(median(sides.mayfly.rates)), ratio: median(ratios).toFixed(2) });
  }
  return rows;
}

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
  const rate = async (name, size) => timed(n(2000), 1, (i) => db.collection(name).findOne({ k: (i * 7919) % size }));
  // Small and large alternate, and the ratio is the median of the pairs' ratios: on a noisy
  // machine, runs far apart in time differ more than the two collections do.
  const alternated = async (measure) => {
    await measure('small', 1000);
    await measure('large', big);
    const smalls = [];
    const larges = [];
    const ratios = [];
    for (let r = 0; r < 5; r++) {
      const s = await measure('small', 1000);
      const l = await measure('large', big);
      smalls.push(s);
      larges.push(l);
      ratios.push(l / s);
    }
    return { small: median(smalls), large: median(larges), ratio: median(ratios) };
  };
  const point = await alternated(rate);
  out[`point query, ${big.toLocaleString('en')} docs vs 1,000`] = `${Math.round(point.large)}/s vs ${Math.round(point.small)}/s = ${point.ratio.toFixed(2)} (median of 5 alternated pairs)`;
  // Range query served by the index: 100 consecutive keys out of the large collection.
  const RANGE = 100;
  const rangeRate = async (name, size) =>
    timed(n(800), 1, async (i) => {
      const from = (i * 7919) % (size - RANGE);
      const docs = await db.collection(name).find({ k: { $gte: from, $lt: from + RANGE } }).toArray();
      if (docs.length !== RANGE) throw new Error(`range query returned ${docs.length} documents`);
    });
  const range = await alternated(rangeRate);
  const rangeSmall = range.small;
  const rangeLarge = range.large;
  const plan = await db.collection('large').find({ k: { $gte: 500, $lt: 500 + RANGE } }).explain('executionStats');
  const ixscan = plan.executionStats.executionStages.inputStage;
  out[`range query (${RANGE} docs by index), ${big.toLocaleString('en')} docs vs 1,000`] =
    `${Math.round(rangeLarge)}/s vs ${Math.round(rangeSmall)}/s = ${range.ratio.toFixed(2)} (${Math.round(rangeLarge * RANGE).toLocaleString('en')} docs/s; plan ${plan.queryPlanner.winningPlan.stage} <- ${ixscan.stage} ${ixscan.indexName}, ${plan.executionStats.totalKeysExamined} keys, ${plan.executionStats.totalDocsExamined} docs examined)`;
  await client.close();
  await stop(server);
  // Scan: a dedicated collection of exactly 100,000 documents.
  {
    const s = await startMayfly();
    const c = new MongoClient(s.uri);
    await c.connect();
    const coll = c.db('bench').collection('scan');
    for (let b = 0; b < 100; b++) await coll.insertMany(Array.from({ length: 1000 }, (_, i) => smallDoc(b * 1000 + i)));
    const times = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      await coll.find({ name: 'no such name' }).toArray();
      times.push(performance.now() - t0);
    }
    out['unindexed filter over 100,000 docs'] = `${Math.round(100_000 / (median(times) / 1000)).toLocaleString('en')} docs examined/s`;
    await c.close();
    await stop(s);
  }
  out['aggregate $project of ten expressions vs find, 100,000 docs'] = await expressionFigures(quick);
  // The stages' targets (issue: every aggregation stage), in a process of their own.
  Object.assign(out, await childFigures(['--max-old-space-size=8192', 'scripts/bench/stages.mjs', '--json', ...(quick ? ['--quick'] : [])]));
  const memory = await childFigures(['--expose-gc', 'scripts/bench/memory.mjs', String(quick ? 200_000 : 1_000_000)]);
  out[`memory for ${memory.docs.toLocaleString('en')} small docs`] = `${(memory.bytes / 1048576).toFixed(0)} MiB for ${(memory.bsonBytes / 1048576).toFixed(0)} MiB of BSON = ${(memory.bytes / memory.bsonBytes).toFixed(2)}x; MayflyServer.create() median ${memory.createMs.toFixed(1)} ms`;
  Object.assign(out, await childFigures(['scripts/bench/window.mjs', '--json', ...(quick ? ['--quick'] : [])]));
  return out;
}

/**
 * Start-up, command line to first accepted connection: Mayfly, and for reference a bare Node
 * process that only opens a listener (the floor on this machine). Measured first, while this
 * process is small and idle (later, its own garbage collection would delay noticing the child).
 */
async function startupFigures() {
  const timeStart = async (start) => {
    const t0 = performance.now();
    const s = await start();
    const port = Number(/:(\d+)\//.exec(s.uri)[1]);
    await new Promise((resolve, reject) => net.connect(port, '127.0.0.1').on('connect', function () { this.destroy(); resolve(); }).on('error', reject));
    const ms = performance.now() - t0;
    await stop(s);
    return ms;
  };
  const bareListener = () =>
    startProcess(['-e', "const s = require('net').createServer().listen(0, '127.0.0.1', () => console.log('mongodb://127.0.0.1:' + s.address().port + '/'))"]);
  const mayfly = [];
  const bare = [];
  // As a user starts it: `mayfly`, without the heap flag the other workloads need (a V8 flag
  // that also makes V8 refuse the build's code cache).
  const startPlainMayfly = () => startProcess(['bin/mayfly.js', '--port', '0', '--quiet']);
  for (let i = 0; i < (quick ? 5 : 11); i++) {
    mayfly.push(await timeStart(startPlainMayfly));
    bare.push(await timeStart(bareListener));
  }
  return { 'start-up, command line to first connection (median)': `${median(mayfly).toFixed(0)} ms (a bare Node listener: ${median(bare).toFixed(0)} ms)` };
}

console.log(`Mayfly benchmark (${quick ? "quick" : "full"}: ${CHUNKS} alternated chunks per workload), node ${process.version}, ${new Date().toISOString()}`);
const startup = await startupFigures();
const rows = await compareWorkloads();
console.table(rows);
// The TTL figures in a process of their own: its findOne latencies are those of a client, not
// of a process that has been through every workload above. In two runs each, Mayfly's p99
// ratio was 4.11x and 5.19x in this process, 1.79x and 1.76x in a fresh one.
const ttl = await childFigures(['scripts/bench/ttl.mjs', ...(quick ? ['--quick'] : [])]);
const auth = await childFigures(['scripts/bench/auth.mjs', ...(quick ? ['--quick'] : [])]);
const changeStreams = await childFigures(['scripts/bench/change_streams.mjs', '--json', ...(quick ? ['--quick'] : [])]);
const transactions = await childFigures(['scripts/bench/transactions.mjs', '--json', ...(quick ? ['--quick'] : [])]);
const extra = { ...startup, ...(await mayflyOnly()), ...ttl, ...auth, ...changeStreams, ...transactions };
for (const [k, v] of Object.entries(extra)) console.log(`${k}: ${v}`);
