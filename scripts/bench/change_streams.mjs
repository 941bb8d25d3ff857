// node scripts/bench/change_streams.mjs [--quick] (after npm run build): change streams through
// the official driver against a one-node replica set in its own process (`--replSet rs0`). Prints the insert → event
// latency (p50, p99) against an insert's own round trip, and the write rate with 10 watchers on
// the collection against the rate with none (targets: p50 ≤ 2× the round trip; ≤ 1.5× cost).
import { MongoClient } from 'mongodb';
import { startMayfly, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');
const N = quick ? 300 : 2000;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const server = await startMayfly(['--replSet', 'rs0', '--compat', 'mongodb']);
const uri = `${server.uri.replace(/\/?(\?.*)?$/, '')}/?directConnection=true`;
const writer = new MongoClient(uri, { maxPoolSize: 4 });
const watcher = new MongoClient(uri, { maxPoolSize: 16 });
await writer.connect();
await watcher.connect();
const db = writer.db('bench_cs');

// An insert's own round trip.
const rtt = [];
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  await db.collection('rtt').insertOne({ i });
  rtt.push(performance.now() - t0);
}

// Insert → event: the time from sending the insert to the watcher holding its event.
const stream = watcher.db('bench_cs').collection('lat').watch();
await stream.cursor.cursorInit();
const lat = [];
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  const next = stream.next();
  await db.collection('lat').insertOne({ i });
  await next;
  lat.push(performance.now() - t0);
}
await stream.close();

async function writeRate(coll) {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await db.collection(coll).insertOne({ i });
  return N / ((performance.now() - t0) / 1000);
}
const alone = await writeRate('w0');
const watchers = [];
for (let k = 0; k < 10; k++) {
  const s = watcher.db('bench_cs').collection('w10').watch();
  await s.cursor.cursorInit();
  watchers.push(s);
  (async () => {
    try {
      for (;;) await s.next();
    } catch {
      // closed
    }
  })();
}
const watched = await writeRate('w10');
for (const s of watchers) await s.close();

const figures = {
  'change streams: insert round trip (driver)': `p50 ${pct(rtt, 0.5).toFixed(3)} ms, p99 ${pct(rtt, 0.99).toFixed(3)} ms`,
  'change streams: insert -> event (target p50 <= 2x the round trip)': `p50 ${pct(lat, 0.5).toFixed(3)} ms (${(pct(lat, 0.5) / pct(rtt, 0.5)).toFixed(2)}x), p99 ${pct(lat, 0.99).toFixed(3)} ms`,
  'change streams: writes/s with 10 watchers vs none (target cost <= 1.5x)': `${watched.toFixed(0)} vs ${alone.toFixed(0)} (cost ${(alone / watched).toFixed(2)}x)`,
};
await writer.close();
await watcher.close();
await stop(server);
// As the other child benchmarks: the figures as JSON for run.mjs, or lines when run alone.
if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(figures));
else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
