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
const CHUNKS = quick ? 3 : 9;
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
  const memory = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', 'scripts/bench/memory.mjs', String(quick ? 200_000 : 1_000_000)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error('memory script failed'))));
  });
  out[`memory for ${memory.docs.toLocaleString('en')} small docs`] = `${(memory.bytes / 1048576).toFixed(0)} MiB for ${(memory.bsonBytes / 1048576).toFixed(0)} MiB of BSON = ${(memory.bytes / memory.bsonBytes).toFixed(2)}x; MayflyServer.create() median ${memory.createMs.toFixed(1)} ms`;
  return out;
}

/** findOne latencies (ms) of back-to-back probes of `coll` until `done()` says stop. */
async function probeLatencies(coll, done) {
  const lat = [];
  while (!done()) {
    const t0 = performance.now();
    await coll.findOne({ _id: 1 });
    lat.push(performance.now() - t0);
  }
  return lat;
}

/** Probes for `ms` milliseconds. */
function probeFor(coll, ms) {
  const until = performance.now() + ms;
  return probeLatencies(coll, () => performance.now() >= until);
}

const p99Line = (idle, busy) =>
  `${pct(idle, 0.99).toFixed(2)} ms vs ${pct(busy, 0.99).toFixed(2)} ms (${(pct(busy, 0.99) / pct(idle, 0.99)).toFixed(2)}x, ${busy.length} probes)`;

/**
 * The TTL latency protocol on `server`: the collection filled through the driver, 3 s of idle
 * probes (a p99 over a thousand samples moved by 2x between runs), then probes while `busy`
 * (a command that returns when its work is done) runs on another connection of the same client.
 */
async function ttlProtocol(server, docs, busy) {
  const client = new MongoClient(server.uri, { maxPoolSize: 4 });
  await client.connect();
  const db = client.db('bench');
  const coll = db.collection('expiring');
  await coll.createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
  const probeColl = db.collection('probe');
  await probeColl.insertOne({ _id: 1, v: 1 });
  for (let b = 0; b < docs / 1000; b++) await coll.insertMany(Array.from({ length: 1000 }, (_, i) => ({ i: b * 1000 + i })));
  const idle = await probeFor(probeColl, 3000);
  await db.admin().command({ mayflyAdvanceClock: 61 });
  const visible = await coll.countDocuments({});
  let done = false;
  const probing = probeLatencies(probeColl, () => done);
  const t0 = performance.now();
  const reply = await db.admin().command(busy);
  const seconds = (performance.now() - t0) / 1000;
  done = true;
  const busyLatencies = await probing;
  await client.close();
  return { idle, busy: busyLatencies, seconds, reply, visible };
}

async function ttlFigures() {
  const docs = quick ? 200_000 : 1_000_000;
  const server = await startMayfly(['--clock', 'manual', '--ttl-monitor-enabled', 'false']);
  const run = await ttlProtocol(server, docs, { mayflyRunTtlPass: 1 });
  await stop(server);
  const deleted = Number(run.reply.deleted ?? run.reply.deletedDocuments ?? 0);
  // The floor: the same protocol against the null server, whose one thread is busy for as long
  // in slices of the reaper's length and pace (0.3 ms, a 1 ms pause after each while requests
  // arrive) and does no work. What a single-threaded server working this way costs a waiting
  // client on this machine.
  const nullServer = await startNull();
  const floor = await ttlProtocol(nullServer, docs, { nullServerBusy: Math.round(run.seconds * 1000), sliceMs: 0.3, paceMs: 1 });
  await stop(nullServer);
  return {
    [`TTL: ${docs.toLocaleString('en')} docs expiring at once`]: `${Math.round(deleted / run.seconds).toLocaleString('en')} deletions/s (${deleted.toLocaleString('en')} in ${run.seconds.toFixed(2)} s); visible right after expiry: ${run.visible}`,
    'TTL: findOne p99 idle vs during the pass': p99Line(run.idle, run.busy),
    'floor: the same probes, the null server busy as long in slices paced as the reaper\'s': p99Line(floor.idle, floor.busy),
  };
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
const extra = { ...startup, ...(await mayflyOnly()), ...(await ttlFigures()) };
for (const [k, v] of Object.entries(extra)) console.log(`${k}: ${v}`);
