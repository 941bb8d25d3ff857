// The TTL figures of `npm run bench` (run.mjs starts this script in a process of its own and
// reads the JSON it prints): 1,000,000 documents (200,000 with --quick) expiring at once on
// Mayfly, the reaper's deletions per second, and a client's findOne p99 idle and while the pass
// runs; then the floor, the same protocol against the null server working as the reaper paces
// its slices. Run alone: node scripts/bench/ttl.mjs [--quick]
import { MongoClient } from 'mongodb';
import { pct, startMayfly, startNull, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');

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
 * The TTL latency protocol on `server`: a warm-up, the collection filled through the driver, 3 s
 * of idle probes (a p99 over a thousand samples moved by 2x between runs), then probes while
 * `busy` (a command that returns when its work is done) runs on another connection of the same
 * client.
 *
 * The warm-up is the same at a tenth of the scale: `docs / 10` documents expire and `warmUp`
 * runs while probing; its latencies are not counted. The probing client's first stretch of
 * probes alongside another command is slow whatever the server does: against the null server
 * doing no work (a 1.6 s command that answers at its end, its thread idle), a findOne's p99 was
 * 1.28-2.11 ms in 12 runs against 0.31-0.74 ms idle, and 0.54-0.80 ms in the next such stretch
 * (the null server then working in the reaper's slices). Without the warm-up the floor below
 * missed 3x by itself (4.04-5.40x in five runs).
 */
async function ttlProtocol(server, docs, warmUp, busy) {
  const client = new MongoClient(server.uri, { maxPoolSize: 4 });
  await client.connect();
  const db = client.db('bench');
  const coll = db.collection('expiring');
  await coll.createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
  const probeColl = db.collection('probe');
  await probeColl.insertOne({ _id: 1, v: 1 });
  const insert = async (n) => {
    for (let b = 0; b < n / 1000; b++) await coll.insertMany(Array.from({ length: 1000 }, (_, i) => ({ i: b * 1000 + i })));
  };
  const expireAll = () => db.admin().command({ mayflyAdvanceClock: 61 });
  const probeWhile = async (command) => {
    let done = false;
    const probing = probeLatencies(probeColl, () => done);
    const t0 = performance.now();
    const reply = await db.admin().command(command);
    const seconds = (performance.now() - t0) / 1000;
    done = true;
    return { reply, seconds, latencies: await probing };
  };
  await insert(docs / 10);
  await expireAll();
  await probeWhile(warmUp);
  await insert(docs);
  const idle = await probeFor(probeColl, 3000);
  await expireAll();
  const visible = await coll.countDocuments({});
  const run = await probeWhile(busy);
  await client.close();
  return { idle, busy: run.latencies, seconds: run.seconds, reply: run.reply, visible };
}

async function ttlFigures() {
  const docs = quick ? 200_000 : 1_000_000;
  const server = await startMayfly(['--clock', 'manual', '--ttl-monitor-enabled', 'false']);
  const run = await ttlProtocol(server, docs, { mayflyRunTtlPass: 1 }, { mayflyRunTtlPass: 1 });
  await stop(server);
  const deleted = Number(run.reply.deleted ?? run.reply.deletedDocuments ?? 0);
  // The floor: the same protocol against the null server, whose one thread is busy for as long
  // (a tenth as long in the warm-up) in slices of the reaper's length and pace (0.3 ms, a 2 ms
  // pause after each while requests arrive) and does no work. What a single-threaded server
  // working this way costs a waiting client on this machine.
  const nullServer = await startNull();
  const busyFor = (ms) => ({ nullServerBusy: Math.round(ms), sliceMs: 0.3, paceMs: 2 });
  const floor = await ttlProtocol(nullServer, docs, busyFor(run.seconds * 100), busyFor(run.seconds * 1000));
  await stop(nullServer);
  return {
    [`TTL: ${docs.toLocaleString('en')} docs expiring at once`]: `${Math.round(deleted / run.seconds).toLocaleString('en')} deletions/s (${deleted.toLocaleString('en')} in ${run.seconds.toFixed(2)} s); visible right after expiry: ${run.visible}`,
    'TTL: findOne p99 idle vs during the pass': p99Line(run.idle, run.busy),
    'floor: the same probes, the null server busy as long in slices paced as the reaper\'s': p99Line(floor.idle, floor.busy),
  };
}

process.stdout.write(JSON.stringify(await ttlFigures()));
